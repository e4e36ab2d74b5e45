// An open footprint bar: a window of levelsMax level slots over the price axis, anchored when
// the bar's first level arrives and moved (not resized) when a trade falls outside it.
//
//   slot k holds level (windowFirst + k); levels in use are slots lo .. hi (lo = -1: none).
//   A trade beyond the window moves it when the bar's span still fits in levelsMax slots;
//   otherwise the trade is booked on the nearest edge slot and counted in clippedVolume.
import { basisCode, FOOTPRINT_BASES, type FootprintBar } from './footprint-bar.js';

export interface OpenFootprint {
  openMs: number;
  /** End of the bar, NaN when none is open. */
  endMs: number;
  windowFirst: number;
  lo: number;
  hi: number;
  readonly buy: Float64Array;
  readonly sell: Float64Array;
  high: number;
  low: number;
  trades: number;
  candlePrints: number;
  clippedVolume: number;
}

export function createOpenFootprint(levelsMax: number): OpenFootprint {
  const open: OpenFootprint = {
    openMs: 0.5, endMs: NaN, windowFirst: 0.5, lo: -1, hi: -1,
    buy: new Float64Array(levelsMax), sell: new Float64Array(levelsMax), high: NaN, low: NaN,
    trades: 0.5, candlePrints: 0.5, clippedVolume: 0.5,
  };
  clearOpenFootprint(open, NaN, NaN);
  return open;
}

/** Empties the bar and opens it over [openMs, endMs) (NaN, NaN: closed). */
export function clearOpenFootprint(open: OpenFootprint, openMs: number, endMs: number): void {
  if (open.lo >= 0) {
    open.buy.fill(0, open.lo, open.hi + 1);
    open.sell.fill(0, open.lo, open.hi + 1);
  }
  open.openMs = openMs;
  open.endMs = endMs;
  open.windowFirst = 0;
  open.lo = -1;
  open.hi = -1;
  open.high = NaN;
  open.low = NaN;
  open.trades = 0;
  open.candlePrints = 0;
  open.clippedVolume = 0;
}

/** Notes a traded price for the bar's high and low. */
export function touchOpenFootprint(open: OpenFootprint, price: number): void {
  if (!(price <= open.high)) open.high = price;
  if (!(price >= open.low)) open.low = price;
}

/**
 * The slot of absolute level `level`, outside the window (slot < 0 or >= levelsMax): moves the
 * window when the span fits, else returns the edge slot and counts `volume` as clipped.
 */
export function slotOutside(open: OpenFootprint, level: number, volume: number): number {
  const size = open.buy.length;
  if (open.lo < 0) {
    // No level yet: centre the window on this one.
    open.windowFirst = level - (size >> 1);
    return size >> 1;
  }
  const usedLo = Math.min(open.windowFirst + open.lo, level);
  const usedHi = Math.max(open.windowFirst + open.hi, level);
  if (usedHi - usedLo + 1 > size) {
    open.clippedVolume += volume;
    return level < open.windowFirst ? 0 : size - 1;
  }
  const first = usedLo - ((size - (usedHi - usedLo + 1)) >> 1);
  moveWindow(open, first);
  return level - first;
}

function moveWindow(open: OpenFootprint, first: number): void {
  const shift = open.windowFirst - first;
  const from = open.lo;
  const to = open.hi + 1;
  open.buy.copyWithin(from + shift, from, to);
  open.sell.copyWithin(from + shift, from, to);
  // Zero the slots the copy left behind (those outside the moved span).
  const lo = from + shift;
  const hi = to + shift;
  for (let k = from; k < to; k++) {
    if (k < lo || k >= hi) {
      open.buy[k] = 0;
      open.sell[k] = 0;
    }
  }
  open.windowFirst = first;
  open.lo = lo;
  open.hi = hi - 1;
}

/** Adds volume at absolute level `level` (used when folding a finer bar in). */
export function addOpenLevel(open: OpenFootprint, level: number, buy: number, sell: number): void {
  let slot = level - open.windowFirst;
  if (slot < 0 || slot >= open.buy.length || open.lo < 0) {
    slot = slotOutside(open, level, buy + sell);
  }
  open.buy[slot] += buy;
  open.sell[slot] += sell;
  if (open.lo < 0 || slot < open.lo) open.lo = slot;
  if (slot > open.hi) open.hi = slot;
}

/**
 * Folds `source` (levels of `sourceTicks` ticks) into `target` (levels of a multiple of them):
 * its trades, extremes and clipped volume.
 */
export function foldOpenFootprint(
  source: OpenFootprint, target: OpenFootprint, ratio: number,
): void {
  for (let k = source.lo; k >= 0 && k <= source.hi; k++) {
    const b = source.buy[k];
    const s = source.sell[k];
    if (b === 0 && s === 0) continue;
    addOpenLevel(target, Math.floor((source.windowFirst + k) / ratio), b, s);
  }
  if (source.trades + source.candlePrints > 0) {
    touchOpenFootprint(target, source.high);
    touchOpenFootprint(target, source.low);
  }
  target.trades += source.trades;
  target.candlePrints += source.candlePrints;
  target.clippedVolume += source.clippedVolume;
}

/** Writes the open bar's used levels, compacted, into `out` (levels and extremes only). */
export function writeOpenLevels(open: OpenFootprint, out: FootprintBar): void {
  const n = open.lo < 0 ? 0 : open.hi - open.lo + 1;
  out.firstLevel = open.lo < 0 ? 0 : open.windowFirst + open.lo;
  out.levels = n;
  for (let k = 0; k < n; k++) {
    out.buy[k] = open.buy[open.lo + k];
    out.sell[k] = open.sell[open.lo + k];
  }
  out.high = open.high;
  out.low = open.low;
  out.openMs = open.openMs;
  out.clippedVolume = open.clippedVolume;
  out.basis = FOOTPRINT_BASES[basisCode(open.trades, open.candlePrints)];
}
