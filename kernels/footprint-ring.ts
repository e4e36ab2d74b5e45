// Closed footprint bars of each timeframe, a ring of fixed slots of levelsMax levels each.
//
//   bar k of timeframe t (k in [0, cap)): levels at buy / sell[(t * cap + k) * levelsMax + i],
//   fields at meta[(t * cap + k) * META + field]; the newest at head[t] - 1.
import { basisCode, FOOTPRINT_BASES, type FootprintBar } from './footprint-bar.js';
import type { OpenFootprint } from './footprint-open.js';

const META = 9;
const [OPEN_MS, FIRST, LEVELS, HIGH, LOW, BASIS, TICK, LEVEL_TICKS, CLIPPED] =
  [0, 1, 2, 3, 4, 5, 6, 7, 8];

export interface FootprintRing {
  readonly capacity: number;
  readonly levelsMax: number;
  readonly head: Int32Array;
  readonly count: Int32Array;
  /** Bars closed per timeframe since the last reset. */
  readonly closedTotal: Float64Array;
  readonly buy: Float64Array;
  readonly sell: Float64Array;
  readonly meta: Float64Array;
}

export function createFootprintRing(
  timeframes: number, capacity: number, levelsMax: number,
): FootprintRing {
  const bars = timeframes * capacity;
  return {
    capacity, levelsMax, head: new Int32Array(timeframes), count: new Int32Array(timeframes),
    closedTotal: new Float64Array(timeframes), buy: new Float64Array(bars * levelsMax),
    sell: new Float64Array(bars * levelsMax), meta: new Float64Array(bars * META),
  };
}

/** Stores open bar `open` of timeframe t as the newest closed one. */
export function writeRingBar(
  ring: FootprintRing, t: number, open: OpenFootprint, tickSize: number, levelTicks: number,
): void {
  const bar = t * ring.capacity + ring.head[t];
  const n = open.lo < 0 ? 0 : open.hi - open.lo + 1;
  const at = bar * ring.levelsMax;
  for (let k = 0; k < n; k++) {
    ring.buy[at + k] = open.buy[open.lo + k];
    ring.sell[at + k] = open.sell[open.lo + k];
  }
  const m = bar * META;
  ring.meta[m + OPEN_MS] = open.openMs;
  ring.meta[m + FIRST] = n === 0 ? 0 : open.windowFirst + open.lo;
  ring.meta[m + LEVELS] = n;
  ring.meta[m + HIGH] = open.high;
  ring.meta[m + LOW] = open.low;
  ring.meta[m + BASIS] = basisCode(open.trades, open.candlePrints);
  ring.meta[m + TICK] = tickSize;
  ring.meta[m + LEVEL_TICKS] = levelTicks;
  ring.meta[m + CLIPPED] = open.clippedVolume;
  ring.head[t] = (ring.head[t] + 1) % ring.capacity;
  if (ring.count[t] < ring.capacity) ring.count[t] += 1;
  ring.closedTotal[t] += 1;
}

/** The closed bar `back` places before the newest (0: newest) into `out`; false: not kept. */
export function readRingBar(
  ring: FootprintRing, t: number, back: number, out: FootprintBar,
): boolean {
  if (!(back >= 0 && back < ring.count[t])) return false;
  const cap = ring.capacity;
  const bar = t * cap + (ring.head[t] - 1 - back + cap) % cap;
  const m = bar * META;
  const n = ring.meta[m + LEVELS];
  const at = bar * ring.levelsMax;
  for (let k = 0; k < n; k++) {
    out.buy[k] = ring.buy[at + k];
    out.sell[k] = ring.sell[at + k];
  }
  out.levels = n;
  out.openMs = ring.meta[m + OPEN_MS];
  out.firstLevel = ring.meta[m + FIRST];
  out.high = ring.meta[m + HIGH];
  out.low = ring.meta[m + LOW];
  out.basis = FOOTPRINT_BASES[ring.meta[m + BASIS]];
  out.tickSize = ring.meta[m + TICK];
  out.levelTicks = ring.meta[m + LEVEL_TICKS];
  out.clippedVolume = ring.meta[m + CLIPPED];
  return true;
}
