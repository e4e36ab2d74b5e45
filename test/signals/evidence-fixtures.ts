// Hand-made signals and outcomes for the evidence-grade tests: a long with risk 2 (entry 100,
// stop 98) whose outcome hits neither level, so its result in R is (price_after - 100) / 2.
import type { EntrySignal, SignalLogics, SignalOutcome } from '../../actors/signals/types.js';

export const HOUR = 3_600_000;
/** 2026-03-10 00:00 UTC. */
export const T0 = Date.UTC(2026, 2, 10);

const oneLogic: SignalLogics = { liquidity_grab: true, flow_rejection: false, absorption: false,
  cvd_divergence: false, structure_shift: false, level_confluence: false };

export function longSignal(openMs: number, over: Partial<EntrySignal> = {}): EntrySignal {
  return {
    signal_id: `BTC-5m-${openMs}-long`, symbol: 'BTC', timeframe: '5m', side: 'long',
    grade: 'C', score: 20, bar_time: new Date(openMs).toISOString(), regime: 'trending',
    confirmed: true, flow_source: 'bar_delta', logics: oneLogic,
    plan: { entry: 100, stop: 98, t1: 110, t2: 120, r_t1: 5, r_t2: 10 },
    price_at_signal: 100, ...over,
  };
}

/** The outcome of `signal` with result `r` (in R), evaluated at `evaluatedMs`. */
export function outcomeOf(signal: EntrySignal, r: number, evaluatedMs: number): SignalOutcome {
  const priceAfter = signal.plan.entry + r * Math.abs(signal.plan.entry - signal.plan.stop);
  return {
    entry_event_id: '', signal_id: signal.signal_id, symbol: signal.symbol,
    timeframe: signal.timeframe, side: signal.side, grade: signal.grade, horizon: '4h',
    signaled_at: new Date(evaluatedMs - 4 * HOUR).toISOString(),
    evaluated_at: new Date(evaluatedMs).toISOString(), price_at_signal: 100,
    price_after: priceAfter, move_pct: priceAfter - 100, max_favorable_pct: 0,
    max_adverse_pct: 0, first_level_hit: 'none', t2_hit: false, complete: true,
    t2_touched_any: false, bars: 48,
  };
}

/** Seeded results in R, so a test's figures are the same at every run. */
export function seededResults(n: number, seed: number, meanR: number): number[] {
  let s = seed;
  const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: n }, () => meanR + (next() - 0.5) * 2);
}
