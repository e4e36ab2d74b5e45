// Backfill of one pair from the venue's info endpoint: the closed 1-minute candles and the
// funding settlements of a time range, paged (candles backwards from the newest, 5000 an answer;
// funding forwards, 500 an answer) under the process-wide request budget. Start-up, reconnect
// gaps and restart resume (the gap since a saved state) all call `backfill(symbol, from, to)`.
import type { CandleEvent, FundingEvent } from '../../../core/messages.js';
import { minuteMs, type InfoClient } from './info-client.js';

/** Candles the venue gives per answer (and, for 1-minute candles, in all: about 3.5 days). */
export const candlesPerAnswerMax = 5_000;
/** Funding records the venue gives per answer. */
export const fundingPerAnswerMax = 500;

export interface BackfillResult {
  readonly symbol: string;
  readonly fromMs: number;
  readonly toMs: number;
  /** Closed 1-minute candles opening in [fromMs, toMs - 1 min], oldest first, no gaps added. */
  readonly candles: readonly CandleEvent[];
  /** Funding settlements in [fromMs, toMs), oldest first. */
  readonly fundings: readonly FundingEvent[];
  /**
   * Market time the candles cover up to (the newest candle's close): trades before it are
   * already in the candles. `fromMs` when no candle came.
   */
  readonly coveredUntilMs: number;
  /** Null when everything asked was answered; else what failed (what came is still kept). */
  readonly error: string | null;
}

export interface Backfiller {
  /** Fills [fromMs, toMs); `signal` stops between requests (what came so far is returned). */
  backfill(symbol: string, fromMs: number, toMs: number, signal?: AbortSignal):
    Promise<BackfillResult>;
}

export interface BackfillerOptions {
  /** Candles asked per request (tests use fewer to exercise paging); at most 5000. */
  readonly candlesPerRequest?: number;
}

export function createBackfiller(info: InfoClient, options: BackfillerOptions = {}): Backfiller {
  const perRequest = Math.min(options.candlesPerRequest ?? candlesPerAnswerMax,
    candlesPerAnswerMax);
  return {
    async backfill(symbol, fromMs, toMs, signal) {
      const stopped = () => signal?.aborted === true;
      const firstOpenMs = Math.ceil(fromMs / minuteMs) * minuteMs;
      // Only closed candles: the minute still running is left to the live trades.
      const lastOpenMs = Math.floor(toMs / minuteMs) * minuteMs - minuteMs;
      const pages: CandleEvent[][] = [];
      let error: string | null = null;
      // Newest first: if an older page fails, what came is still contiguous up to `toMs`.
      for (let endMs = lastOpenMs; endMs >= firstOpenMs && !stopped();) {
        const startMs = Math.max(firstOpenMs, endMs - (perRequest - 1) * minuteMs);
        const page = await info.candleSnapshot(symbol, startMs, endMs);
        if (!page.ok) {
          error = page.error;
          break;
        }
        const kept = page.value.filter((c) => c.tsMs >= startMs && c.tsMs <= endMs);
        // An empty answer: the venue keeps nothing older.
        if (kept.length === 0) break;
        pages.push(kept);
        endMs = Math.min(startMs, kept[0].tsMs) - minuteMs;
      }
      const candles = dedupe(pages.reverse().flat());
      const fundings: FundingEvent[] = [];
      for (let startMs = fromMs; error === null && startMs < toMs && !stopped();) {
        const page = await info.fundingHistory(symbol, startMs, toMs - 1);
        if (!page.ok) {
          error = page.error;
          break;
        }
        for (const f of page.value) if (f.tsMs >= startMs && f.tsMs < toMs) fundings.push(f);
        if (page.value.length < fundingPerAnswerMax) break;
        startMs = page.value[page.value.length - 1].tsMs + 1;
      }
      if (error === null && stopped()) error = String(signal?.reason ?? 'stopped');
      const newest = candles[candles.length - 1];
      return {
        symbol, fromMs, toMs, candles, fundings, error,
        coveredUntilMs: newest ? newest.tsMs + newest.intervalMs : fromMs,
      };
    },
  };
}

/** Oldest first, one candle per open time (pages may overlap at their edges). */
function dedupe(candles: CandleEvent[]): CandleEvent[] {
  candles.sort((a, b) => a.tsMs - b.tsMs);
  return candles.filter((c, i) => i === 0 || c.tsMs !== candles[i - 1].tsMs);
}
