// One footprint bar as a caller-owned record, and what is read off its levels: the point of
// control and the stacked imbalances.
//
// Diagonal imbalance, as footprint charts compare: buyers lift the ask one level above where
// sellers hit the bid, so level i's buy (ask) volume is set against level i-1's sell (bid)
// volume, and level i's sell volume against level i+1's buy volume.
//   buy imbalance at i:  buy[i] >= ratio * sell[i-1] and buy[i] > 0
//   sell imbalance at i: sell[i] >= ratio * buy[i+1] and sell[i] > 0
// A missing or empty opposite level counts as 0 (any volume against none is an imbalance); the
// lowest level has no i-1 and the highest no i+1, so they compare against 0 too. A stack is a
// run of at least imbalanceLevelsMin consecutive levels with an imbalance on the same side.
import type { BarTimeframe } from './timeframes.js';

/** 'trades': every event was a trade; 'candles': no footprint (warm-up, backfill); 'mixed'. */
export type FootprintBasis = 'trades' | 'candles' | 'mixed';

/** Volume at price levels: level (firstLevel + i) holds buy[i] and sell[i], i < levels. */
export interface PriceLevels {
  /** Price of one tick, and ticks per level (a power of two; 0 for an empty profile). */
  tickSize: number;
  levelTicks: number;
  /** Level index of buy[0]: its prices are [firstLevel, firstLevel + 1) * tickSize * levelTicks. */
  firstLevel: number;
  /** Levels in use: buy[0 .. levels), sell[0 .. levels); 0 for a bar of candles. */
  levels: number;
  /** Aggressor volume in base units: buy lifted the ask, sell hit the bid. */
  readonly buy: Float64Array;
  readonly sell: Float64Array;
}

/** A footprint bar; its levels are fixed for the UTC day. */
export interface FootprintBar extends PriceLevels {
  timeframe: BarTimeframe;
  openMs: number;
  basis: FootprintBasis;
  /** Traded high and low (candle prints included); NaN for an empty bar. */
  high: number;
  low: number;
  /** Index into buy/sell of the level with the most volume (the lowest of equals); -1: none. */
  pocIndex: number;
  /** Volume of trades outside the bar's levelsMax window, booked on its edge level. */
  clippedVolume: number;
  /** Stacked imbalances: side (+1 buy, -1 sell) and first / last index into buy/sell. */
  stacks: number;
  readonly stackSide: Int8Array;
  readonly stackFrom: Int32Array;
  readonly stackTo: Int32Array;
}

/** The basis of a bar of `trades` trades and `candlePrints` prints made from candles. */
export function basisCode(trades: number, candlePrints: number): number {
  return candlePrints === 0 ? 0 : trades === 0 ? 1 : 2;
}

/** Names of the basis codes. */
export const FOOTPRINT_BASES: readonly FootprintBasis[] = ['trades', 'candles', 'mixed'];

export function createFootprintBar(levelsMax: number): FootprintBar {
  // Runs of one side are at least a level apart: at most ceil(levels / 2) per side.
  const stacksMax = levelsMax + 2;
  return {
    timeframe: '5m', openMs: 0, basis: 'trades', tickSize: 0, levelTicks: 1, firstLevel: 0,
    levels: 0, buy: new Float64Array(levelsMax), sell: new Float64Array(levelsMax), high: NaN,
    low: NaN, pocIndex: -1, clippedVolume: 0, stacks: 0, stackSide: new Int8Array(stacksMax),
    stackFrom: new Int32Array(stacksMax), stackTo: new Int32Array(stacksMax),
  };
}

/** Index of the level with the most volume, the lowest of equals; -1 when nothing traded. */
export function pointOfControl(buy: Float64Array, sell: Float64Array, levels: number): number {
  let best = -1;
  let bestVolume = 0;
  for (let i = 0; i < levels; i++) {
    const v = buy[i] + sell[i];
    if (v > bestVolume) {
      best = i;
      bestVolume = v;
    }
  }
  return best;
}

function isBuyImbalance(bar: FootprintBar, i: number, ratio: number): boolean {
  const against = i > 0 ? bar.sell[i - 1] : 0;
  return bar.buy[i] > 0 && bar.buy[i] >= ratio * against;
}

function isSellImbalance(bar: FootprintBar, i: number, ratio: number): boolean {
  const against = i + 1 < bar.levels ? bar.buy[i + 1] : 0;
  return bar.sell[i] > 0 && bar.sell[i] >= ratio * against;
}

/** Finds the runs of one side's imbalances and appends them to the bar's stacks. */
function findStacks(bar: FootprintBar, side: number, ratio: number, runMin: number): void {
  let start = -1;
  for (let i = 0; i <= bar.levels; i++) {
    const hit = i < bar.levels &&
      (side > 0 ? isBuyImbalance(bar, i, ratio) : isSellImbalance(bar, i, ratio));
    if (hit && start < 0) start = i;
    if (!hit && start >= 0) {
      if (i - start >= runMin && bar.stacks < bar.stackSide.length) {
        bar.stackSide[bar.stacks] = side;
        bar.stackFrom[bar.stacks] = start;
        bar.stackTo[bar.stacks] = i - 1;
        bar.stacks += 1;
      }
      start = -1;
    }
  }
}

/** Fills pocIndex and the stacks from the bar's levels. */
export function analyzeFootprintBar(bar: FootprintBar, ratio: number, runMin: number): void {
  bar.pocIndex = pointOfControl(bar.buy, bar.sell, bar.levels);
  bar.stacks = 0;
  findStacks(bar, 1, ratio, runMin);
  findStacks(bar, -1, ratio, runMin);
}
