// The pair detail view and the screener row: market fields from the universe, orderflow fields
// from the pair's actor when the pair is tracked (null otherwise).
import type { AssetCtx, MarketMeta, PairSummary } from '../../core/messages.js';
import { fundingAnnualizedPct } from './encode.js';

/** The home venue settles funding hourly (docs/decisions.md). */
export const HOME_FUNDING_INTERVAL_HOURS = 1;

export interface ScreenerRow {
  readonly symbol: string;
  readonly price: number;
  readonly change24h: number;
  readonly volume24h: number;
  readonly openInterest: number;
  readonly fundingRate: number;
  readonly fundingAnnualized: number;
  readonly dex: string;
  readonly delisted: boolean;
  readonly tracked: boolean;
  readonly stale: boolean;
}

/** A screener row. Delisted markets report zero volume and open interest. */
export function screenerRow(market: MarketMeta & { ctx: AssetCtx },
  summary: PairSummary | undefined, tracked: boolean, stale: boolean): ScreenerRow {
  const { ctx } = market;
  const price = summary?.price ?? ctx.markPx;
  const change24h = ctx.prevDayPx > 0 ? ((price - ctx.prevDayPx) / ctx.prevDayPx) * 100 : 0;
  return {
    symbol: market.symbol,
    price,
    change24h,
    volume24h: market.isDelisted ? 0 : ctx.dayNtlVlm,
    openInterest: market.isDelisted ? 0 : ctx.openInterest * price,
    fundingRate: ctx.fundingRate,
    fundingAnnualized: fundingAnnualizedPct(ctx.fundingRate, HOME_FUNDING_INTERVAL_HOURS),
    dex: market.dex,
    delisted: market.isDelisted,
    tracked,
    stale,
  };
}

/** The pair endpoint's body (without the freshness fields, which encodeFeedView adds). */
export function pairDetail(row: ScreenerRow, summary: PairSummary | undefined,
  asOfMs: number): Record<string, unknown> {
  const orderflow = row.tracked && summary !== undefined;
  return {
    symbol: row.symbol,
    price: row.price,
    change24h: row.change24h,
    volume24h: row.volume24h,
    openInterest: row.openInterest,
    fundingRate: row.fundingRate,
    fundingAnnualized: row.fundingAnnualized,
    vpin: orderflow ? summary.vpin : null,
    vpinLevel: orderflow ? summary.vpinLevel : null,
    signalScore: orderflow ? summary.score : null,
    signalDirection: orderflow ? summary.direction : null,
    regime: orderflow ? summary.regime : null,
    basis: orderflow ? summary.basis : null,
    dex: row.dex,
    delisted: row.delisted,
    tracked: row.tracked,
    stale: row.stale,
    asOf: new Date(asOfMs).toISOString(),
  };
}
