// Shapes the positioning analytics share: tracked-wallet records and the view items built
// from them. All notionals are USD; all times are epoch milliseconds of market time.
import type { WalletCategory, WalletStateEvent } from '../../core/messages.js';

export type PositionSide = 'long' | 'short';

/** A wallet's figures at one instant, the inputs of the category rules (docs/positioning.md). */
export interface WalletMetrics {
  /** From the last polled state; null before the first poll. */
  readonly accountValue: number | null;
  /** Sum of |positionValue| over open positions (0 before the first poll). */
  readonly openNotional: number;
  /** openNotional / accountValue; null when the account value is unknown or not positive. */
  readonly effectiveLeverage: number | null;
  /** Highest leverage setting among open positions (0 with none). */
  readonly maxLeverage: number;
  /** Traded notional bought and sold, exponentially decayed (half-life in the tracker options). */
  readonly buyNotional: number;
  readonly sellNotional: number;
  /** min(buy, sell) / max(buy, sell), 0..1: 1 is perfectly two-sided flow. */
  readonly twoSidedness: number;
  /** (buy + sell) / accountValue; null when the account value is unknown or not positive. */
  readonly turnover: number | null;
  /** Trades seen, decayed like the notionals. */
  readonly tradeCount: number;
  /** Realized PnL estimated from position reductions between polls (USD, signed). */
  readonly realizedPnl: number;
  /** Large entries whose outcome is known, and those followed by a large favourable move. */
  readonly entriesEvaluated: number;
  readonly entriesPrescient: number;
}

/** A tracked wallet as the views read it: a snapshot, never mutated afterwards. */
export interface WalletRecord {
  readonly address: string;
  readonly label: string | null;
  readonly category: WalletCategory;
  /** Which rule decided the category, in words (or `label file`). */
  readonly categoryReason: string;
  readonly state: WalletStateEvent | null;
  readonly metrics: WalletMetrics;
  /** Decayed traded notional + open notional: what eviction and poll priority rank by. */
  readonly relevanceUsd: number;
  readonly firstSeenMs: number;
  readonly lastActiveMs: number;
}

/** Item of smart-money `positions`: exactly the fields of the spec. */
export interface WhalePosition {
  readonly address: string;
  readonly label: string | null;
  readonly category: WalletCategory;
  readonly accountValue: number;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly notional: number;
  readonly leverage: number;
  readonly entryPrice: number;
  readonly unrealizedPnl: number;
}

/** One open position inside a wallet view. */
export interface WalletPositionView {
  readonly symbol: string;
  readonly side: PositionSide;
  /** Base units, positive. */
  readonly size: number;
  readonly notional: number;
  readonly leverage: number;
  readonly leverageType: 'cross' | 'isolated';
  readonly entryPrice: number;
  readonly unrealizedPnl: number;
  /** The venue's liquidation price, or null when it reports none. */
  readonly liquidationPrice: number | null;
  readonly marginUsed: number;
}

export interface WalletView {
  readonly address: string;
  readonly label: string | null;
  readonly category: WalletCategory;
  readonly categoryReason: string;
  readonly accountValue: number;
  readonly positions: readonly WalletPositionView[];
  /** ISO 8601 UTC time of the account state shown. */
  readonly stateAt: string;
  readonly metrics: WalletMetrics;
}

/** A recent large print attributed to one wallet (the aggressor of the trade). */
export interface WhaleTrade {
  readonly symbol: string;
  readonly address: string;
  /** The aggressor's side: buy lifted the offer, sell hit the bid. */
  readonly side: 'buy' | 'sell';
  readonly notional: number;
  readonly price: number;
  readonly tsMs: number;
}
