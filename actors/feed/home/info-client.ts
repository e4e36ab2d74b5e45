// The home venue's info endpoint (POST /info) under the process-wide REST weight budget.
// Every answer is a value: { ok: true, value } or { ok: false, error } naming what went wrong.
import type { Clock } from '../../../core/clock.js';
import type { FundingEvent } from '../../../core/messages.js';
import type { UniverseMarket } from '../../universe/tracked.js';
import type { SharedBudget } from '../budget.js';
import { parseMetaAndAssetCtxs, parsePerpDexs, parsePredictedFundings } from './info-mappers.js';

export type InfoResult<T> = { readonly ok: true; readonly value: T } |
  { readonly ok: false; readonly error: string };

export interface InfoClientOptions {
  /** The full endpoint URL, e.g. https://api.hyperliquid.xyz/info. */
  readonly url: string;
  readonly budget: SharedBudget;
  readonly clock: Clock;
  readonly timeoutMs?: number;
  /** Requests allowed to wait for budget at once; more are refused at once. */
  readonly waitingMax?: number;
  readonly fetch?: typeof fetch;
}

// The venue's request weights: light queries cost 2, most cost 20 (venue documentation).
const LIGHT = new Set(['l2Book', 'allMids', 'clearinghouseState', 'orderStatus']);
export function requestWeight(type: string): number {
  return LIGHT.has(type) ? 2 : 20;
}

export interface InfoClient {
  post(body: { type: string } & Record<string, unknown>): Promise<InfoResult<unknown>>;
  metaAndAssetCtxs(dex?: string): Promise<InfoResult<UniverseMarket[]>>;
  /** Names of the builder dexes (the main dex, listed as null, is left out). */
  perpDexs(): Promise<InfoResult<string[]>>;
  predictedFundings(tsMs: number): Promise<InfoResult<FundingEvent[]>>;
  /** Raw account state; map it with the positioning code (clearinghouse.ts). */
  clearinghouseState(user: string): Promise<InfoResult<unknown>>;
  candleSnapshot(coin: string, interval: string, startMs: number, endMs: number):
    Promise<InfoResult<unknown>>;
}

export function createInfoClient(options: InfoClientOptions): InfoClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const waitingMax = options.waitingMax ?? 64;
  let waiting = 0;

  const acquire = async (weight: number): Promise<string | null> => {
    for (let waitMs = options.budget.take('rest', weight); waitMs > 0;
      waitMs = options.budget.take('rest', weight)) {
      if (waiting >= waitingMax) return `budget: ${waiting} requests already waiting`;
      waiting++;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      waiting--;
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
        return { ok: false, error: `${body.type}: status ${response.status} (${detail})` };
      }
      return { ok: true, value: JSON.parse(text) as unknown };
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
    candleSnapshot: (coin, interval, startTime, endTime) =>
      post({ type: 'candleSnapshot', req: { coin, interval, startTime, endTime } }),
  };
}
