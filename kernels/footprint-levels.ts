// The footprint's price levels: a level is a whole number of ticks, a power of two, chosen once
// per UTC day and timeframe so that a typical bar of that timeframe spans about targetLevels.
//
//   typical range R_t = median (high - low) of timeframe t's bars of the last 24 hours
//                       (fallbackRangeBps of the price, times sqrt(bar minutes / 5), when fewer
//                       than RANGE_SAMPLES_MIN bars are known)
//   level ticks L_t   = 2^round(log2(R_t / (tick * targetLevels))), at least 1 and at least L
//                       of the shorter timeframe
//
// A power of two lands within a factor sqrt(2) of the target (21-42 levels for 30), and makes
// every coarser level a whole number of finer ones: a 5m level folds into exactly one 15m or 1h
// level, and profiles of days with different levels merge exactly.
import { BAR_TIMEFRAME_MS } from './timeframes.js';

/** Bars of a timeframe whose ranges the rule needs before it trusts their median. */
export const RANGE_SAMPLES_MIN = 6;
/** Upper bound of a level, in ticks (2^30 keeps tick index / level ticks exact). */
const LEVEL_TICKS_MAX = 2 ** 30;

/**
 * Hyperliquid's price grid when the venue gives no tick: five significant figures of `price`
 * (61800.3 -> 1, 0.012345 -> 0.000001).
 */
export function fiveFigureTick(price: number): number {
  return Math.pow(10, Math.floor(Math.log10(price)) - 4);
}

/** The power-of-two number of ticks per level for a typical bar range (price units). */
export function levelTicksFor(rangePrice: number, tickSize: number, targetLevels: number): number {
  const ticks = rangePrice / (tickSize * targetLevels);
  if (!(ticks > 1)) return 1;
  return Math.min(LEVEL_TICKS_MAX, Math.pow(2, Math.round(Math.log2(ticks))));
}

/** The range the rule assumes for timeframe t before any bar of it is known. */
export function fallbackRange(price: number, fallbackRangeBps: number, t: number): number {
  return price * (fallbackRangeBps / 1e4) * Math.sqrt(BAR_TIMEFRAME_MS[t] / BAR_TIMEFRAME_MS[0]);
}

/**
 * Median of the first `count` values of `ranges`, sorted in place into `scratch` (no
 * allocation: the rule runs once a day per timeframe).
 */
export function medianRange(ranges: Float64Array, count: number, scratch: Float64Array): number {
  for (let k = 0; k < count; k++) scratch[k] = ranges[k];
  const sorted = scratch.subarray(0, count).sort();
  const mid = count >> 1;
  return count % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
