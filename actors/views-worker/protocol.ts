// Every message between the main thread and the views worker (the cross-pair views: screener,
// pair details, signals, funding arbitrage, and the wallet views: smart money, wallets, each
// wallet, each tracked pair's smart-money split and liquidation map), as one discriminated union
// on `type` per direction. The main thread sends the inputs those views read (the universe, the
// tracked pairs, each publish's pair summaries and whale prints, the venues' funding, the
// wallets' states); the worker answers with finished bytes and their ETags, which the main
// thread only swaps into its store. Frames are stamped and
// dispatched as the shard protocol's are (actors/shard/protocol.ts): one table per side, a kind
// without a handler fails to compile.
import type { LogLevel } from '../../core/logger.js';
import type {
  FundingEvent, PairSummary, UniverseEvent, WalletStateEvent, WhalePrint,
} from '../../core/messages.js';
import type { ScreenerRow } from '../views/pair-detail.js';

/** The type tags, spelled once. */
export const viewsTypes = Object.freeze({
  universe: 'viewsUniverse',
  tracked: 'viewsTracked',
  pairs: 'viewsPairs',
  refresh: 'viewsRefresh',
  funding: 'viewsFunding',
  refreshFunding: 'viewsRefreshFunding',
  put: 'viewsPut',
  rows: 'viewsRows',
  refreshed: 'viewsRefreshed',
  walletInputs: 'viewsWalletInputs',
  refreshWallets: 'viewsRefreshWallets',
  pollDue: 'viewsPollDue',
  pollFailed: 'viewsPollFailed',
  wallets: 'viewsWallets',
  smartMoney: 'viewsSmartMoney',
  pollDueAnswer: 'viewsPollDueAnswer',
} as const);

/** What the worker is started with (workerData.params). */
export interface ViewsWorkerParams {
  readonly cadenceMs: number;
  readonly universeCadenceMs: number;
  /** The funding-arbitrage view's cadence (its cadenceMs field and header). */
  readonly fundingCadenceMs: number;
  /** The wallet views' cadence (their cadenceMs field and header). */
  readonly walletCadenceMs: number;
  readonly logLevel: LogLevel;
  /** Nice increment of the worker's thread over the main thread's (core/thread-priority.ts). */
  readonly workerNice?: number;
}

// ---- Main thread -> views worker ----

/** A new universe (venue metadata and contexts of every listed market). */
export interface ViewsUniverse {
  readonly type: typeof viewsTypes.universe;
  readonly event: UniverseEvent;
}

/** The tracked pairs changed (a re-rank). */
export interface ViewsTracked {
  readonly type: typeof viewsTypes.tracked;
  readonly symbols: readonly string[];
}

/** One tracked pair's newest summary, as a shard published it (its view bytes stay behind). */
export interface PairSummaryUpdate {
  readonly symbol: string;
  readonly summary: PairSummary;
  readonly updatedAtMs: number;
  /** Wall time the main thread applied the publish: a pair silent for 3 cadences is stale. */
  readonly wallNowMs: number;
}

/** The pairs of one shard publish (or, after a restart, every tracked pair's last one). */
export interface ViewsPairs {
  readonly type: typeof viewsTypes.pairs;
  readonly pairs: readonly PairSummaryUpdate[];
}

/** The cadence: rebuild screener, pair details and signals; answered by `ViewsRefreshed`. */
export interface ViewsRefresh {
  readonly type: typeof viewsTypes.refresh;
  readonly id: number;
  readonly wallNowMs: number;
}

/** The newest funding of some symbols (or, after a restart, of every symbol kept). */
export interface ViewsFunding {
  readonly type: typeof viewsTypes.funding;
  readonly events: readonly FundingEvent[];
}

/** Rebuild the funding-arbitrage view from the funding and screener rows; answered likewise. */
export interface ViewsRefreshFunding {
  readonly type: typeof viewsTypes.refreshFunding;
  readonly id: number;
}

