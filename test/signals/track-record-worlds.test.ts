// The track record in the simulator's two worlds (issue 35, item 4): pair engines warmed
// in-process over 30 simulated days of the warm-up's candles, their signals graded walk-forward
// and evaluated from their 5m bars as the service does (bench/lib/sim-track-record.ts). Seeded:
// the figures are the same on every run, so the bounds below are checked, not sampled.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { INFORMED_SHARE_DEFAULT } from '../../core/config.js';
import { statisticsBlockOf } from '../../actors/signals/group-statistics.js';
import { HAS_BASELINE, trackColumns } from '../../actors/signals/track-columns.js';
import { PERFORMANCE_GROUPS } from '../../actors/signals/track-record.js';
import { meanInterval } from '../../kernels/mean-interval.js';
import { simReport, simTrackRecord } from '../../bench/lib/sim-track-record.js';

const WORLD = { seed: 1, pairs: 16, toMs: Date.UTC(2026, 2, 10), days: 30 } as const;

/** The smallest k with P(X > k) <= 1 % for X ~ Binomial(n, p). */
function binomialQuantile99(n: number, p: number): number {
  let cumulative = 0;
  let pk = (1 - p) ** n;
  for (let k = 0; k <= n; k++) {
    cumulative += pk;
    if (cumulative >= 0.99) return k;
    pk *= ((n - k) / (k + 1)) * (p / (1 - p));
  }
  return n;
}

const nullWorld = simTrackRecord({ ...WORLD, informedShare: 0 });

test('null world (--informed 0): no more raw edges than chance gives, and no information', () => {
  const record = nullWorld;
  let compared = 0;
  let raw = 0;
  const discoveries: string[] = [];
  for (const by of PERFORMANCE_GROUPS) {
    const { multipleComparisons, rows } = simReport(record, by);
    compared += multipleComparisons.groupsCompared;
    raw += multipleComparisons.significantBeforeCorrection;
    for (const row of rows) {
      if (row.edgeSignificant === true) discoveries.push(`${by} ${row.group} ${row.edgeR}`);
    }
  }
  // Flow tells nothing here: after Benjamini-Hochberg no group may show an edge. Intervals that
  // took overlapping outcomes for independent ones called some (ETH by symbol, p = 0.002).
  assert.equal(discoveries, [], 'edges after Benjamini-Hochberg');
  // Each compared group shows a raw 95 % edge with chance 5 % when flow tells nothing: the count
  // is at most Binomial(compared, 0.05)'s 99 % quantile (a bound that a calibrated test fails 1
  // run in 100; the groups share signals, so the count is, if anything, more spread).
  assert.ok(compared >= 30, `${compared} groups compared`);
  const allowed = binomialQuantile99(compared, 0.05);
  assert.ok(raw <= allowed, `${raw} of ${compared} groups with a raw edge (at most ${allowed})`);
  const ic = simReport(record, 'grade').informationCoefficient;
  assert.ok(ic.n >= 1_000, `${ic.n} evaluated`);
  assert.ok(ic.low !== null && ic.high !== null && ic.low <= 0 && ic.high >= 0,
    `IC ${ic.rho} [${ic.low}, ${ic.high}] excludes 0`);
});

test('null world: a random-direction entry on the same bars books about 0 R', () => {
  // Gaps through a barrier booked at the barrier paid every near stop: +0.09 R here.
  const c = trackColumns(nullWorld.tracked);
  const values = new Float64Array(c.length);
  const blocks = new Int32Array(c.length);
  let n = 0;
  for (let i = 0; i < c.length; i++) {
    if (c.knownMs[i] === Infinity || (c.flags[i] & HAS_BASELINE) === 0) continue;
    values[n] = c.randomR[i];
    blocks[n] = statisticsBlockOf(c.signalMs[i]);
    n += 1;
  }
  assert.ok(n >= 1_000, `${n} with a baseline`);
  const random = meanInterval(values, n, 35, blocks);
  assert.ok(random !== null && random.low <= 0 && random.high >= 0,
    `random baseline ${random?.mean} [${random?.low}, ${random?.high}] excludes 0`);
});

