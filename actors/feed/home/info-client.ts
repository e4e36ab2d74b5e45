// The home venue's info endpoint (POST /info) under the process-wide REST weight budget.
// Every answer is a value: { ok: true, value } or { ok: false, error } naming what went wrong.
import type { Clock } from '../../../core/clock.js';
import type { CandleEvent, FundingEvent } from '../../../core/messages.js';
import type { UniverseMarket } from '../../universe/tracked.js';
import type { SharedBudget } from '../budget.js';
import { noFeedMeters, type FeedMeters } from '../feed-meters.js';
import { parseMetaAndAssetCtxs, parsePerpDexs, parsePredictedFundings } from './info-mappers.js';
import { parseCandles, parseFundingHistory } from './history-mappers.js';
import { realTimers, sleepOn, type Timers } from './timers.js';

/**
 * `lasting`: the venue refused the request itself (a 4xx other than 429), so asking again will
 * not help; other failures (5xx, 429, timeouts, answers that do not parse) may pass.
 */
export type InfoResult<T> = { readonly ok: true; readonly value: T } |
  { readonly ok: false; readonly error: string; readonly lasting?: boolean };

export interface InfoClientOptions {
  /** The full endpoint URL, e.g. https://api.hyperliquid.xyz/info. */
  readonly url: string;
  readonly budget: SharedBudget;
  readonly clock: Clock;
  readonly timeoutMs?: number;
  /** Requests allowed to wait for budget at once; more are refused at once. */
  readonly waitingMax?: number;
  readonly fetch?: typeof fetch;
  /** Waits for budget on these (default real timers; tests and the bench simulate time). */
  readonly timers?: Timers;
  /** Requests waiting for and refused the REST budget, for the metrics. */
  readonly meters?: FeedMeters;
}

// The venue's request weights: light queries cost 2, most cost 20 (venue documentation).
const LIGHT = new Set(['l2Book', 'allMids', 'clearinghouseState', 'orderStatus']);
export function requestWeight(type: string): number {
  return LIGHT.has(type) ? 2 : 20;
}

// History answers cost extra by their length: 1 per 60 candles, 1 per 20 funding records
// (venue documentation, "additional weight per items returned"); rounded up to be safe.
const ITEMS_PER_WEIGHT: Readonly<Record<string, number>> = {
  candleSnapshot: 60, fundingHistory: 20,
};
export function itemsWeight(type: string, items: number): number {
  const per = ITEMS_PER_WEIGHT[type];
  return per === undefined || items <= 0 ? 0 : Math.ceil(items / per);
}

/** 1-minute candles, the finest interval backfill asks for. */
export const minuteMs = 60_000;

/** The venue's names of the candle intervals backfill asks for. */
const INTERVAL_NAMES: ReadonlyMap<number, string> = new Map([
  [minuteMs, '1m'], [5 * minuteMs, '5m'], [15 * minuteMs, '15m'], [60 * minuteMs, '1h'],
]);
export function intervalName(intervalMs: number): string {
  const name = INTERVAL_NAMES.get(intervalMs);
  if (name === undefined) throw new RangeError(`no venue candle interval of ${intervalMs} ms`);
  return name;
}

export interface InfoClient {
  post(body: { type: string } & Record<string, unknown>): Promise<InfoResult<unknown>>;
  metaAndAssetCtxs(dex?: string): Promise<InfoResult<UniverseMarket[]>>;
  /** Names of the builder dexes (the main dex, listed as null, is left out). */
  perpDexs(): Promise<InfoResult<string[]>>;
  predictedFundings(tsMs: number): Promise<InfoResult<FundingEvent[]>>;
  /** Raw account state; map it with the positioning code (clearinghouse.ts). */
  clearinghouseState(user: string): Promise<InfoResult<unknown>>;
  /**
   * Candles (1 minute unless `intervalMs` says otherwise: 5 min, 15 min, 1 h) opening in
   * [startMs, endMs], oldest first (at most 5000 an answer).
   */
  candleSnapshot(coin: string, startMs: number, endMs: number, intervalMs?: number):
    Promise<InfoResult<CandleEvent[]>>;
  /** Hourly funding settlements in [startMs, endMs], oldest first (at most 500 an answer). */
  fundingHistory(coin: string, startMs: number, endMs: number):
    Promise<InfoResult<FundingEvent[]>>;
}