/** Wallet states (polled or simulated) and whale prints, in the order they came. */
export interface ViewsWalletInputs {
  readonly type: typeof viewsTypes.walletInputs;
  readonly states: readonly WalletStateEvent[];
  readonly prints: readonly WhalePrint[];
}

/**
 * Rebuild the wallet views as of `nowMs` (market time) for the tracked pairs; answered by
 * `ViewsSmartMoney`, then `ViewsRefreshed` once every view it changed was put.
 */
export interface ViewsRefreshWallets {
  readonly type: typeof viewsTypes.refreshWallets;
  readonly id: number;
  readonly nowMs: number;
  readonly tracked: readonly string[];
}

/** The live poller asks which wallets to poll now (poll clock); answered with their addresses. */
export interface ViewsPollDue {
  readonly type: typeof viewsTypes.pollDue;
  readonly id: number;
  readonly nowMs: number;
  readonly max: number;
}

/** A poll that failed or found nothing: the tracker backs the wallet off. */
export interface ViewsPollFailed {
  readonly type: typeof viewsTypes.pollFailed;
  readonly address: string;
  readonly nowMs: number;
}

export type MainToViews = ViewsUniverse | ViewsTracked | ViewsPairs | ViewsRefresh | ViewsFunding |
  ViewsRefreshFunding | ViewsWalletInputs | ViewsRefreshWallets | ViewsPollDue | ViewsPollFailed;

// ---- Views worker -> main thread ----

/** One finished view: the bytes (moved, not copied) and what the store needs besides. */
export interface FinishedView {
  readonly name: string;
  readonly body: Uint8Array;
  /** Strong ETag of `body` (core/etag.ts), hashed in the worker. */
  readonly etag: string;
  readonly updatedAtMs: number;
  readonly cadenceMs: number;
  /**
   * The producer's own version, stored as given (the wallet views number every put, as they did
   * on the main thread); absent, the main thread counts the view's changes itself.
   */
  readonly version?: number;
}

/** Views whose bytes changed, in the order they were built, their bytes in one moved buffer. */
export interface ViewsPut {
  readonly type: typeof viewsTypes.put;
  readonly views: readonly FinishedView[];
}

/**
 * The screener's rows (the signal pipeline's screener alerts and funding read them) and the
 * pairs in the signals view (readiness waits for each tracked pair there).
 */
export interface ViewsRows {
  readonly type: typeof viewsTypes.rows;
  readonly rows: readonly ScreenerRow[];
  readonly signalsSymbols: readonly string[];
}

/** The refresh (or funding refresh) `id` is done: every view it changed was put before this. */
export interface ViewsRefreshed {
  readonly type: typeof viewsTypes.refreshed;
  readonly id: number;
}

/** One wallet's published view: its bytes are `bodies[start, end)` of its message. */
export interface PublishedWalletView {
  readonly address: string;
  readonly etag: string;
  readonly version: number;
  readonly updatedAtMs: number;
  readonly cadenceMs: number;
  readonly start: number;
  readonly end: number;
}

/**
 * Wallets' views published since the last message, their bytes in one buffer (moved): a few
 * hundred a message, so the main thread reads each in a short turn. `dropped`: the wallets no
 * longer tracked (in the last message of a batch).
 */
export interface ViewsWallets {
  readonly type: typeof viewsTypes.wallets;
  readonly published: readonly PublishedWalletView[];
  readonly bodies: Uint8Array;
  readonly dropped: readonly string[];
}

/** Each tracked pair's `"smartMoney"` JSON after a wallet refresh (the shards splice it). */
export interface ViewsSmartMoney {
  readonly type: typeof viewsTypes.smartMoney;
  readonly bySymbol: Readonly<Record<string, string>>;
}

/** The wallets to poll now, marked in flight in the tracker. */
export interface ViewsPollDueAnswer {
  readonly type: typeof viewsTypes.pollDueAnswer;
  readonly id: number;
  readonly addresses: readonly string[];
}

export type ViewsToMain = ViewsPut | ViewsRows | ViewsRefreshed | ViewsWallets | ViewsSmartMoney |
  ViewsPollDueAnswer;
