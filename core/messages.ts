// The one message vocabulary: market events, actor messages and the records the store, the
// HTTP front and the webhook supervisor share. Every type is readonly and tagged on `type`.

/** Venue names as they appear on the wire, in config and in logs (docs/decisions.md). */
export const VENUES = ['home', 'exchange_b', 'exchange_c', 'exchange_d', 'exchange_e'] as const;
export type Venue = (typeof VENUES)[number];

/** Plans in ascending order; Free = Trial = Starter and Whale = API in surface. */
export const PLANS = ['Free', 'Trial', 'Starter', 'Trader', 'Pro', 'Whale', 'API'] as const;
export type Plan = (typeof PLANS)[number];

export const GRADES = ['A+', 'A', 'B', 'C', 'D'] as const;
export type Grade = (typeof GRADES)[number];
export const TIMEFRAMES = ['5m', '15m', '1h'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
export const REGIMES = ['trending', 'ranging', 'volatile', 'squeeze'] as const;
export type Regime = (typeof REGIMES)[number];
export const VPIN_LEVELS = ['safe', 'elevated', 'high', 'extreme'] as const;
export type VpinLevel = (typeof VPIN_LEVELS)[number];
export const DIRECTIONS = ['LONG', 'SHORT', 'NEUTRAL'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const WALLET_CATEGORIES = [
  'fund', 'smart_money', 'directional_whale', 'market_maker', 'degen', 'insider',
] as const;
export type WalletCategory = (typeof WALLET_CATEGORIES)[number];

// ---------------------------------------------------------------------------------------------
// Normalized market events: what adapters emit, what `record` writes (one JSON per line) and
// what `replay` reads. Times are the venue's own (market time), epoch milliseconds.

/** One trade print. side: aggressor, +1 buy (taker bought), -1 sell. */
export interface TradeEvent {
  readonly type: 'trade';
  readonly symbol: string;
  readonly tsMs: number;
  readonly price: number;
  /** Base units, > 0. */
  readonly size: number;
  readonly side: 1 | -1;
  readonly tradeId: string;
  readonly buyer: string | null;
  readonly seller: string | null;
}

/** A book snapshot of the top levels, best first, flat [px0, sz0, px1, sz1, ...]. */
export interface BookEvent {
  readonly type: 'book';
  readonly symbol: string;
  readonly tsMs: number;
  readonly bids: readonly number[];
  readonly asks: readonly number[];
}

/** Per-asset context: mark, 24h figures, open interest (base units) and funding (raw hourly). */
export interface AssetCtx {
  readonly markPx: number;
  readonly prevDayPx: number;
  readonly dayNtlVlm: number;
  readonly openInterest: number;
  readonly fundingRate: number;
  readonly oraclePx: number | null;
  readonly midPx: number | null;
}

export interface AssetCtxEvent extends AssetCtx {
  readonly type: 'ctx';
  readonly symbol: string;
  readonly tsMs: number;
  /**
   * True when the live feed passes it on while the pair's backfill is still to come: it sets
   * the pair's numbers but opens no history minute (the older candles make theirs first), and
   * the feed hands it on again, without the flag, after the candles, among the held trades.
   */
  readonly beforeFill?: true;
}

/** One listed perpetual of the venue metadata (main dex or a builder dex). */
export interface MarketMeta {
  /** Plain ticker on the main dex, `<dex>:<ticker>` on a builder dex. */
  readonly symbol: string;
  /** '' for the main dex. */
  readonly dex: string;
  readonly szDecimals: number;
  readonly maxLeverage: number;
  readonly isDelisted: boolean;
  readonly onlyIsolated: boolean;
}

/** The whole listed universe with each market's context, as `metaAndAssetCtxs` gives it. */
export interface UniverseEvent {
  readonly type: 'universe';
  readonly tsMs: number;
  readonly markets: readonly (MarketMeta & { readonly ctx: AssetCtx })[];
}

/** Funding of one pair on the venues that list it. rate: raw rate per settlement interval. */
export interface VenueFunding {
  readonly venue: Venue;
  readonly rate: number;
  readonly intervalHours: number;
}
export interface FundingEvent {
  readonly type: 'funding';
  readonly tsMs: number;
  readonly symbol: string;
  readonly venues: readonly VenueFunding[];
}

/** The feed of a pair had a gap (disconnect, sequence break): reset its kernels. */
export interface GapEvent {
  readonly type: 'gap';
  readonly symbol: string;
  readonly tsMs: number;
  readonly reason: string;
}

/**
 * One OHLCV candle where no trades are at hand: the simulator's warm-up and the live venue's
 * backfill (candleSnapshot). `tsMs` is the open time; volume in base units.
 */
export interface CandleEvent {
  readonly type: 'candle';
  readonly symbol: string;
  readonly tsMs: number;
  readonly intervalMs: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

/** What an object built from the kernels rests on: candles only, candles and trades, trades. */
export type Basis = 'candles' | 'mixed' | 'trades';

/** One open position of a wallet. size is signed base units (+ long, - short). */
export interface WalletPosition {
  readonly symbol: string;
  readonly size: number;
  readonly entryPx: number;
  readonly leverage: number;
  readonly leverageType: 'cross' | 'isolated';
  readonly positionValue: number;
  readonly unrealizedPnl: number;
  readonly liquidationPx: number | null;
  readonly marginUsed: number;
}

/** A wallet's account state, as `clearinghouseState` gives it. */
export interface WalletStateEvent {
  readonly type: 'wallet';
  readonly tsMs: number;
  readonly address: string;
  readonly accountValue: number;
  readonly positions: readonly WalletPosition[];
}

export type MarketEvent =
  | TradeEvent
  | BookEvent
  | AssetCtxEvent
  | UniverseEvent
  | FundingEvent
  | GapEvent
  | CandleEvent
  | WalletStateEvent;

// ---------------------------------------------------------------------------------------------
// Views: what a shard publishes for each changed pair once per cadence. The views are already
// serialized JSON bytes so the HTTP front stores bytes and never builds JSON per request.

/** The numbers of a tracked pair that cross-pair views (screener, signals, MCP) need. */
export interface PairSummary {
  readonly symbol: string;
  readonly price: number | null;
  readonly vpin: number | null;
  readonly vpinLevel: VpinLevel | null;
  readonly cvd: number | null;
  readonly obi: number | null;
  readonly ofi: number | null;
  readonly kyleLambda: number | null;
  readonly score: number | null;
  readonly direction: Direction;
  readonly regime: Regime | null;
  readonly stale: boolean;
  readonly asOfMs: number;
  /** What the pair's windows were filled from (docs/decisions.md, Warm start). */
  readonly basis: Basis;
}

export interface PairViews {
  readonly symbol: string;
  /** Increases on every publish of this pair; part of the ETag. */
  readonly version: number;
  /** Market time of the newest event folded in. */
  readonly updatedAtMs: number;
  readonly summary: PairSummary;
  /** JSON bytes keyed by view name ('deep-view', 'cvd', ...). */
  readonly views: Readonly<Record<string, Uint8Array>>;
  /** Each view's strong ETag (core/etag.ts), hashed in the shard: not on the main thread. */
  readonly etags?: Readonly<Record<string, string>>;
}

// ---------------------------------------------------------------------------------------------
// Records shared by the store, the HTTP front and the admin command line.

export interface KeyRecord {
  /** `ofk_` + first 8 hex of the key: what listings show and the burst guard keys on. */
  readonly prefix: string;
  /** SHA-256 of the whole key, lower-case hex. The key itself is never stored. */
  readonly digest: string;
  readonly plan: Plan;
  readonly label: string | null;
  /** Epoch ms of the subscription start (Whale grandfathering), or null. */
  readonly subscriptionStartMs: number | null;
  readonly createdAtMs: number;
  readonly revokedAtMs: number | null;
  /**
   * Set on a dashboard session's key: the account (`acc_...`) whose one daily quota and burst
   * windows every session key of that account shares. Absent on every other key.
   */
  readonly sessionAccountId?: string;
}

/** Read side of the key table, as the HTTP front sees it (kept current within 1 s). */
export interface KeyDirectory {
  byDigest(digest: string): KeyRecord | undefined;
  byPrefix(prefix: string): KeyRecord | undefined;
}

/**
 * Daily usage counters in memory, written behind to the store. identity: `key:<prefix>`,
 * `account:<id>` (its dashboard sessions' keys together) or `ip:<address>`; dayKey: the
 * Europe/Rome calendar day, `YYYY-MM-DD`.
 */
export interface UsageCounters {
  get(identity: string, dayKey: string): number;
  /** Adds one and returns the new count. */
  increment(identity: string, dayKey: string): number;
}

/** One closed OHLCV bar with its flow, as the bars kernel produces it. Notional in USD. */
export interface Bar {
  readonly symbol: string;
  readonly timeframe: Timeframe;
  /** Bar open time, epoch ms, aligned to the timeframe in UTC. */
  readonly openMs: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** Base units traded. */
  readonly volume: number;
  readonly buyNotional: number;
  readonly sellNotional: number;
  /** CVD (USD) at the bar's close. */
  readonly cvdClose: number;
  readonly trades: number;
}

// ---------------------------------------------------------------------------------------------
// Shard -> supervisor.

/** A large print with the addresses it names, for wallet discovery. */
export interface WhalePrint {
  readonly symbol: string;
  readonly tsMs: number;
  readonly price: number;
  readonly notional: number;
  readonly side: 1 | -1;
  readonly buyer: string | null;
  readonly seller: string | null;
}

/** Something a pair actor detected that leaves the shard: an entry signal or an alert firing. */
export interface PairOutbound {
  readonly kind: 'entry_signal' | 'alert' | 'bar' | 'footprint';
  readonly symbol: string;
  readonly tsMs: number;
  readonly data: Readonly<Record<string, unknown>>;
}

