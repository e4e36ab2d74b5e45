// Footprint of the 5m / 15m / 1h bars: aggressor buy and sell volume (base units) at each price
// level, the levels fixed per UTC day (footprint-levels.ts), the point of control and stacked
// imbalances (footprint-bar.ts). Candle prints (warm-up, backfill) carry no trades: they open
// and extend bars without levels, and the bar says so in its basis.
//
//   open[t]: the open bar of timeframe t (footprint-open.ts); a trade touches only open[0], the
//   5m bar, folded into open[1] and open[2] when it closes (as bars.ts folds its bars).
//   closed ring of timeframe t, capacity historyBars, oldest at (head[t] - count[t]) mod cap:
//   ringBuy / ringSell[(t * cap + k) * levelsMax + i], ringMeta[(t * cap + k) * META + field]
import { checkOption, checkTime, checkTrade } from './check.js';
import {
  analyzeFootprintBar, createFootprintBar, type FootprintBar,
} from './footprint-bar.js';
import { levelTicksForDay, recordBarRange, createRangeHistory, type RangeHistory } from
  './footprint-ranges.js';
import {
  clearOpenFootprint, createOpenFootprint, foldOpenFootprint, slotOutside, touchOpenFootprint,
  writeOpenLevels, type OpenFootprint,
} from './footprint-open.js';
import { fiveFigureTick } from './footprint-levels.js';
import { BAR_TIMEFRAMES, BAR_TIMEFRAME_MS, DAY_MS, slotStartMs } from './timeframes.js';
import { readRingBar, writeRingBar, type FootprintRing, createFootprintRing } from
  './footprint-ring.js';

export interface FootprintOptions {
  /** Price of one tick; 0: five significant figures of the day's first price (Hyperliquid). */
  readonly tickSize: number;
  /** Levels a typical bar should span (the rule lands within a factor sqrt(2) of it). */
  readonly targetLevels: number;
  /** Level slots per bar: a bar wider than this books its outermost trades on its edges. */
  readonly levelsMax: number;
  /** Closed bars kept per timeframe (older ones belong in the store). */
  readonly historyBars: number;
  /** Diagonal buy / sell ratio that makes an imbalance. */
  readonly imbalanceRatio: number;
  /** Consecutive imbalanced levels that make a stack. */
  readonly imbalanceLevelsMin: number;
  /** Typical 5m range (basis points of price) assumed before a day of bars is known. */
  readonly fallbackRangeBps: number;
}

export const defaultFootprintOptions: FootprintOptions = Object.freeze({
  tickSize: 0, targetLevels: 30, levelsMax: 128, historyBars: 12, imbalanceRatio: 3,
  imbalanceLevelsMin: 3, fallbackRangeBps: 15,
});

export interface FootprintState {
  readonly options: FootprintOptions;
  readonly open: readonly OpenFootprint[];
  /** The 5m open bar (open[0]), bound for the trade path. */
  readonly open5m: OpenFootprint;
  /** A copy of a longer open bar merged with the open 5m one, for reads. */
  readonly scratch: OpenFootprint;
  readonly ring: FootprintRing;
  readonly ranges: RangeHistory;
  /** The UTC day's tick, its inverse and ticks per level of each timeframe. */
  tickSize: number;
  inverseTick: number;
  readonly levelTicks: Float64Array;
  /** 1 / the 5m bar's ticks per level: a power of two, so multiplying by it is exact. */
  inverseLevelTicks5m: number;
  readonly levelsMax: number;
  dayEndMs: number;
  /** End of the open 5m bar (every other boundary is one too); -Infinity: none open. */
  nextBoundaryMs: number;
  lastTsMs: number;
  lastPrice: number;
}

function checkFootprintOptions(o: FootprintOptions): void {
  checkOption('tickSize', o.tickSize, 0, 1e9);
  checkOption('targetLevels', o.targetLevels, 2, 1000, true);
  checkOption('levelsMax', o.levelsMax, o.targetLevels, 65_536, true);
  checkOption('historyBars', o.historyBars, 1, 100_000, true);
  checkOption('imbalanceRatio', o.imbalanceRatio, 1, 1e6);
  checkOption('imbalanceLevelsMin', o.imbalanceLevelsMin, 1, o.levelsMax, true);
  checkOption('fallbackRangeBps', o.fallbackRangeBps, 0.01, 10_000);
}

