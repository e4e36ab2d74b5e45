// The feed vocabulary shared by every adapter (simulator, live venue, file replay).
import type { MarketEvent } from '../messages.js';

/** Which feed to run; `speed` is a multiple of real time, Infinity for "as fast as possible". */
export type FeedSpec =
  | { kind: 'sim'; seed: number; speed: number; startMs: number }
  | { kind: 'live'; wsUrl: string; infoUrl: string }
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
}

export type EventSink = (event: MarketEvent) => void;

/** The feed of one shard's pairs: trade, book, ctx and gap events for its symbols only. */
export interface PairFeed {
  start(sink: EventSink): void;
  /** The tracked set of this shard changed: follow it without a restart. */
  setSymbols(symbols: readonly string[]): void;
  stop(): Promise<void>;
  stats(): FeedStats;
}
