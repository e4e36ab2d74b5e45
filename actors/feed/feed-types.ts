// The feed vocabulary shared by every adapter (simulator, live venue, file replay).
import type { AssetCtx, MarketEvent } from '../../core/messages.js';

/**
 * Which feed to run; `speed` is a multiple of real time, Infinity for "as fast as possible".
 * A sim's `walletsTracked` (default 300) sizes its wallet population in every thread.
 */
export type FeedSpec =
  | { kind: 'sim'; seed: number; speed: number; startMs: number; walletsTracked?: number;
      /** Market time before startMs each tracked pair is warmed up over (0: none). */
      warmupMs?: number;
      /** Share of news that reaches prices only through informed flow (default 0.8; 0: null). */
      informedShare?: number;
      /** Where the world's price paths start from their references (default 2026-02-06). */
      anchorMs?: number }
  | { kind: 'live'; wsUrl: string; infoUrl: string;
      /** Backfill from the info endpoint at start and after gaps (absent: none). */
      backfill?: { lookbackMs: number; waitMs: number; retryDelaysMs?: readonly number[] } }
  | { kind: 'replay'; file: string; speed: number };

/** Counters a feed keeps; `dropped` is keyed by the reason (malformed, unknown_coin, ...). */
export interface FeedStats {
  readonly events: number;
  readonly eventsByType: Readonly<Record<string, number>>;
  readonly dropped: Readonly<Record<string, number>>;
  readonly reconnects: number;
  readonly connected: boolean;
  /** Market time of the newest event emitted, or null before the first. */
  readonly lastEventMs: number | null;
  /** Pairs whose warm-up (simulator) or backfill (live) is still running. */
  readonly warming?: number;
}

export type EventSink = (event: MarketEvent) => void;

/**
 * A trade's fields in a struct the feed reuses for every trade: valid only during the call that
 * hands it over, so a trade costs no object. `tradeId` is the id when it is a canonical integer
 * below 2^53 (the venue's tids), with `tradeIdText` null; otherwise `tradeId` is NaN and the
 * text is in `tradeIdText`.
 */
export interface TradeFields {
  tsMs: number;
  price: number;
  size: number;
  side: 1 | -1;
  tradeId: number;
  tradeIdText: string | null;
  buyer: string | null;
  seller: string | null;
}

/**
 * A book's levels in a struct the feed reuses for every book (valid only during the call that
 * hands it over): prices and sizes best first, `bidLevels` and `askLevels` of each filled.
 */
export interface BookFields {
  tsMs: number;
  readonly bidPx: Float64Array;
  readonly bidSz: Float64Array;
  readonly askPx: Float64Array;
  readonly askSz: Float64Array;
  bidLevels: number;
  askLevels: number;
}

/**
 * One pair's inbox as a feed sees it: trades and books as fields (the fast path), anything
 * else whole.
 */
export interface PairLane {
  /** Events queued and not yet applied, where the lane knows (a shard's mailbox does). */
  readonly length?: number;
  trade(t: TradeFields): void;
  book(b: BookFields): void;
  event(event: MarketEvent): void;
}

/**
 * A shard as a feed's sink: the lane of each tracked symbol, which a feed resolves once per
 * symbol and keeps until its next setSymbols (null: the shard does not hold the symbol).
 */
export interface IngestSink {
  lane(symbol: string): PairLane | null;
}

/** The feed of one shard's pairs: trade, book, ctx and gap events for its symbols only. */
export interface PairFeed {
  /** A function sink gets every event as an object; an IngestSink gets them per pair lane. */
  start(sink: EventSink | IngestSink): void;
  /** The tracked set of this shard changed: follow it without a restart. */
  setSymbols(symbols: readonly string[]): void;
  stop(): Promise<void>;
  stats(): FeedStats;
  /** True while the symbol's warm-up (simulator) runs: its views are not worth publishing. */
  isWarming?(symbol: string): boolean;
  /**
   * The symbol's pair was restored from state saved at market time `fromMs` (call before the
   * symbol joins): 'fill' when the feed generates or backfills the time from there on instead
   * of its usual warm-up (live: its backfill fills [fromMs, now) instead of the whole
   * lookback), 'gap' when it cannot (the pair keeps its state and sees a feed gap),
   * 'refuse' when the state is unusable here (ahead of the feed's market time): the pair starts
   * fresh. A feed without it (replay, which plays its tape from the start) restores nothing.
   */
  resumeFrom?(symbol: string, fromMs: number): ResumeAnswer;
  /**
   * The universe's context of a symbol (live): its backfill is ordered by the 24h notional
   * before the venue sent any ctx of its own (it may send it late, or never).
   */
  seedContext?(symbol: string, ctx: AssetCtx): void;
}

export type ResumeAnswer = 'fill' | 'gap' | 'refuse';
