// Pure builders of the smart-money, wallets and wallet views from tracked-wallet records, with
// deterministic ordering so equal inputs give byte-identical JSON (and ETags).
import type { WalletPosition } from '../../core/messages.js';
import type {
  WalletPositionView, WalletRecord, WalletView, WhalePosition,
} from './types.js';

export { buildPairPositioning, whaleTradeOf } from './pair-positioning.js';

export interface SmartMoneyOptions {
  /** States older than this (market time) are left out: the wallet's positions are unknown. */
  readonly stateAgeMsMax: number;
  /** Positions listed at most, the largest by notional. */
  readonly positionsMax: number;
  readonly notionalMinUsd: number;
}

export const defaultSmartMoneyOptions: SmartMoneyOptions = Object.freeze({
  stateAgeMsMax: 6 * 3_600_000,
  positionsMax: 500,
  notionalMinUsd: 0,
});

export const sideOf = (p: WalletPosition): 'long' | 'short' => (p.size > 0 ? 'long' : 'short');

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `wallets`: tracked wallets with a current state; `positions`: their open positions, largest
 * notional first (then address, then symbol), at most positionsMax.
 */
export function buildSmartMoneyView(wallets: readonly WalletRecord[], nowMs: number,
  options: Partial<SmartMoneyOptions> = {}): { wallets: number; positions: WhalePosition[] } {
  const o = { ...defaultSmartMoneyOptions, ...options };
  let count = 0;
  const positions: WhalePosition[] = [];
  for (const wallet of wallets) if (addSmartMoneyPositions(wallet, nowMs, o, positions)) count++;
  return { wallets: count, positions: keepTopPositions(positions, o.positionsMax) };
}

/** Appends the wallet's listed positions to `out`; false when its state is missing or stale. */
export function addSmartMoneyPositions(wallet: WalletRecord, nowMs: number, o: SmartMoneyOptions,
  out: WhalePosition[]): boolean {
  const state = wallet.state;
  if (state === null || nowMs - state.tsMs > o.stateAgeMsMax) return false;
  for (const p of state.positions) {
    const notional = Math.abs(p.positionValue);
    if (p.size === 0 || notional < o.notionalMinUsd) continue;
    out.push({
      address: wallet.address, label: wallet.label, category: wallet.category,
      accountValue: state.accountValue, symbol: p.symbol, side: sideOf(p), notional,
      leverage: p.leverage, entryPrice: p.entryPx, unrealizedPnl: p.unrealizedPnl,
    });
  }
  return true;
}

/**
 * The first `max` positions, largest notional first, then address, then symbol: a total order,
 * so trimming a list to its top `max` now and again while it grows gives the same result.
 */
export function keepTopPositions(positions: WhalePosition[], max: number): WhalePosition[] {
  positions.sort((a, b) => b.notional - a.notional || byText(a.address, b.address) ||
    byText(a.symbol, b.symbol));
  if (positions.length > max) positions.length = max;
  return positions;
}

function positionView(p: WalletPosition): WalletPositionView {
  return {
    symbol: p.symbol, side: sideOf(p), size: Math.abs(p.size),
    notional: Math.abs(p.positionValue), leverage: p.leverage, leverageType: p.leverageType,
    entryPrice: p.entryPx, unrealizedPnl: p.unrealizedPnl, liquidationPrice: p.liquidationPx,
    marginUsed: p.marginUsed,
  };
}

/** One wallet with its category, account value and positions; null before its first state. */
export function buildWalletView(wallet: WalletRecord | null | undefined): WalletView | null {
  if (wallet === null || wallet === undefined || wallet.state === null) return null;
  const positions = wallet.state.positions.filter((p) => p.size !== 0).map(positionView)
    .sort((a, b) => b.notional - a.notional || byText(a.symbol, b.symbol));
  return {
    address: wallet.address, label: wallet.label, category: wallet.category,
    categoryReason: wallet.categoryReason, accountValue: wallet.state.accountValue, positions,
    stateAt: new Date(wallet.state.tsMs).toISOString(), metrics: wallet.metrics,
  };
}

/** Every wallet with a known state, largest account value first (then address). */
export function buildWalletsView(wallets: readonly WalletRecord[]):
  { wallets: WalletView[]; count: number } {
  const views: WalletView[] = [];
  for (const wallet of wallets) {
    const view = buildWalletView(wallet);
    if (view !== null) views.push(view);
  }
  views.sort(compareWalletViews);
  return { wallets: views, count: views.length };
}

/** The wallets view's order: largest account value first, then address. */
export function compareWalletViews(a: WalletView, b: WalletView): number {
  return b.accountValue - a.accountValue || byText(a.address, b.address);
}

/** The same order over records with a state (a view's account value is its state's). */
export function compareWalletRecords(a: WalletRecord, b: WalletRecord): number {
  return b.state!.accountValue - a.state!.accountValue || byText(a.address, b.address);
}
