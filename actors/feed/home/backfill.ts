// Backfill of one pair from the venue's info endpoint: the closed candles of a time range (1-minute
// ones for the newest hours, 5-minute ones before: `candlePlan`) and the newest funding
// settlements, paged (candles backwards from the newest, 5000 an answer; funding forwards, 500 an
// answer) under the process-wide request budget. Start-up, reconnect gaps and restart resume
// (the gap since a saved state) all call `backfill(symbol, from, to)`.
import type { CandleEvent, FundingEvent } from '../../../core/messages.js';
import { intervalName, minuteMs, type InfoClient } from './info-client.js';

/** Candles the venue gives per answer (and, for 1-minute candles, in all: about 3.5 days). */
export const candlesPerAnswerMax = 5_000;
/** Funding records the venue gives per answer. */
export const fundingPerAnswerMax = 500;

export interface BackfillResult {
  readonly symbol: string;
  readonly fromMs: number;
  readonly toMs: number;
  /**
   * Closed candles opening in [fromMs, toMs - 1 min], oldest first, no gaps added: 1-minute
   * ones for the newest hours, 5-minute ones further back (`candlePlan`).
   */
  readonly candles: readonly CandleEvent[];
  /** Funding settlements in the newest hours of [fromMs, toMs), oldest first. */
  readonly fundings: readonly FundingEvent[];
  /**
   * Market time the candles cover up to (the newest candle's close): trades before it are
   * already in the candles. `fromMs` when no candle came.
   */
  readonly coveredUntilMs: number;
  /** Null when everything asked was answered; else what failed (what came is still kept). */
  readonly error: string | null;
  /** The failure was the venue refusing the request itself (a 4xx): asking again won't help. */
  readonly lasting?: boolean;
}

export interface Backfiller {
  /** Fills [fromMs, toMs); `signal` stops between requests (what came so far is returned). */
  backfill(symbol: string, fromMs: number, toMs: number, signal?: AbortSignal):
    Promise<BackfillResult>;
}

export interface BackfillerOptions {
  /** Candles asked per request (tests use fewer to exercise paging); at most 5000. */
  readonly candlesPerRequest?: number;
  /**
   * Market time before the end filled with 1-minute candles (default 4 h); older time gets
   * `coarseIntervalMs` candles. Infinity: 1-minute candles all the way (the plan before).
   */
  readonly fineSpanMs?: number;
  /** Candle length beyond the fine span: 5 minutes by default (see `candlePlan`). */
  readonly coarseIntervalMs?: number;
  /** Funding settlements asked: the newest within this span of the end (default 4 h). */
  readonly fundingSpanMs?: number;
}

/**
 * 1-minute candles for the newest 4 hours: Kyle's lambda needs 30 one-minute intervals, and a
 * reconnect or restart gap shorter than this is filled minute by minute.
 */
export const fineSpanMsDefault = 4 * 3_600_000;
/**
 * 5-minute candles further back: each is exactly one 5-minute bar (regime's 100 volatility
 * samples, the stored bars outcomes read), and VPIN's volume buckets (ADV / 50, about 29 min)
 * still see several candles each; the venue keeps 5000 of them (17 days).
 */
export const coarseIntervalMsDefault = 5 * minuteMs;

/** One request series of the candle plan: candles of `intervalMs` opening in [first, last]. */
export interface CandleSegment {
  readonly intervalMs: number;
  readonly firstOpenMs: number;
  readonly lastOpenMs: number;
}

/**
 * The candles that fill [fromMs, toMs), newest segment first: 1-minute candles for the fine span
 * before toMs, coarse candles (whole ones, aligned) before that, and 1-minute candles for any
 * minutes before the first coarse candle. Only closed candles: the running minute is the trades'.
 */