export function createFootprintState(
  options: FootprintOptions = defaultFootprintOptions,
): FootprintState {
  checkFootprintOptions(options);
  const open = BAR_TIMEFRAMES.map(() => createOpenFootprint(options.levelsMax));
  const state: FootprintState = {
    options, open, open5m: open[0], scratch: createOpenFootprint(options.levelsMax),
    ring: createFootprintRing(BAR_TIMEFRAMES.length, options.historyBars, options.levelsMax),
    ranges: createRangeHistory(), tickSize: 0.5, inverseTick: 0.5,
    levelTicks: new Float64Array(BAR_TIMEFRAMES.length), inverseLevelTicks5m: 0.5,
    levelsMax: options.levelsMax, dayEndMs: 0.5,
    nextBoundaryMs: 0.5, lastTsMs: 0.5, lastPrice: 0.5,
  };
  resetFootprint(state);
  return state;
}

export function resetFootprint(state: FootprintState): void {
  state.ring.count.fill(0);
  state.ring.head.fill(0);
  state.ring.closedTotal.fill(0);
  state.ranges.count.fill(0);
  state.ranges.head.fill(0);
  state.tickSize = 0;
  state.inverseTick = 0;
  state.levelTicks.fill(0);
  state.inverseLevelTicks5m = 1;
  state.dayEndMs = -Infinity;
  state.lastTsMs = -Infinity;
  state.lastPrice = NaN;
  gapFootprint(state);
}

/** Feed gap: drops the open bars (they miss trades); the day's levels and history stay. */
export function gapFootprint(state: FootprintState): void {
  for (const open of state.open) clearOpenFootprint(open, NaN, NaN);
  state.nextBoundaryMs = -Infinity;
}

/** Fixes the day's tick and levels at the first event of a UTC day. */
function startDay(state: FootprintState, tsMs: number, price: number): void {
  const o = state.options;
  state.dayEndMs = slotStartMs(tsMs, DAY_MS) + DAY_MS;
  state.tickSize = o.tickSize > 0 ? o.tickSize : fiveFigureTick(price);
  state.inverseTick = 1 / state.tickSize;
  levelTicksForDay(state.ranges, tsMs, price, state.tickSize, o, state.levelTicks);
  state.inverseLevelTicks5m = 1 / state.levelTicks[0];
}

/** Closes open bar t (into the ring and the range history when anything happened in it). */
function closeBar(state: FootprintState, t: number): void {
  const open = state.open[t];
  if (open.trades + open.candlePrints > 0) {
    writeRingBar(state.ring, t, open, state.tickSize, state.levelTicks[t]);
    recordBarRange(state.ranges, t, open.openMs, open.high - open.low);
  }
  clearOpenFootprint(open, NaN, NaN);
}

/** Closes the bars that ended by `tsMs` and opens the ones holding it; returns closed bits. */
function crossBoundary(state: FootprintState, tsMs: number, price: number): number {
  let closed = 0;
  const open = state.open;
  if (!Number.isNaN(open[0].endMs)) {
    for (let t = 1; t < open.length; t++) {
      foldOpenFootprint(open[0], open[t], state.levelTicks[t] / state.levelTicks[0]);
    }
    for (let t = 0; t < open.length; t++) {
      if (tsMs >= open[t].endMs) {
        closeBar(state, t);
        closed |= 1 << t;
      }
    }
  }
  if (tsMs >= state.dayEndMs) startDay(state, tsMs, price);
  for (let t = 0; t < open.length; t++) {
    if (!Number.isNaN(open[t].endMs)) continue;
    const ms = BAR_TIMEFRAME_MS[t];
    const openMs = slotStartMs(tsMs, ms);
    clearOpenFootprint(open[t], openMs, openMs + ms);
  }
  state.nextBoundaryMs = open[0].endMs;
  return closed;
}

