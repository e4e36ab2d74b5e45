// Prints the signals' track record by grade in the informed world (the default share) and the
// null world (`--informed 0`), from pair engines warmed in-process over the simulator's warm-up
// candles. Run: node --import tsx bench/track-record-worlds.ts [days] [pairs] [seed]
import { INFORMED_SHARE_DEFAULT } from '../core/config.js';
import { simReport, simTrackRecord } from './lib/sim-track-record.js';

const days = Number(process.argv[2] ?? 30);
const pairs = Number(process.argv[3] ?? 8);
const seed = Number(process.argv[4] ?? 1);
const toMs = Date.UTC(2026, 2, 10);
const f = (x: number | null, digits = 2) => (x === null ? '-' : x.toFixed(digits));
for (const informedShare of [INFORMED_SHARE_DEFAULT, 0]) {
  const t0 = performance.now();
  const record = simTrackRecord({ seed, informedShare, pairs, toMs, days });
  const report = simReport(record, 'grade');
  const seconds = (performance.now() - t0) / 1000;
  console.log(`\ninformed ${informedShare}: ${record.tracked.length} signals, ${pairs} pairs x ` +
    `${days} days, seed ${seed}, ${seconds.toFixed(1)} s`);
  console.log('| grade | count | evaluated | hit rate | expectancy R [95 %] | edge R [95 %] | ' +
    'BH |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of report.rows) {
    console.log(`| ${row.group} | ${row.count} | ${row.evaluated} | ` +
      `${f(row.hitRate === null ? null : row.hitRate * 100, 1)} % | ` +
      `${f(row.expectancyR)} [${f(row.expectancyRLow)}, ${f(row.expectancyRHigh)}] | ` +
      `${f(row.edgeR)} [${f(row.edgeRLow)}, ${f(row.edgeRHigh)}] | ` +
      `${row.edgeSignificant === null ? '-' : row.edgeSignificant ? 'yes' : 'no'} |`);
  }
  const ic = report.informationCoefficient;
  const mc = report.multipleComparisons;
  console.log(`IC ${f(ic.rho, 3)} [${f(ic.low, 3)}, ${f(ic.high, 3)}] (n ${ic.n}); ` +
    `letters in order: ${report.calibration.lettersInOrder}; groups compared ` +
    `${mc.groupsCompared}, raw significant ${mc.significantBeforeCorrection}, after BH ` +
    `${mc.significantAfterCorrection}`);
}