export function createInfoClient(options: InfoClientOptions): InfoClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const waitingMax = options.waitingMax ?? 64;
  const timers = options.timers ?? realTimers;
  let waiting = 0;
  const meters = options.meters ?? noFeedMeters;
  /** The waiters' line: each is served in turn, so no caller starves behind luckier ones. */
  let line: Promise<void> = Promise.resolve();

  /** Waits for `weight`; refuses when too many already wait, unless it is owed (`owed`). */
  const acquire = async (weight: number, owed = false): Promise<string | null> => {
    if (waiting === 0 && options.budget.take('rest', weight) === 0) return null;
    if (!owed && waiting >= waitingMax) {
      meters.refused('rest');
      return `budget: ${waiting} requests already waiting`;
    }
    meters.waiting('rest', ++waiting);
    const turn = line.then(async () => {
      for (let waitMs = options.budget.take('rest', weight); waitMs > 0;
        waitMs = options.budget.take('rest', weight)) {
        await sleepOn(timers, waitMs);
      }
    });
    // A waiter that threw (a cost over the bucket) does not block the line.
    line = turn.catch(() => {});
    try {
      await turn;
    } finally {
      meters.waiting('rest', --waiting);
    }
    return null;
  };

  const post = async (body: { type: string } & Record<string, unknown>):
    Promise<InfoResult<unknown>> => {
    const refused = await acquire(requestWeight(body.type));
    if (refused) return { ok: false, error: refused };
    try {
      const response = await doFetch(options.url, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (!response.ok) {
        const detail = text.slice(0, 120);
        const { status } = response;
        return { ok: false, error: `${body.type}: status ${status} (${detail})`,
          lasting: status >= 400 && status < 500 && status !== 429 };
      }
      const value = JSON.parse(text) as unknown;
      // The extra weight is known only from the answer: it is paid before the next request.
      const extra = Array.isArray(value) ? itemsWeight(body.type, value.length) : 0;
      // Owed whatever the queue: the venue already counted it.
      if (extra > 0) await acquire(extra, true);
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error: `${body.type}: ${(error as Error).message}` };
    }
  };

  const mapped = async <T>(body: { type: string } & Record<string, unknown>,
    map: (raw: unknown) => T | string): Promise<InfoResult<T>> => {
    const result = await post(body);
    if (!result.ok) return result;
    const value = map(result.value);
    return typeof value === 'string' ? { ok: false, error: `${body.type}: ${value}` }
      : { ok: true, value };
  };

  return {
    post,
    metaAndAssetCtxs: (dex = '') =>
      mapped({ type: 'metaAndAssetCtxs', dex }, (raw) => parseMetaAndAssetCtxs(raw, dex)),
    perpDexs: () => mapped({ type: 'perpDexs' }, parsePerpDexs),
    predictedFundings: (tsMs) =>
      mapped({ type: 'predictedFundings' }, (raw) => parsePredictedFundings(raw, tsMs)),
    clearinghouseState: (user) => post({ type: 'clearinghouseState', user }),
    candleSnapshot: (coin, startTime, endTime, intervalMs = minuteMs) =>
      mapped({ type: 'candleSnapshot',
        req: { coin, interval: intervalName(intervalMs), startTime, endTime } },
      (raw) => parseCandles(raw, coin, intervalMs)),
    fundingHistory: (coin, startTime, endTime) =>
      mapped({ type: 'fundingHistory', coin, startTime, endTime },
        (raw) => parseFundingHistory(raw, coin)),
  };
}
