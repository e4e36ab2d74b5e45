// Builders of crafted wallets and metrics for the positioning tests.
import type { WalletPosition, WalletStateEvent } from '../../core/messages.js';
import type { WalletMetrics, WalletRecord } from '../../actors/positioning/types.js';

export const addressOf = (n: number): string => '0x' + n.toString(16).padStart(40, '0');

export function position(over: Partial<WalletPosition> & { symbol: string; size: number }):
  WalletPosition {
  const entryPx = over.entryPx ?? 100;
  return {
    entryPx,
    leverage: 10,
    leverageType: 'cross',
    positionValue: Math.abs(over.size) * entryPx,
    unrealizedPnl: 0,
    liquidationPx: null,
    marginUsed: 0,
    ...over,
  };
}

export function walletState(address: string, accountValue: number,
  positions: WalletPosition[], tsMs = 1_000): WalletStateEvent {
  return { type: 'wallet', tsMs, address, accountValue, positions };
}

export const baseMetrics: WalletMetrics = Object.freeze({
  accountValue: 1_000_000,
  openNotional: 1_000_000,
  effectiveLeverage: 1,
  maxLeverage: 1,
  buyNotional: 1_000_000,
  sellNotional: 0,
  twoSidedness: 0,
  turnover: 1,
  tradeCount: 5,
  realizedPnl: 0,
  entriesEvaluated: 0,
  entriesPrescient: 0,
});

export function record(state: WalletStateEvent | null,
  over: Partial<WalletRecord> = {}): WalletRecord {
  return {
    address: state?.address ?? addressOf(999),
    label: null,
    category: 'directional_whale',
    categoryReason: 'test',
    state,
    metrics: baseMetrics,
    relevanceUsd: 0,
    firstSeenMs: 0,
    lastActiveMs: 0,
    ...over,
  };
}
