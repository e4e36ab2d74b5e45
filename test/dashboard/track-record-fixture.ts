// Entry signals with evaluated outcomes for the Signals page's track record, stored the way the
// pipeline stores them (claim, schedule, complete with the outcome and its baseline on the same
// bars): better letters reach t1 more often and carry higher scores, a few A+ (too few to
// read) and D signals still waiting for their outcome.
import { evaluateBaseline } from '../../actors/signals/baseline.js';
import { evaluateOutcome } from '../../actors/signals/outcome.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import type { Bar, Grade } from '../../core/messages.js';
import { createSeededRng } from '../../kernels/seeded-rng.js';
import type { SignalStore } from '../../persistence/signals.js';

const BAR_MS = 300_000;
const HOUR_MS = 3_600_000;

/** Per grade: evaluated signals, share reaching t1 first, score from the side. */
export const GRADE_PLAN: Record<Grade, { evaluated: number; t1Share: number; score: number }> = {
  'A+': { evaluated: 6, t1Share: 0.6, score: 85 },
  'A': { evaluated: 40, t1Share: 0.6, score: 70 },
  'B': { evaluated: 80, t1Share: 0.45, score: 50 },
  'C': { evaluated: 120, t1Share: 0.3, score: 30 },
  'D': { evaluated: 0, t1Share: 0, score: 10 },
};

function entrySignal(barMs: number, grade: Grade, side: 'long' | 'short', score: number):
  EntrySignal {
  const sign = side === 'long' ? 1 : -1;
  return {
    signal_id: `BTC-5m-${barMs}-${side}`, symbol: 'BTC', timeframe: '5m', side, grade,
    score: score * sign, bar_time: new Date(barMs).toISOString(), regime: 'trending',
    confirmed: true, flow_source: 'bar_delta',
    logics: { liquidity_grab: true, flow_rejection: grade !== 'D', absorption: false,
      cvd_divergence: false, structure_shift: false, level_confluence: false },
    plan: { entry: 100, stop: 100 - 2 * sign, t1: 100 + 3 * sign, t2: 100 + 6 * sign, r_t1: 1.5,
      r_t2: 3 },
    price_at_signal: 100,
  };
}

/** The 4 h of 5m bars after the signal: t1 or the stop touched in bar 3, else a drift. */
function windowBars(s: EntrySignal, touch: 't1' | 'stop' | null, close: number): Bar[] {
  const fromMs = Date.parse(s.bar_time) + BAR_MS;
  const level = touch === 't1' ? s.plan.t1 : touch === 'stop' ? s.plan.stop : 100;
  return Array.from({ length: 48 }, (_, i) => ({
    symbol: 'BTC', timeframe: '5m', openMs: fromMs + i * BAR_MS, open: 100,
    high: Math.max(100.5, i === 3 ? level : 0), low: Math.min(99.5, i === 3 ? level : 1e9),
    close: i === 47 ? close : 100, volume: 1, buyNotional: 1, sellNotional: 1, cvdClose: 0,
    trades: 1,
  }));
}

/** Stores `pending` D signals without an outcome (bars 15 min apart, ending an hour ago). */
export async function storePending(signals: SignalStore<EntrySignal>, nowMs: number,
  pending: number): Promise<void> {
  for (let i = 0; i < pending; i++) {
    const s = entrySignal(nowMs - HOUR_MS - i * 15 * 60_000, 'D', 'long', GRADE_PLAN.D.score);
    await signals.claim(s, Date.parse(s.bar_time) + BAR_MS);
  }
}

/**
 * Stores GRADE_PLAN's evaluated signals over the 12 days before nowMs, one an hour: a grade's
 * outcomes span many 4 h blocks, as the block bootstrap needs for an interval.
 */
export async function storeEvaluated(signals: SignalStore<EntrySignal>, nowMs: number):
  Promise<number> {
  const random = createSeededRng(35);
  let slot = 0;
  for (const [grade, plan] of Object.entries(GRADE_PLAN) as [Grade, typeof GRADE_PLAN.A][]) {
    for (let i = 0; i < plan.evaluated; i++) {
      const barMs = nowMs - 12 * 24 * HOUR_MS + slot++ * HOUR_MS;
      const side = random() < 0.5 ? 'long' : 'short';
      const t1 = random() < plan.t1Share;
      const s = entrySignal(barMs, grade, side, plan.score + Math.round(random() * 20 - 10));
      const sign = side === 'long' ? 1 : -1;
      const drift = random() < 0.3;
      const bars = windowBars(s, drift ? null : t1 ? 't1' : 'stop',
        100 + sign * (t1 ? 0.8 : -0.8) * random());
      const signalMs = barMs + BAR_MS;
      await signals.claim(s, signalMs);
      await signals.scheduleOutcome(s.signal_id, '', signalMs, signalMs + 4 * HOUR_MS);
      await signals.completeOutcome(s.signal_id,
        evaluateOutcome(s, bars) as unknown as Record<string, unknown>,
        evaluateBaseline(s, bars, []) as unknown as Record<string, unknown>);
    }
  }
  return slot;
}