const informedWorld = simTrackRecord({ ...WORLD, informedShare: INFORMED_SHARE_DEFAULT });

test('informed world (the default): the score seen from the side predicts the 4 h move', () => {
  const ic = simReport(informedWorld, 'grade').informationCoefficient;
  assert.ok(ic.n >= 1_000, `${ic.n} evaluated`);
  assert.ok(ic.low !== null && ic.low > 0, `IC ${ic.rho} [${ic.low}, ${ic.high}]`);
});

test('informed world: a stop fills near its price, not at the close of a later hour', () => {
  // The warm-up's prices move on within its hours: a stop fills where the price crossed it. With
  // each hour's 5m bar missing from the bar store, an outcome saw only the hours' closes and 12 %
  // of outcomes were booked worse than -1.5 R (-21 R for a stop 0.05 % away).
  const c = trackColumns(informedWorld.tracked);
  let evaluated = 0;
  let beyond = 0;
  for (let i = 0; i < c.length; i++) {
    if (c.knownMs[i] === Infinity) continue;
    evaluated += 1;
    if (c.resultR[i] < -1.5) beyond += 1;
  }
  assert.ok(evaluated >= 1_000, `${evaluated} evaluated`);
  assert.ok(beyond <= evaluated / 200, `${beyond} of ${evaluated} outcomes worse than -1.5 R`);
});

test('informed world: B and B or better pay over a random direction on the same bars', () => {
  const report = simReport(informedWorld, 'grade');
  const b = report.rows.find((row) => row.group === 'B');
  assert.ok(b !== undefined && b.evaluated >= 300, `B evaluated ${b?.evaluated}`);
  assert.ok(b.edgeRLow !== null && b.edgeRLow > 0, `B edge ${b.edgeR} [${b.edgeRLow}, ` +
    `${b.edgeRHigh}]`);
  // What a "minimum grade B" alert delivers (A+, A and B together).
  const c = trackColumns(informedWorld.tracked);
  const labels = c.labels.grade;
  const values = new Float64Array(c.length);
  const blocks = new Int32Array(c.length);
  let n = 0;
  for (let i = 0; i < c.length; i++) {
    if (c.knownMs[i] === Infinity || (c.flags[i] & HAS_BASELINE) === 0) continue;
    if (!['A+', 'A', 'B'].includes(labels[c.groups.grade[i]])) continue;
    values[n] = c.resultR[i] - c.randomR[i];
    blocks[n] = statisticsBlockOf(c.signalMs[i]);
    n += 1;
  }
  const edge = meanInterval(values, n, 35, blocks);
  assert.ok(edge !== null && edge.low > 0,
    `B or better: edge ${edge?.mean} [${edge?.low}, ${edge?.high}] over ${n}`);
});

test('informed world: the letters are in order and A+ and A are earned by evidence', () => {
  const report = simReport(informedWorld, 'grade');
  const { calibration } = report;
  const figures = calibration.grades.map((g) => `${g.grade} ${g.evaluated} ${g.expectancyR}`);
  assert.is(calibration.lettersInOrder, true, figures.join(', '));
  assert.ok(calibration.gradesCompared >= 3, figures.join(', '));
  // A+ and A promise a lower bound of 0.30 and 0.15 R: no rule may hand them out. Here no setup
  // shows that much (the best books about 0.2 R), so they may be empty; a letter with enough
  // outcomes to be compared must pay over the random direction.
  for (const { signal } of informedWorld.tracked) {
    if (signal.grade !== 'A+' && signal.grade !== 'A') continue;
    assert.is(signal.grade_basis, 'evidence', `${signal.signal_id} ${signal.grade}`);
  }
  for (const row of report.rows) {
    if (!['A+', 'A', 'B'].includes(row.group) || row.evaluated < calibration.evaluatedMin) continue;
    assert.ok(row.edgeRLow !== null && row.edgeRLow > 0,
      `${row.group} edge ${row.edgeR} [${row.edgeRLow}, ${row.edgeRHigh}] over ${row.evaluated}`);
  }
});

test.run();
