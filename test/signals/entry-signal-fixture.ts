// A graded long entry signal on a 5m bar, plan 100 / stop 98 / t1 103 / t2 106, for the
// pipeline tests.
import type { EntrySignal } from '../../actors/signals/types.js';

export function entrySignalAt(symbol: string, openMs: number): EntrySignal {
  return {
    signal_id: `${symbol}-5m-${openMs}-long`, symbol, timeframe: '5m', side: 'long',
    grade: 'B', score: 40, bar_time: new Date(openMs).toISOString(), regime: 'trending',
    confirmed: true, flow_source: 'absorption',
    logics: { liquidity_grab: true, flow_rejection: false, absorption: true, cvd_divergence: false,
      structure_shift: false, level_confluence: false },
    plan: { entry: 100, stop: 98, t1: 103, t2: 106, r_t1: 1.5, r_t2: 3 },
    price_at_signal: 100,
  };
}