export function candlePlan(fromMs: number, toMs: number, fineSpanMs: number,
  coarseIntervalMs: number): CandleSegment[] {
  const firstOpenMs = Math.ceil(fromMs / minuteMs) * minuteMs;
  const lastOpenMs = Math.floor(toMs / minuteMs) * minuteMs - minuteMs;
  if (lastOpenMs < firstOpenMs) return [];
  const coarse = coarseIntervalMs;
  const fineFromMs = Math.floor((toMs - fineSpanMs) / coarse) * coarse;
  const coarseFirstMs = Math.ceil(firstOpenMs / coarse) * coarse;
  // Not one whole coarse candle before the fine span: minutes all the way.
  if (coarse <= minuteMs || !(coarseFirstMs + coarse <= fineFromMs)) {
    return [{ intervalMs: minuteMs, firstOpenMs, lastOpenMs }];
  }
  const plan: CandleSegment[] = [
    { intervalMs: minuteMs, firstOpenMs: fineFromMs, lastOpenMs },
    { intervalMs: coarse, firstOpenMs: coarseFirstMs, lastOpenMs: fineFromMs - coarse },
  ];
  if (firstOpenMs < coarseFirstMs) {
    plan.push({ intervalMs: minuteMs, firstOpenMs, lastOpenMs: coarseFirstMs - minuteMs });
  }
  return plan;
}

export function createBackfiller(info: InfoClient, options: BackfillerOptions = {}): Backfiller {
  const perRequest = Math.min(options.candlesPerRequest ?? candlesPerAnswerMax,
    candlesPerAnswerMax);
  const fineSpanMs = options.fineSpanMs ?? fineSpanMsDefault;
  const coarseIntervalMs = options.coarseIntervalMs ?? coarseIntervalMsDefault;
  // At start, not at the first request: an interval the venue does not know is a config error.
  intervalName(coarseIntervalMs);
  if (coarseIntervalMs % minuteMs !== 0) throw new RangeError('coarseIntervalMs: whole minutes');
  const fundingSpanMs = options.fundingSpanMs ?? fineSpanMsDefault;
  return {
    async backfill(symbol, fromMs, toMs, signal) {
      const stopped = () => signal?.aborted === true;
      const pages: CandleEvent[][] = [];
      let error: string | null = null;
      let lasting = false;
      let older = true;
      // Newest first: if an older page fails, what came is still contiguous up to `toMs`.
      for (const segment of candlePlan(fromMs, toMs, fineSpanMs, coarseIntervalMs)) {
        const { intervalMs, firstOpenMs } = segment;
        for (let endMs = segment.lastOpenMs; older && endMs >= firstOpenMs && !stopped();) {
          const startMs = Math.max(firstOpenMs, endMs - (perRequest - 1) * intervalMs);
          const page = await info.candleSnapshot(symbol, startMs, endMs, intervalMs);
          if (!page.ok) {
            error = page.error;
            lasting = page.lasting === true;
            older = false;
            break;
          }
          const kept = page.value.filter((c) => c.tsMs >= startMs && c.tsMs <= endMs);
          // An empty answer: the venue keeps nothing older.
          if (kept.length === 0) older = false;
          else pages.push(kept);
          if (kept.length > 0) endMs = Math.min(startMs, kept[0].tsMs) - intervalMs;
        }
        if (!older || stopped()) break;
      }
      const candles = dedupe(pages.reverse().flat());
      const fundings: FundingEvent[] = [];
      // A settlement only sets the pair's rate until its first ctx: the newest few suffice.
      const fundingFromMs = Math.max(fromMs, toMs - fundingSpanMs);
      for (let startMs = fundingFromMs; error === null && startMs < toMs && !stopped();) {
        const page = await info.fundingHistory(symbol, startMs, toMs - 1);
        if (!page.ok) {
          error = page.error;
          lasting = page.lasting === true;
          break;
        }
        for (const f of page.value) if (f.tsMs >= startMs && f.tsMs < toMs) fundings.push(f);
        if (page.value.length < fundingPerAnswerMax) break;
        startMs = page.value[page.value.length - 1].tsMs + 1;
      }
      if (error === null && stopped()) error = String(signal?.reason ?? 'stopped');
      const newest = candles[candles.length - 1];
      return {
        symbol, fromMs, toMs, candles, fundings, error, lasting,
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
