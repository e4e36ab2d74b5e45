// The slow side of the simulated market, shared by every thread: each symbol's price path, 24h
// figures, open interest and funding are pure functions of (seed, symbol, time).
import type { AssetCtx, Venue, VenueFunding } from '../../../core/messages.js';
import type { SimMarket } from './catalogue.js';
import { isSessionOpen } from './catalogue.js';
import { discoveredLog } from './fundamental.js';
import { hashUnit, valueNoise } from './rng.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * The market price at tMs as the warm-up's candles, the contexts and the universe see it: the
 * fundamental (fundamental.ts) less what the market has not yet learned of it at the average
 * pace of price discovery. The pair simulator starts from it and then learns from its own flow.
 */
export function referencePx(seed: number, market: SimMarket, tMs: number): number {
  return market.basePx * Math.exp(discoveredLog(seed, market, market.informedShare, tMs));
}

/** Activity multiplier of volume and trade arrivals: slow swings around 1. */
export function activity(seed: number, market: SimMarket, tMs: number): number {
  return Math.exp(0.45 * valueNoise(seed, market.stream ^ 0x5a5a, tMs, DAY_MS) +
    0.3 * valueNoise(seed, market.stream ^ 0xa5a5, tMs, 4 * HOUR_MS));
}

/** Raw hourly funding on the home venue: a small positive carry plus a slow premium swing. */
export function homeFundingHourly(seed: number, market: SimMarket, tMs: number): number {
  const swing = valueNoise(seed, market.stream ^ 0x3c3c, tMs, 8 * HOUR_MS);
  return Number((0.0000125 + 0.00004 * swing).toFixed(8));
}

/** The venue's asset context at tMs: what metaAndAssetCtxs or activeAssetCtx would say. */
export function assetCtxAt(seed: number, market: SimMarket, tMs: number): AssetCtx {
  const markPx = roundPx(referencePx(seed, market, tMs));
  const prevDayPx = roundPx(referencePx(seed, market, tMs - DAY_MS));
  if (market.isDelisted) {
    return { markPx: prevDayPx, prevDayPx, dayNtlVlm: 0, openInterest: 0, fundingRate: 0,
      oraclePx: prevDayPx, midPx: null };
  }
  const open = isSessionOpen(market.session, tMs);
  const dayNtlVlm = round2(market.baseVolumeUsd * activity(seed, market, tMs));
  const oiUsd = market.baseOpenInterestUsd * (1 + 0.15 * valueNoise(seed, market.stream, tMs,
    12 * HOUR_MS));
  return {
    markPx, prevDayPx, dayNtlVlm,
    openInterest: Number((oiUsd / markPx).toFixed(market.szDecimals)),
    fundingRate: open ? homeFundingHourly(seed, market, tMs) : 0,
    oraclePx: markPx, midPx: open ? markPx : null,
  };
}

// The other venues: how often each lists a main-dex pair and the intervals it settles on.
const OTHER_VENUES: readonly (readonly [Venue, number, readonly number[]])[] = [
  ['exchange_b', 0.92, [8, 8, 4]], ['exchange_c', 0.8, [8, 4, 1]],
  ['exchange_d', 0.65, [1, 1, 8]], ['exchange_e', 0.5, [4, 8, 8]],
];

/** Funding of a pair on every venue that lists it (home hourly; others 1, 4 or 8 h). */
export function venueFundingAt(seed: number, market: SimMarket, tMs: number): VenueFunding[] {
  if (market.isDelisted) return [];
  const hourly = homeFundingHourly(seed, market, tMs);
  const out: VenueFunding[] = [{ venue: 'home', rate: hourly, intervalHours: 1 }];
  if (market.dex !== '') return out;
  OTHER_VENUES.forEach(([venue, listShare, intervals], v) => {
    if (hashUnit(seed, market.stream, 100 + v) >= listShare) return;
    const intervalHours = intervals[Math.floor(hashUnit(seed, market.stream, 200 + v) * 3)];
    // Other venues track the home premium loosely, with their own basis.
    const basis = 0.00002 * valueNoise(seed, market.stream + 300 + v, tMs, 6 * HOUR_MS);
    const rate = (hourly * (0.6 + 0.5 * hashUnit(seed, market.stream, 400 + v)) + basis) *
      intervalHours;
    out.push({ venue, rate: Number(rate.toFixed(8)), intervalHours });
  });
  return out;
}

/** Five significant figures, as the venue quotes prices. */
export function roundPx(px: number): number {
  // Number(px.toPrecision(5)) without the string where the answer is certain: px scaled to five
  // integer digits is one rounding off the exact product (within 1e-11 for five digits), so away
  // from a half it rounds as the exact decimal does, and k / 10^n (k * 10^-n) is the double the
  // string parses to. Near a half, and outside the usual range, the string decides.
  if (px >= 1e-6 && px < 1e15) {
    let e = Math.floor(Math.log10(px));
    if (px >= POW10[e + 7]) e++;
    else if (px < POW10[e + 6]) e--;
    const n = 4 - e;
    const scaled = n >= 0 ? px * POW10[n + 6] : px / POW10[6 - n];
    const k = Math.round(scaled);
    if (Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) {
      return n >= 0 ? k / POW10[n + 6] : k * POW10[6 - n];
    }
  }
  return Number(px.toPrecision(5));
}

/** 10^(i - 6) for i in 0..28 (10^-6 .. 10^22), each from its decimal literal. */
const POW10: readonly number[] = Array.from({ length: 29 }, (_, i) => Number(`1e${i - 6}`));

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
