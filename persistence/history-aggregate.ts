// Coarser history points from finer ones, the one rule for both the 1-hour rollup and every
// query interval (docs/decisions.md "History"): the candle takes the first open, the highest high,
// the lowest low and the last close, volume is summed, every level is its value at the close.
import type { HistoryPoint } from '../core/history-point.js';

function minOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

function maxOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}

/** The bucket of a time: intervals align to multiples of their length since the epoch (UTC). */
export function bucketOf(tMs: number, bucketMs: number): number {
  return tMs - (((tMs % bucketMs) + bucketMs) % bucketMs);
}

/** Folds `next` (later) into the bucket point `acc`. */
function fold(acc: HistoryPoint, next: HistoryPoint): HistoryPoint {
  return {
    ...next,
    tMs: acc.tMs,
    open: acc.open ?? next.open,
    high: maxOf(acc.high, next.high),
    low: minOf(acc.low, next.low),
    close: next.close ?? acc.close,
    volume: acc.volume + next.volume,
  };
}

/**
 * Points of `bucketMs` from points of a finer interval, oldest first in and out. A bucket with
 * no point in makes no point out: a gap stays a gap.
 */
export function aggregatePoints(points: readonly HistoryPoint[], bucketMs: number):
  HistoryPoint[] {
  const out: HistoryPoint[] = [];
  let current: HistoryPoint | null = null;
  for (const point of points) {
    const bucketMs0 = bucketOf(point.tMs, bucketMs);
    if (current !== null && current.tMs === bucketMs0) {
      current = fold(current, point);
      continue;
    }
    if (current !== null) out.push(current);
    current = { ...point, tMs: bucketMs0 };
  }
  if (current !== null) out.push(current);
  return out;
}
