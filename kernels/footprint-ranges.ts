// The bar ranges the footprint's level rule reads at each UTC midnight: high - low of every
// closed bar with an event, per timeframe, a ring of one day of bars.
import { checkOption } from './check.js';
import {
  fallbackRange, levelTicksFor, medianRange, RANGE_SAMPLES_MIN,
} from './footprint-levels.js';
import { BAR_TIMEFRAME_MS, DAY_MS } from './timeframes.js';

export interface RangeHistory {
  /** Ring of timeframe t at offset[t], capacity[t] = bars in a day. */
  readonly capacity: Int32Array;
  readonly offset: Int32Array;
  readonly head: Int32Array;
  readonly count: Int32Array;
  readonly range: Float64Array;
  readonly openMs: Float64Array;
  /** Sorting room for one timeframe's day of ranges. */
  readonly scratch: Float64Array;
}

export function createRangeHistory(): RangeHistory {
  const n = BAR_TIMEFRAME_MS.length;
  const capacity = new Int32Array(n);
  const offset = new Int32Array(n);
  let total = 0;
  for (let t = 0; t < n; t++) {
    capacity[t] = DAY_MS / BAR_TIMEFRAME_MS[t];
    offset[t] = total;
    total += capacity[t];
  }
  return {
    capacity, offset, head: new Int32Array(n), count: new Int32Array(n),
    range: new Float64Array(total), openMs: new Float64Array(total),
    scratch: new Float64Array(capacity[0]),
  };
}

export function recordBarRange(h: RangeHistory, t: number, openMs: number, range: number): void {
  const at = h.offset[t] + h.head[t];
  h.range[at] = range;
  h.openMs[at] = openMs;
  h.head[t] = (h.head[t] + 1) % h.capacity[t];
  if (h.count[t] < h.capacity[t]) h.count[t] += 1;
}

/** Ranges of timeframe t's bars that opened in the 24 hours before `dayStartMs`, into scratch. */
function dayRanges(h: RangeHistory, t: number, dayStartMs: number): number {
  let n = 0;
  for (let k = 0; k < h.count[t]; k++) {
    const at = h.offset[t] + k;
    if (h.openMs[at] >= dayStartMs - DAY_MS) h.scratch[n++] = h.range[at];
  }
  return n;
}

interface LevelRuleOptions {
  readonly targetLevels: number;
  readonly fallbackRangeBps: number;
}

/**
 * Ticks per level of each timeframe for the UTC day starting at `tsMs`'s midnight, into `out`:
 * each a power of two, and none finer than the shorter timeframe's (footprint-levels.ts).
 */
export function levelTicksForDay(
  h: RangeHistory, tsMs: number, price: number, tickSize: number, o: LevelRuleOptions,
  out: Float64Array,
): void {
  checkOption('tickSize', tickSize, Number.MIN_VALUE, 1e9);
  const dayStartMs = Math.floor(tsMs / DAY_MS) * DAY_MS;
  for (let t = 0; t < BAR_TIMEFRAME_MS.length; t++) {
    const n = dayRanges(h, t, dayStartMs);
    const range = n >= RANGE_SAMPLES_MIN ? medianRange(h.scratch, n, h.scratch)
      : fallbackRange(price, o.fallbackRangeBps, t);
    const ticks = levelTicksFor(range, tickSize, o.targetLevels);
    out[t] = t > 0 && ticks < out[t - 1] ? out[t - 1] : ticks;
  }
}
