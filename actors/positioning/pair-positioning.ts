// The deep view's positioning of one pair: recent large prints with who made them, and the
// tracked wallets' net long/short notional in the pair by category.
import { WALLET_CATEGORIES, type TradeEvent, type WalletCategory } from '../../core/messages.js';
import type { WalletRecord, WhaleTrade } from './types.js';

export interface PairWhale {
  readonly address: string;
  readonly side: 'buy' | 'sell';
  readonly notional: number;
  readonly price: number;
  /** ISO 8601 UTC, milliseconds. */
  readonly time: string;
}

export interface PairSmartMoney {
  /** USD notional per category; every category present (0 when none). */
  readonly long: Record<WalletCategory, number>;
  readonly short: Record<WalletCategory, number>;
  /** Sum of long minus sum of short. */
  readonly net: number;
}

export interface PairPositioning {
  readonly whales: PairWhale[];
  readonly smartMoney: PairSmartMoney;
}

/** The print attributed to its aggressor (the buyer of a buy, the seller of a sell). */
export function whaleTradeOf(trade: TradeEvent): WhaleTrade | null {
  const address = trade.side === 1 ? trade.buyer : trade.seller;
  if (address === null) return null;
  return {
    symbol: trade.symbol, address: address.toLowerCase(), side: trade.side === 1 ? 'buy' : 'sell',
    notional: trade.price * trade.size, price: trade.price, tsMs: trade.tsMs,
  };
}

function zeroByCategory(): Record<WalletCategory, number> {
  const out = {} as Record<WalletCategory, number>;
  for (const category of WALLET_CATEGORIES) out[category] = 0;
  return out;
}

/** whales: newest first (then largest), at most whalesMax; trades of other symbols ignored. */
export function buildPairPositioning(symbol: string, wallets: readonly WalletRecord[],
  recentWhaleTrades: readonly WhaleTrade[], whalesMax = 50): PairPositioning {
  const whales = recentWhaleTrades.filter((t) => t.symbol === symbol)
    .sort((a, b) => b.tsMs - a.tsMs || b.notional - a.notional ||
      (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
    .slice(0, whalesMax)
    .map((t) => ({
      address: t.address, side: t.side, notional: t.notional, price: t.price,
      time: new Date(t.tsMs).toISOString(),
    }));
  const long = zeroByCategory();
  const short = zeroByCategory();
  let net = 0;
  for (const wallet of wallets) {
    for (const p of wallet.state?.positions ?? []) {
      if (p.symbol !== symbol || p.size === 0) continue;
      const notional = Math.abs(p.positionValue);
      if (p.size > 0) long[wallet.category] += notional;
      else short[wallet.category] += notional;
      net += p.size > 0 ? notional : -notional;
    }
  }
  return { whales, smartMoney: { long, short, net } };
}

/** A pair's `smartMoney` JSON when no wallet holds it (every category zero). */
export const emptySmartMoneyJson = JSON.stringify(buildPairPositioning('', [], []).smartMoney);
