// The 4-hour outcome of an entry signal from 5-minute bars, with the exact window and touch
// rules of docs/signals.md, "2. Outcomes". Pure: no I/O, no clock.
import type { Bar } from '../../core/messages.js';
import { isValidPlan } from './plan.js';
import {
  signalTimeMs, type EntrySignal, type FirstLevelHit, type SignalOutcome,
} from './types.js';

export const OUTCOME_HORIZON_MS = 4 * 3_600_000;
export const OUTCOME_BAR_MS = 300_000;
/** 4 h of 5-minute bars, all fully after the signal. */
export const OUTCOME_WINDOW_BARS = OUTCOME_HORIZON_MS / OUTCOME_BAR_MS;

export interface OutcomeMeta {
  /** Id of the entry_signal.created event the outcome follows; null when none was sent. */
  readonly entryEventId: string | null;
}

/**
 * The outcome's entry_event_id from a stored schedule's id, where '' marks "no event sent"
 * (the schedule's encoding, and what outcomes stored before null was used carry).
 */
export function entryEventIdOf(stored: string | null | undefined): string | null {
  return stored === undefined || stored === null || stored === '' ? null : stored;
}

/** Bars with signal <= openMs and openMs + 5 min <= signal + 4 h, oldest first. */
export function outcomeWindow(signal: EntrySignal, bars5m: readonly Bar[]): Bar[] {
  const fromMs = signalTimeMs(signal);
  const endMs = fromMs + OUTCOME_HORIZON_MS;
  const window: Bar[] = [];
  for (const bar of bars5m) {
    if (bar.timeframe !== '5m') throw new Error(`outcome needs 5m bars (was ${bar.timeframe})`);
    // A bar that opened before the signal is left out: its high or low may predate it.
    if (bar.openMs >= fromMs && bar.openMs + OUTCOME_BAR_MS <= endMs) window.push(bar);
  }
  return window.sort((a, b) => a.openMs - b.openMs);
}

export function evaluateOutcome(signal: EntrySignal, bars5m: readonly Bar[],
  meta: OutcomeMeta = { entryEventId: null }): SignalOutcome {
  const sign = signal.side === 'long' ? 1 : -1;
  const { entry, stop, t1, t2 } = signal.plan;
  if (!isValidPlan(signal.plan, sign)) throw new Error(`invalid plan in ${signal.signal_id}`);
  const window = outcomeWindow(signal, bars5m);
  let high = -Infinity;
  let low = Infinity;
  let firstHit: FirstLevelHit = 'none';
  let exit = NaN;
  let stopSeen = false;
  let t2Hit = false;
  let t2Any = false;
  for (const bar of window) {
    high = Math.max(high, bar.high);
    low = Math.min(low, bar.low);
    // Touches are inclusive; a long's stop is touched by the low, its targets by the high.
    const stopTouched = sign > 0 ? bar.low <= stop : bar.high >= stop;
    const t1Touched = sign > 0 ? bar.high >= t1 : bar.low <= t1;
    const t2Touched = sign > 0 ? bar.high >= t2 : bar.low <= t2;
    if (firstHit === 'none' && (stopTouched || t1Touched)) {
      firstHit = stopTouched && t1Touched ? 'both_same_bar' : stopTouched ? 'stop' : 't1';
      exit = stopTouched ? fillPrice(-sign, stop, bar.open) : fillPrice(sign, t1, bar.open);
    }
    // Conservative t2: only a t2 touch in a bar before any stop-touching bar counts.
    if (t2Touched && !stopTouched && !stopSeen) t2Hit = true;
    if (t2Touched) t2Any = true;
    if (stopTouched) stopSeen = true;
  }
  const last = window.length > 0 ? window[window.length - 1].close : entry;
  const pct = (price: number) => (sign * (price - entry) / entry) * 100;
  const signalMs = signalTimeMs(signal);
  return {
    entry_event_id: entryEventIdOf(meta.entryEventId),
    signal_id: signal.signal_id,
    symbol: signal.symbol,
    timeframe: signal.timeframe,
    side: signal.side,
    grade: signal.grade,
    horizon: '4h',
    // Both market time (docs/decisions.md, Clocks in signal events): the close of the signal's
    // bar and the end of the horizon, exactly 4 h apart at any replay speed. When the delivery
    // was made is the envelope's created_at (service time).
    signaled_at: new Date(signalMs).toISOString(),
    evaluated_at: new Date(signalMs + OUTCOME_HORIZON_MS).toISOString(),
    price_at_signal: signal.price_at_signal,
    price_after: last,
    move_pct: pct(last),
    max_favorable_pct: window.length === 0 ? 0 : Math.max(0, pct(sign > 0 ? high : low)),
    max_adverse_pct: window.length === 0 ? 0 : Math.min(0, pct(sign > 0 ? low : high)),
    first_level_hit: firstHit,
    t2_hit: t2Hit,
    complete: window.length >= OUTCOME_WINDOW_BARS,
    t2_touched_any: t2Any,
    bars: window.length,
    exit_price: firstHit === 'none' ? last : exit,
  };
}

/**
 * Where a touched barrier fills: at the barrier, unless the bar opened past it (a gap, or a bar
 * that is a single price, as the warm-up's hourly samples are), then at that open. Booking a gap
 * through the stop at the stop would flatter every entry with a near stop; the target gets the
 * same rule both ways, so a random entry on a driftless price books 0 on average. `beyond` is
 * +1 when past means above the barrier (a long's target, a short's stop), else -1.
 */
function fillPrice(beyond: number, barrier: number, open: number): number {
  return beyond * (open - barrier) > 0 ? open : barrier;
}

/**
 * The result in R of `signal`'s plan when `hit` came first and filled at `exitPrice` (a gap's
 * open; undefined or the barrier itself: +r_t1 at t1, -1 at the stop or both in one bar), or
 * the move to `priceAfter` when neither was touched.
 */
export function barrierResultR(signal: EntrySignal, hit: FirstLevelHit,
  exitPrice: number | undefined, priceAfter: number): number {
  const { entry, stop, t1 } = signal.plan;
  const risk = Math.abs(entry - stop);
  const sign = signal.side === 'long' ? 1 : -1;
  const r = (price: number) => (risk > 0 ? sign * (price - entry) / risk : 0);
  if (hit === 't1') return exitPrice === undefined || exitPrice === t1 ? signal.plan.r_t1
    : r(exitPrice);
  if (hit === 'stop' || hit === 'both_same_bar') {
    return exitPrice === undefined || exitPrice === stop ? -1 : r(exitPrice);
  }
  return r(priceAfter);
}