/** Market time passed without an event: closes the bars that ended. Returns closed bits. */
export function advanceFootprint(state: FootprintState, tsMs: number): number {
  checkTime(tsMs, -Infinity);
  if (Number.isNaN(state.open5m.endMs) || tsMs < state.nextBoundaryMs) return 0;
  // The bars it opens stay empty until an event comes (an empty bar is not kept at its close).
  return crossBoundary(state, tsMs, state.lastPrice);
}

/** One trade (side +1 buy aggressor, -1 sell). Returns the bitmask of timeframes closed. */
export function updateFootprint(
  state: FootprintState, tsMs: number, price: number, size: number, side: number,
): number {
  checkTrade(tsMs, price, size, side, state.lastTsMs);
  state.lastTsMs = tsMs;
  return applyFootprint(state, tsMs, price, size, side);
}

/** The update without its input check (see applyBars in bars.ts). */
export function applyFootprint(
  state: FootprintState, tsMs: number, price: number, size: number, side: number,
): number {
  const closed = tsMs >= state.nextBoundaryMs ? crossBoundary(state, tsMs, price) : 0;
  const open = state.open5m;
  // Prices sit on the tick grid: the rounded tick index is exact, and so is the level.
  const level = Math.floor(Math.round(price * state.inverseTick) * state.inverseLevelTicks5m);
  let slot = level - open.windowFirst;
  if (slot < 0 || slot >= state.levelsMax || open.lo < 0) slot = slotOutside(open, level, size);
  if (side > 0) open.buy[slot] += size;
  else open.sell[slot] += size;
  if (open.lo < 0 || slot < open.lo) open.lo = slot;
  if (slot > open.hi) open.hi = slot;
  if (!(price <= open.high)) open.high = price;
  if (!(price >= open.low)) open.low = price;
  open.trades += 1;
  state.lastPrice = price;
  return closed;
}

/** One print made from a candle: moves time and the bar's extremes, adds no levels. */
export function updateFootprintCandle(state: FootprintState, tsMs: number, price: number): number {
  checkTrade(tsMs, price, 1, 1, state.lastTsMs);
  state.lastTsMs = tsMs;
  const closed = tsMs >= state.nextBoundaryMs ? crossBoundary(state, tsMs, price) : 0;
  touchOpenFootprint(state.open5m, price);
  state.open5m.candlePrints += 1;
  state.lastPrice = price;
  return closed;
}

function finish(state: FootprintState, t: number, out: FootprintBar): void {
  out.timeframe = BAR_TIMEFRAMES[t];
  analyzeFootprintBar(out, state.options.imbalanceRatio, state.options.imbalanceLevelsMin);
}

/** The open bar of timeframe t (the open 5m bar merged in) into `out`; false when none. */
export function openFootprint(state: FootprintState, t: number, out: FootprintBar): boolean {
  const open = state.open[t];
  if (Number.isNaN(open.endMs)) return false;
  let source = open;
  if (t > 0) {
    source = state.scratch;
    clearOpenFootprint(source, open.openMs, open.endMs);
    foldOpenFootprint(open, source, 1);
    foldOpenFootprint(state.open5m, source, state.levelTicks[t] / state.levelTicks[0]);
  }
  writeOpenLevels(source, out);
  out.tickSize = state.tickSize;
  out.levelTicks = state.levelTicks[t];
  finish(state, t, out);
  return true;
}

/** The closed bar `back` places before the newest (0: newest) into `out`; false: not kept. */
export function closedFootprintAgo(
  state: FootprintState, t: number, back: number, out: FootprintBar,
): boolean {
  if (!readRingBar(state.ring, t, back, out)) return false;
  finish(state, t, out);
  return true;
}

/** Closed bars kept of timeframe t. */
export function footprintBarsKept(state: FootprintState, t: number): number {
  return state.ring.count[t];
}

export { createFootprintBar, type FootprintBar };
