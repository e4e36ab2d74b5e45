// A simulated pair restored from saved state (docs/decisions.md, Warm start) is warmed up from the
// market time its state reached, not over the whole warm-up window: the simulator's market is a
// pure function of seed and time, so the hours it was down are generated as they would have run.
import type { ResumeAnswer } from '../feed-types.js';

const MINUTE_MS = 60_000;
/** A state older than this is refused (the pair gets the usual warm-up): a week of market. */
export const resumeFillMaxMs = 7 * 24 * 3_600_000;

export function resumeAnswer(nowMs: number, fromMs: number): ResumeAnswer {
  if (!(fromMs <= nowMs) || nowMs - fromMs > resumeFillMaxMs) return 'refuse';
  return 'fill';
}

/**
 * Market time to generate before `nowMs` for a state that reached `fromMs`: from the next whole
 * minute (the warm-up's candles are whole minutes; the partial minute's trades are in the
 * state already), 0 when that minute has not begun.
 */
export function resumeFillMs(nowMs: number, fromMs: number): number {
  return Math.max(0, nowMs - Math.ceil(fromMs / MINUTE_MS) * MINUTE_MS);
}
