// Prints how much the simulator's order flow predicts the next 4 h, in the informed world (the
// default share) and in the null world (`--informed 0`): the correlation of 5-minute CVD with the
// next 4 h return, pooled over pairs. Run: node --import tsx bench/informed-flow.ts [days]
import { INFORMED_SHARE_DEFAULT } from '../core/config.js';
import { measureCandleInformation, measureFlowInformation } from './lib/flow-information.js';

const days = Number(process.argv[2] ?? 10);
const symbols = ['ZEC', 'DOGE', 'SUI', 'ENA', 'ARB', 'APT', 'UNI', 'LDO'];
const startMs = Date.UTC(2026, 1, 6);
for (const informedShare of [INFORMED_SHARE_DEFAULT, 0]) {
  const t0 = performance.now();
  const m = measureFlowInformation({ seed: 42, informedShare, symbols, startMs, days });
  const se = 1 / Math.sqrt(m.independentSamples);
  console.log(`informed ${informedShare}: corr(5-min CVD, next 4 h return) = ` +
    `${m.correlation.toFixed(3)}, rank ${m.rankCorrelation.toFixed(3)} ` +
    `(+/- ${(1.96 * se).toFixed(3)} at 95 %, ` +
    `${m.samples} windows, ${m.independentSamples} non-overlapping) in ` +
    `${((performance.now() - t0) / 1000).toFixed(1)} s`);
  console.log('  ' + m.bySymbol.map((s) => `${s.symbol} ${s.correlation.toFixed(3)} ` +
    `(${s.trades} trades)`).join(', '));
}
const candleSymbols = ['BTC', 'ETH', 'SOL', 'HYPE', ...symbols, 'OP', 'TIA', 'GALA', 'PURR'];
// The warm-up's far past is hourly candles, its last hours 5-minute ones: both, as flow windows.
for (const [label, flowWindowMs] of [['5-min', 5 * 60_000], ['1-h', 3_600_000]] as const) {
  for (const informedShare of [INFORMED_SHARE_DEFAULT, 0]) {
    const correlation = measureCandleInformation({ seed: 42, informedShare,
      symbols: candleSymbols, startMs, days: 60, flowWindowMs });
    console.log(`informed ${informedShare}, warm-up candles: corr(${label} return, next 4 h ` +
      `return) = ${correlation.toFixed(3)} (${candleSymbols.length} pairs x 60 days)`);
  }
}
