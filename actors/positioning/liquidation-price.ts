// Liquidation price of a position: the venue's when it reports one, else estimated from entry,
// leverage and the maintenance margin (docs/positioning.md has the derivation).
import type { WalletPosition, WalletStateEvent } from '../../core/messages.js';
import {
  maintenanceMarginUsd, maintenanceTiers, tierFor, type MaintenanceTier, type MarginTables,
} from './margin-tables.js';

export interface LiquidationEstimate {
  /** null when the position cannot be liquidated by price (a well-collateralized long). */
  readonly price: number | null;
  readonly source: 'venue' | 'estimate';
}

/** Single-tier tables by leverage, made once: leverage settings are few small integers. */
const singleTiers = new Map<number, readonly MaintenanceTier[]>();
const singleTiersMax = 1_000;

/** Tiers of a symbol; without a table, one tier at the position's own leverage (conservative:
 *  the real max leverage is at least the leverage set, so the real maintenance rate is lower). */
function tiersOf(position: WalletPosition, tables: MarginTables | undefined):
  readonly MaintenanceTier[] {
  const known = tables?.get(position.symbol);
  if (known !== undefined) return known;
  const maxLeverage = Math.max(1, position.leverage);
  let tiers = singleTiers.get(maxLeverage);
  if (tiers === undefined) {
    tiers = maintenanceTiers([{ lowerBoundUsd: 0, maxLeverage }]);
    // Bounded: odd fractional leverages beyond the bound are computed each time, not kept.
    if (singleTiers.size < singleTiersMax) singleTiers.set(maxLeverage, tiers);
  }
  return tiers;
}

/**
 * Isolated: margin at entry is |size| * entry / leverage; solving
 *   margin + side * (P - entry) * |size| = |size| * P * rate - deduction
 * gives P = (side * entry - (margin + deduction) / |size|) / (side - rate).
 */
export function isolatedLiquidationPx(position: WalletPosition,
  tiers: readonly MaintenanceTier[]): number | null {
  const size = Math.abs(position.size);
  const side = Math.sign(position.size);
  const margin = (size * position.entryPx) / position.leverage;
  const tier = tierFor(size * position.entryPx, tiers);
  const price =
    (side * position.entryPx - (margin + tier.deductionUsd) / size) / (side - tier.rate);
  return price > 0 ? price : null;
}

/**
 * Cross: the venue's formula with the other positions held fixed,
 *   P = mark - side * (crossEquity - crossMaintenance) / |size| / (1 - rate * side),
 * where crossEquity is the account value less the isolated positions' margin.
 */
export function crossLiquidationPx(position: WalletPosition, wallet: WalletStateEvent,
  tables: MarginTables | undefined): number | null {
  let isolatedMargin = 0;
  let crossMaintenance = 0;
  for (const p of wallet.positions) {
    if (p.leverageType === 'isolated') isolatedMargin += p.marginUsed;
    else crossMaintenance += maintenanceMarginUsd(Math.abs(p.positionValue), tiersOf(p, tables));
  }
  const size = Math.abs(position.size);
  const side = Math.sign(position.size);
  const mark = Math.abs(position.positionValue) / size;
  const rate = tierFor(Math.abs(position.positionValue), tiersOf(position, tables)).rate;
  const available = wallet.accountValue - isolatedMargin - crossMaintenance;
  const price = mark - (side * available) / size / (1 - rate * side);
  return price > 0 ? price : null;
}

export function liquidationPrice(position: WalletPosition, wallet: WalletStateEvent,
  tables?: MarginTables): LiquidationEstimate {
  const venue = position.liquidationPx;
  if (venue !== null && Number.isFinite(venue) && venue > 0) {
    return { price: venue, source: 'venue' };
  }
  if (position.size === 0 || !(position.leverage > 0)) return { price: null, source: 'estimate' };
  const price = position.leverageType === 'isolated'
    ? isolatedLiquidationPx(position, tiersOf(position, tables))
    : crossLiquidationPx(position, wallet, tables);
  return { price, source: 'estimate' };
}
