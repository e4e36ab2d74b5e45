// A footprint bar as it leaves a shard and as the store keeps it (plain data, no typed arrays),
// and its answer as the API writes it (docs/footprint.md, "API").
import { roundSignificant } from './json-numbers.js';

export const FOOTPRINT_TIMEFRAMES = ['5m', '15m', '1h'] as const;
export type FootprintTimeframe = (typeof FOOTPRINT_TIMEFRAMES)[number];
export const FOOTPRINT_TIMEFRAME_MS: Readonly<Record<FootprintTimeframe, number>> =
  Object.freeze({ '5m': 300_000, '15m': 900_000, '1h': 3_600_000 });

/** 'trades': a full footprint; 'candles': none (warm-up, backfill); 'mixed': the trades' part. */
export type FootprintBasisName = 'trades' | 'candles' | 'mixed';

export interface FootprintRecord {
  readonly symbol: string;
  readonly timeframe: FootprintTimeframe;
  readonly openMs: number;
  readonly basis: FootprintBasisName;
  readonly tickSize: number;
  /** Ticks per level; level (firstLevel + i) spans [level, level + 1) * levelTicks * tickSize. */
  readonly levelTicks: number;
  readonly firstLevel: number;
  readonly high: number;
  readonly low: number;
  readonly clippedVolume: number;
  /** Index into buy / sell of the point of control; -1: nothing traded. */
  readonly pocIndex: number;
  /** Aggressor volume per level in base units (buy lifted the ask, sell hit the bid). */
  readonly buy: readonly number[];
  readonly sell: readonly number[];
  /** Stacked imbalances as [side (+1 buy, -1 sell), first index, last index] triples. */
  readonly stacks: readonly number[];
}

const round = (x: number): number | null => (Number.isFinite(x) ? roundSignificant(x) : null);

/** The price of level index i's low edge. */
export function footprintLevelPrice(r: FootprintRecord, i: number): number {
  return (r.firstLevel + i) * r.levelTicks * r.tickSize;
}

/** One bar as the API answers it (`closed` false: the open bar, still filling). */
export function footprintBarJson(r: FootprintRecord, closed: boolean): Record<string, unknown> {
  const levels = [];
  let buyTotal = 0;
  let sellTotal = 0;
  for (let i = 0; i < r.buy.length; i++) {
    const buy = r.buy[i];
    const sell = r.sell[i];
    buyTotal += buy;
    sellTotal += sell;
    levels.push({ price: round(footprintLevelPrice(r, i)), buy: round(buy), sell: round(sell),
      delta: round(buy - sell) });
  }
  const stackedImbalances = [];
  for (let k = 0; k + 2 < r.stacks.length; k += 3) {
    stackedImbalances.push({ side: r.stacks[k] > 0 ? 'buy' : 'sell',
      fromPrice: round(footprintLevelPrice(r, r.stacks[k + 1])),
      toPrice: round(footprintLevelPrice(r, r.stacks[k + 2])),
      levels: r.stacks[k + 2] - r.stacks[k + 1] + 1 });
  }
  return {
    openTime: new Date(r.openMs).toISOString(),
    closeTime: new Date(r.openMs + FOOTPRINT_TIMEFRAME_MS[r.timeframe]).toISOString(),
    closed, basis: r.basis, high: round(r.high), low: round(r.low),
    volume: round(buyTotal + sellTotal), delta: round(buyTotal - sellTotal),
    pocPrice: r.pocIndex < 0 ? null : round(footprintLevelPrice(r, r.pocIndex)),
    clippedVolume: round(r.clippedVolume), levels, stackedImbalances,
  };
}

/** A bar's level size in price (null for a bar of candles, which has no levels). */
export function footprintLevelSize(r: FootprintRecord): number | null {
  return r.tickSize > 0 ? round(r.levelTicks * r.tickSize) : null;
}
