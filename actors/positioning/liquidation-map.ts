// Estimated liquidation notional by price band around the mark, from the tracked wallets'
// positions in one symbol, with the share of open interest those positions cover.
import type { WalletStateEvent } from '../../core/messages.js';
import { liquidationPrice } from './liquidation-price.js';
import type { MarginTables } from './margin-tables.js';

export interface LiquidationMapOptions {
  /** Width of each band, percent of the mark (1 = 1 %). */
  readonly bandWidthPct: number;
  /** Bands below the mark, and as many above. */
  readonly bandsEachSide: number;
  readonly marginTables?: MarginTables;
}

export const liquidationMapLimits = Object.freeze({ bandsEachSideMax: 200 });

export interface LiquidationBand {
  readonly priceLow: number;
  readonly priceHigh: number;
  readonly longNotional: number;
  readonly shortNotional: number;
}

export interface LiquidationMap {
  readonly symbol: string;
  readonly markPrice: number;
  readonly bandWidthPct: number;
  /** Tracked long + short notional over twice the open interest (each side is the OI), capped
   *  at 1; null when the open interest is unknown or zero. */
  readonly coverage: number | null;
  /** Ascending by price; a band holds [priceLow, priceHigh). Notional is |size| * mark. */
  readonly bands: readonly LiquidationBand[];
  readonly positions: number;
  /** Positions whose liquidation price came from the venue, and those estimated. */
  readonly fromVenue: number;
  readonly estimated: number;
  /** Notional liquidating outside the bands (or never, by price). */
  readonly outsideNotional: { readonly long: number; readonly short: number };
}

/** Throws RangeError on options no caller should pass (the HTTP layer validates queries). */
function checkOptions(markPx: number, o: LiquidationMapOptions): void {
  if (!(markPx > 0) || !Number.isFinite(markPx)) throw new RangeError('markPx must be positive');
  if (!(o.bandWidthPct > 0) || !Number.isInteger(o.bandsEachSide) || o.bandsEachSide < 1 ||
    o.bandsEachSide > liquidationMapLimits.bandsEachSideMax ||
    o.bandWidthPct * o.bandsEachSide >= 100) {
    throw new RangeError('liquidation map needs bandWidthPct > 0, bandsEachSide 1..' +
      `${liquidationMapLimits.bandsEachSideMax} and bandWidthPct * bandsEachSide < 100`);
  }
}

export function buildLiquidationMap(symbol: string, markPx: number,
  wallets: readonly WalletStateEvent[], openInterestUsd: number, options: LiquidationMapOptions):
  LiquidationMap {
  checkOptions(markPx, options);
  const { bandWidthPct, bandsEachSide: n } = options;
  // (100 + k * w) / 100 keeps round edges exact where mark * (1 + k * w / 100) would not.
  const edge = (i: number) => (markPx * (100 + (i - n) * bandWidthPct)) / 100;
  const bands = Array.from({ length: 2 * n }, (_, i) =>
    ({ priceLow: edge(i), priceHigh: edge(i + 1), longNotional: 0, shortNotional: 0 }));
  const outside = { long: 0, short: 0 };
  let seenNotional = 0;
  let positions = 0;
  let fromVenue = 0;
  for (const wallet of wallets) {
    for (const position of wallet.positions) {
      if (position.symbol !== symbol || position.size === 0) continue;
      const notional = Math.abs(position.size) * markPx;
      const long = position.size > 0;
      seenNotional += notional;
      positions++;
      const estimate = liquidationPrice(position, wallet, options.marginTables);
      if (estimate.source === 'venue') fromVenue++;
      const index = estimate.price === null ? -1
        : bandIndex(estimate.price, markPx, bandWidthPct, n, edge);
      const band = index < 0 ? undefined : bands[index];
      if (band === undefined) outside[long ? 'long' : 'short'] += notional;
      else if (long) band.longNotional += notional;
      else band.shortNotional += notional;
    }
  }
  const coverage = openInterestUsd > 0 && Number.isFinite(openInterestUsd)
    ? Math.min(1, seenNotional / (2 * openInterestUsd)) : null;
  return {
    symbol, markPrice: markPx, bandWidthPct, coverage, bands, positions, fromVenue,
    estimated: positions - fromVenue, outsideNotional: outside,
  };
}

/** Index of the band holding the price, -1 outside. */
function bandIndex(price: number, markPx: number, widthPct: number, n: number,
  edge: (i: number) => number): number {
  let i = Math.floor(((price / markPx - 1) * 100) / widthPct) + n;
  // The division can land one off at an exact edge: settle against the edges themselves.
  if (price < edge(i)) i--;
  else if (price >= edge(i + 1)) i++;
  return i >= 0 && i < 2 * n ? i : -1;
}
