// The burst guard: a rolling 60-second window per identity and scope, kept as a ring of the
// accepted requests' times, so Retry-After is exact (when the oldest leaves the window).
import { LRUCache } from 'lru-cache';
import type { BurstScope } from './access-types.js';
import { httpBounds } from './bounds.js';

export const BURST_WINDOW_MS = 60_000;

/** Requests per rolling minute by scope (docs/decisions.md, "Quotas and time"). */
export const burstLimitByScope: Readonly<Record<BurstScope, number>> = Object.freeze({
  'deep-view': 10, 'cvd': 10, 'footprint': 10, 'history': 30, 'v1': 60, 'mcp': 60, 'mcp-public': 60,
});

/*
 * One window: times of the accepted requests, oldest first from `head - count`.
 *
 *   times: [ t3 | t4 | t0 | t1 | t2 ]   limit 5, count 5, head 2 -> oldest t0 at index 2
 */
interface Window {
  readonly times: Float64Array;
  head: number;
  count: number;
}

export interface BurstState {
  readonly ok: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until one more request fits (rejected) or the window empties (accepted). */
  readonly resetSeconds: number;
}

function oldestIndex(w: Window): number {
  const limit = w.times.length;
  return (w.head - w.count + limit) % limit;
}

function expire(w: Window, nowMs: number): void {
  while (w.count > 0 && w.times[oldestIndex(w)]! <= nowMs - BURST_WINDOW_MS) w.count--;
}

function secondsUntilOldestLeaves(w: Window, nowMs: number): number {
  if (w.count === 0) return 0;
  // Ceil: the oldest leaves the window at exactly oldest + 60 s, never earlier.
  return Math.max(1, Math.ceil((w.times[oldestIndex(w)]! + BURST_WINDOW_MS - nowMs) / 1000));
}

/** Windows per `scope|identity`; the least recently used window is dropped when full. */
export class BurstGuard {
  private readonly windows = new LRUCache<string, Window>({ max: httpBounds.burstEntriesMax });

  /** Counts one request when it fits; a rejected request is not counted. */
  take(key: string, limit: number, nowMs: number): BurstState {
    let w = this.windows.get(key);
    if (w === undefined || w.times.length !== limit) {
      w = { times: new Float64Array(limit), head: 0, count: 0 };
      this.windows.set(key, w);
    }
    expire(w, nowMs);
    if (w.count >= limit) {
      return { ok: false, limit, remaining: 0, resetSeconds: secondsUntilOldestLeaves(w, nowMs) };
    }
    w.times[w.head] = nowMs;
    w.head = (w.head + 1) % limit;
    w.count++;
    return {
      ok: true, limit, remaining: limit - w.count,
      resetSeconds: secondsUntilOldestLeaves(w, nowMs),
    };
  }

  /** The window's state without counting (for the RateLimit header). */
  peek(key: string, limit: number, nowMs: number): BurstState {
    const w = this.windows.peek(key);
    if (w === undefined) return { ok: true, limit, remaining: limit, resetSeconds: 0 };
    expire(w, nowMs);
    return {
      ok: w.count < limit, limit, remaining: Math.max(0, limit - w.count),
      resetSeconds: secondsUntilOldestLeaves(w, nowMs),
    };
  }
}
