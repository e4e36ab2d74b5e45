// Volume at price over a session or any run of bars, summed from footprint bars' levels, with
// its point of control and value area.
//
//   level (firstLevel + i) holds buy[i] and sell[i], i in [0, levels); its prices are
//   [level, level + 1) * levelTicks * tickSize. Bars of a coarser level size coarsen the profile
//   (levels are powers of two of ticks, so a finer level lies inside exactly one coarser level);
//   a span wider than levelsMax coarsens it too, by two: a profile never clips.
import { checkOption } from './check.js';
import { pointOfControl, type FootprintBar, type PriceLevels } from './footprint-bar.js';

/** A profile is price levels and nothing else. */
export type VolumeProfile = PriceLevels;

export function createVolumeProfile(levelsMax = 4096): VolumeProfile {
  checkOption('levelsMax', levelsMax, 2, 1 << 20, true);
  return {
    tickSize: 0, levelTicks: 0, firstLevel: 0, levels: 0,
    buy: new Float64Array(levelsMax), sell: new Float64Array(levelsMax),
  };
}

export function clearVolumeProfile(p: VolumeProfile): void {
  p.buy.fill(0, 0, p.levels);
  p.sell.fill(0, 0, p.levels);
  p.tickSize = 0;
  p.levelTicks = 0;
  p.firstLevel = 0;
  p.levels = 0;
}

export function copyVolumeProfile(from: VolumeProfile, to: VolumeProfile): void {
  clearVolumeProfile(to);
  if (from.levels > to.buy.length) checkOption('levels', from.levels, 0, to.buy.length, true);
  to.buy.set(from.buy.subarray(0, from.levels));
  to.sell.set(from.sell.subarray(0, from.levels));
  to.tickSize = from.tickSize;
  to.levelTicks = from.levelTicks;
  to.firstLevel = from.firstLevel;
  to.levels = from.levels;
}

/** Merges every `factor` (a power of two) levels into one. */
function coarsen(p: VolumeProfile, factor: number): void {
  const first = Math.floor(p.firstLevel / factor);
  const last = Math.floor((p.firstLevel + p.levels - 1) / factor);
  for (let i = 0; i < p.levels; i++) {
    const to = Math.floor((p.firstLevel + i) / factor) - first;
    const b = p.buy[i];
    const s = p.sell[i];
    p.buy[i] = 0;
    p.sell[i] = 0;
    // to <= i: slots ahead of i are still unread, slot `to` is read already (or is i).
    p.buy[to] += b;
    p.sell[to] += s;
  }
  p.firstLevel = first;
  p.levels = p.levels === 0 ? 0 : last - first + 1;
  p.levelTicks *= factor;
}

/** Makes the profile cover levels lo .. hi (of its own size), coarsening when too wide. */
function cover(p: VolumeProfile, lo: number, hi: number): void {
  if (p.levels === 0) {
    p.firstLevel = lo;
    p.levels = hi - lo + 1;
    return;
  }
  const first = Math.min(lo, p.firstLevel);
  const last = Math.max(hi, p.firstLevel + p.levels - 1);
  const shift = p.firstLevel - first;
  if (shift > 0) {
    p.buy.copyWithin(shift, 0, p.levels);
    p.sell.copyWithin(shift, 0, p.levels);
    p.buy.fill(0, 0, shift);
    p.sell.fill(0, 0, shift);
  }
  p.firstLevel = first;
  p.levels = last - first + 1;
}

/** The profile level holding bar level `level` (the profile's levels are as coarse or more). */
function profileLevel(p: VolumeProfile, bar: FootprintBar, level: number): number {
  if (bar.tickSize === p.tickSize) return Math.floor((level * bar.levelTicks) / p.levelTicks);
  // A day on another tick (the price crossed a power of ten): place by the level's low price.
  const price = level * bar.levelTicks * bar.tickSize;
  return Math.floor(price / (p.levelTicks * p.tickSize) + 1e-9);
}

/** Levels the profile would span with levels lo .. hi in it. */
function spanWith(p: VolumeProfile, lo: number, hi: number): number {
  if (p.levels === 0) return hi - lo + 1;
  return Math.max(hi, p.firstLevel + p.levels - 1) - Math.min(lo, p.firstLevel) + 1;
}

/** Adds a footprint bar's levels (a bar of candles adds nothing). */
export function addFootprintToProfile(p: VolumeProfile, bar: FootprintBar): void {
  if (bar.levels === 0) return;
  if (p.levelTicks === 0) {
    p.tickSize = bar.tickSize;
    p.levelTicks = bar.levelTicks;
  }
  while (p.levelTicks * p.tickSize < bar.levelTicks * bar.tickSize * (1 - 1e-9)) coarsen(p, 2);
  let lo = profileLevel(p, bar, bar.firstLevel);
  let hi = profileLevel(p, bar, bar.firstLevel + bar.levels - 1);
  while (spanWith(p, lo, hi) > p.buy.length) {
    coarsen(p, 2);
    lo = profileLevel(p, bar, bar.firstLevel);
    hi = profileLevel(p, bar, bar.firstLevel + bar.levels - 1);
  }
  cover(p, lo, hi);
  for (let i = 0; i < bar.levels; i++) {
    const at = profileLevel(p, bar, bar.firstLevel + i) - p.firstLevel;
    p.buy[at] += bar.buy[i];
    p.sell[at] += bar.sell[i];
  }
}

export interface ValueArea {
  /** Indexes into the profile's levels; -1 when the profile is empty. */
  pocIndex: number;
  lowIndex: number;
  highIndex: number;
  /** Volume inside the value area, and in the whole profile. */
  volume: number;
  totalVolume: number;
}

export function createValueArea(): ValueArea {
  return { pocIndex: -1, lowIndex: -1, highIndex: -1, volume: 0, totalVolume: 0 };
}

/** Volume of profile level i, 0 outside it. */
function volumeAt(p: VolumeProfile, i: number): number {
  return i >= 0 && i < p.levels ? p.buy[i] + p.sell[i] : 0;
}

/**
 * The value area: from the point of control it grows one level at a time toward the larger
 * neighbour (both on a tie; a side with no level left offers nothing) until `fraction` of the
 * volume is inside (docs/decisions.md, Footprint: 70 %).
 */
export function valueArea(p: VolumeProfile, out: ValueArea, fraction = 0.7): ValueArea {
  checkOption('fraction', fraction, 0, 1);
  let total = 0;
  for (let i = 0; i < p.levels; i++) total += p.buy[i] + p.sell[i];
  const poc = pointOfControl(p.buy, p.sell, p.levels);
  out.pocIndex = poc;
  out.totalVolume = total;
  if (poc < 0) {
    out.lowIndex = out.highIndex = -1;
    out.volume = 0;
    return out;
  }
  let lo = poc;
  let hi = poc;
  let inside = volumeAt(p, poc);
  const target = fraction * total;
  while (inside < target && (lo > 0 || hi < p.levels - 1)) {
    const up = hi < p.levels - 1 ? volumeAt(p, hi + 1) : -1;
    const down = lo > 0 ? volumeAt(p, lo - 1) : -1;
    if (up >= down) {
      inside += up;
      hi += 1;
    }
    if (down >= up) {
      inside += down;
      lo -= 1;
    }
  }
  out.lowIndex = lo;
  out.highIndex = hi;
  out.volume = inside;
  return out;
}
