// One page of a symbol's history at an interval: the points (aggregated from 1-minute points
// below an hour, from 1-hour points from an hour up), where the next page starts, and what
// the page covers with its gaps (intervals with no point: feed down, service stopped, or
// outside retention).
import { HOUR_MS, MINUTE_MS, type HistoryPoint } from '../core/history-point.js';
import { aggregatePoints } from './history-aggregate.js';
import type { HistoryStore } from './history.js';

export interface HistoryGap {
  readonly fromMs: number;
  readonly toMs: number;
}

export interface HistoryPage {
  /** Oldest first, at most `limit`. */
  readonly points: readonly HistoryPoint[];
  /** The next page's first interval, or null when this page reaches the end of the range. */
  readonly nextFromMs: number | null;
  readonly coverage: { readonly fromMs: number; readonly toMs: number;
    readonly gaps: readonly HistoryGap[] };
}

export interface HistoryPageQuery {
  readonly symbol: string;
  /** A multiple of a minute below an hour, of an hour from an hour up. */
  readonly intervalMs: number;
  /** Aligned to the interval. */
  readonly fromMs: number;
  readonly toMs: number;
  readonly limit: number;
  /** Market time now: the coverage ends here when the range reaches past it. */
  readonly nowMs: number;
}

/** Intervals with no point between fromMs and toMs, merged into ranges. */
export function gapsOf(points: readonly HistoryPoint[], intervalMs: number, fromMs: number,
  toMs: number): HistoryGap[] {
  const gaps: HistoryGap[] = [];
  let expectMs = fromMs;
  for (const point of points) {
    if (point.tMs > expectMs) gaps.push({ fromMs: expectMs, toMs: Math.min(point.tMs, toMs) });
    expectMs = point.tMs + intervalMs;
  }
  if (expectMs < toMs) gaps.push({ fromMs: expectMs, toMs });
  return gaps;
}

export function readHistoryPage(store: HistoryStore, q: HistoryPageQuery): HistoryPage {
  let buckets: HistoryPoint[];
  if (q.intervalMs < HOUR_MS) {
    // Each interval holds at most intervalMs / 1 min points: this many rows always reach
    // limit + 1 intervals (or the end of the range), so the page is read in one seek.
    const rows = store.minutes(q.symbol, q.fromMs, q.toMs,
      (q.limit + 1) * (q.intervalMs / MINUTE_MS));
    buckets = q.intervalMs === MINUTE_MS ? rows : aggregatePoints(rows, q.intervalMs);
  } else {
    const hours = store.hours(q.symbol, q.fromMs, q.toMs);
    buckets = q.intervalMs === HOUR_MS ? hours : aggregatePoints(hours, q.intervalMs);
  }
  const more = buckets.length > q.limit;
  const points = more ? buckets.slice(0, q.limit) : buckets;
  const nextFromMs = more ? buckets[q.limit].tMs : null;
  const coverTo = nextFromMs ?? Math.max(q.fromMs, Math.min(q.toMs, q.nowMs));
  return {
    points, nextFromMs,
    coverage: { fromMs: q.fromMs, toMs: coverTo, gaps: gapsOf(points, q.intervalMs, q.fromMs,
      coverTo) },
  };
}
