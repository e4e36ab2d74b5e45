// Every message between a shard (worker thread) and the main thread, as one discriminated union
// on `type` per direction, with the protocol's version. Data travels on one transport: the
// shard's hand-over port (a MessageChannel of its own), whose transfer lists move view and state
// bytes instead of copying them. comedy's bus keeps lifecycle and supervision only: start,
// setPairs, ping, crash and a portless stop are requests to the shard actor's methods
// (actors/topics.ts), not messages of this protocol.
//
// Each side receives through one table, kind -> handler (`ProtocolHandlers`): a kind without a
// handler fails to compile, and a frame of another version or an unknown kind is refused with a
// logged error (`dispatchFrame`).
import type { MessagePort } from 'node:worker_threads';
import type { Logger } from '../../core/logger.js';
import type { PairOutbound, PairViews, WhalePrint } from '../../core/messages.js';
import type { HistoryPoint } from '../../core/history-point.js';
import type { BackfillReport } from '../feed/home/backfill-rounds.js';

/** Bump when a message changes shape or meaning: both sides come from one build today. */
export const PROTOCOL_VERSION = 1;

/** The type tags, spelled once (actors/topics.ts names the shard -> main ones for the bus). */
export const protocolTypes = Object.freeze({
  publish: 'shardPublish',
  history: 'shardHistory',
  backfill: 'shardBackfill',
  pairStates: 'shardPairStates',
  pastHeld: 'shardPastHeld',
  past: 'shardPast',
  stopped: 'orderflow-shard-stopped',
  handover: 'orderflow-handover-port',
  pastPull: 'orderflow-past-pull',
  stop: 'orderflow-shard-stop',
  smartMoney: 'orderflow-smart-money',
} as const);

// ---- Shard -> main thread, on the hand-over port ----

/** Once per cadence: every changed pair's views, plus what was detected since the last one. */
export interface ShardPublish {
  readonly type: typeof protocolTypes.publish;
  readonly shardId: number;
  readonly generation: number;
  readonly pairs: readonly PairViews[];
  readonly whalePrints: readonly WhalePrint[];
  readonly outbound: readonly PairOutbound[];
  /** Events dropped by full mailboxes since the shard started. */
  readonly droppedEvents: number;
}

/** The 1-minute history points pairs closed, apart from the views (core/history-point.ts). */
export interface ShardHistory {
  readonly type: typeof protocolTypes.history;
  readonly shardId: number;
  readonly generation: number;
  readonly points: readonly HistoryPoint[];
}

/** One pair's live backfill state (actors/runtime/backfill-status.ts). */
export interface ShardBackfill {
  readonly type: typeof protocolTypes.backfill;
  readonly shardId: number;
  readonly generation: number;
  readonly report: BackfillReport;
}

/** Saved pair states (every period and at a stop), to be written to the store (pair-state.ts). */
export interface ShardPairStates {
  readonly type: typeof protocolTypes.pairStates;
  readonly shardId: number;
  readonly generation: number;
  readonly states: readonly { readonly symbol: string; readonly bytes: Uint8Array }[];
}

/** What a shard holds for the main thread to pull (past-queue.ts). */
export type PastMessage = ShardPublish | ShardHistory | ShardPairStates;

/** Past messages are held; pull them with `pastPullMessage`. */
export interface ShardPastHeld {
  readonly type: typeof protocolTypes.pastHeld;
  readonly shardId: number;
  readonly generation: number;
  /** Messages held. */
  readonly left: number;
}

/** The answer to a pull: the next held message (null: none held). */
export interface ShardPast {
  readonly type: typeof protocolTypes.past;
  readonly shardId: number;
  readonly generation: number;
  /** Messages still held after this one. */
  readonly left: number;
  readonly message: PastMessage | null;
}

/** The stop asked for on the port is done; the last message of a generation. */
export interface ShardStopped {
  readonly type: typeof protocolTypes.stopped;
  readonly shardId: number;
  /** Messages it still holds for the main thread to pull. */
  readonly held: number;
}

export type ShardToMain = ShardPublish | ShardHistory | ShardBackfill | ShardPairStates |
  ShardPastHeld | ShardPast | ShardStopped;

// ---- Main thread -> shard ----

/**
 * Carries the port, on the worker's own port beside comedy's traffic: comedy's listener skips a
 * message with an id, a type it does not handle and an actor id that is not its own, silently.
 */
export interface HandoverPortMessage {
  readonly id: typeof protocolTypes.handover;
  readonly type: typeof protocolTypes.handover;
  readonly actorId: typeof protocolTypes.handover;
  readonly v: number;
  readonly port: MessagePort;
}

/**
 * Send the next held message, or all of them (at a stop: the port is fast, comedy's bus, which
 * the stop itself went over before, is not).
 */
export interface PastPull {
  readonly type: typeof protocolTypes.pastPull;
  readonly all: boolean;
}

/**
 * Stop: make the last publish with every pair's state, then say `ShardStopped`. On the port, not
 * comedy's bus: the bus copies each saved state and settles it through promise hops on the main
 * thread, and the last message on the port comes after everything sent before it.
 */
export interface ShardStopRequest {
  readonly type: typeof protocolTypes.stop;
}

/**
 * Each pair's smart-money split as JSON, made from the wallets on the main thread after each
 * refresh: the shard closes the pair's deep view with it (the empty split until one came).
 */
export interface SmartMoneySplits {
  readonly type: typeof protocolTypes.smartMoney;
  readonly bySymbol: Readonly<Record<string, string>>;
}

/** What the main thread sends on the hand-over port (the port itself arrives before it). */
export type MainToShard = PastPull | ShardStopRequest | SmartMoneySplits;

export const pastPullMessage: PastPull =
  Object.freeze({ type: protocolTypes.pastPull, all: false });
export const pastPullAllMessage: PastPull =
  Object.freeze({ type: protocolTypes.pastPull, all: true });
export const shardStopRequest: ShardStopRequest = Object.freeze({ type: protocolTypes.stop });

export function handoverPortMessage(port: MessagePort): HandoverPortMessage {
  const tag = protocolTypes.handover;
  return { id: tag, type: tag, actorId: tag, v: PROTOCOL_VERSION, port };
}

export function isHandoverPortMessage(message: unknown): message is HandoverPortMessage {
  return typeof message === 'object' && message !== null &&
    (message as { type?: unknown }).type === protocolTypes.handover &&
    typeof (message as { port?: { postMessage?: unknown } }).port?.postMessage === 'function';
}

export function isPastPull(message: unknown): message is PastPull {
  return typeof message === 'object' && message !== null &&
    (message as { type?: unknown }).type === protocolTypes.pastPull;
}

/** Every kind a side receives, for checks at run time; a kind left out does not compile. */
export const shardToMainTypes = [protocolTypes.publish, protocolTypes.history,
  protocolTypes.backfill, protocolTypes.pairStates, protocolTypes.pastHeld, protocolTypes.past,
  protocolTypes.stopped] as const satisfies readonly ShardToMain['type'][];
export const mainToShardTypes = [protocolTypes.pastPull, protocolTypes.stop,
  protocolTypes.smartMoney] as const satisfies
  readonly MainToShard['type'][];
type Unlisted<L extends readonly string[], U extends string> = Exclude<U, L[number]>;
export const everyKindListed: [Unlisted<typeof shardToMainTypes, ShardToMain['type']>,
  Unlisted<typeof mainToShardTypes, MainToShard['type']>] extends [never, never] ? true : never =
  true;

// ---- Frames and the dispatch tables ----

/** A message as it crosses the port: stamped with the sender's protocol version. */
export type Frame<M> = M & { readonly v: number };

/** One handler per kind of `M`: a kind left out is a compile error. */
export type ProtocolHandlers<M extends { readonly type: string }> = {
  readonly [K in M['type']]: (message: Extract<M, { readonly type: K }>) => void;
};

/** Posts `message` stamped with this build's version; `transfer` moves its buffers. */
export function postFrame<M extends { readonly type: string }>(port: MessagePort, message: M,
  transfer: readonly ArrayBuffer[] = []): void {
  const frame: Frame<M> = { ...message, v: PROTOCOL_VERSION };
  port.postMessage(frame, transfer as ArrayBuffer[]);
}

/**
 * Hands a received frame to its handler. A frame of another version, not an object or of a kind
 * the table does not know is refused with a logged error, never thrown: the sender lives on.
 */
export function dispatchFrame<M extends { readonly type: string }>(
  table: ProtocolHandlers<M>, frame: unknown, log: Logger, from: string): boolean {
  const { type, v } = (typeof frame === 'object' && frame !== null ? frame : {}) as
    { type?: unknown; v?: unknown };
  const handler = typeof type === 'string' && Object.hasOwn(table, type)
    ? (table as Record<string, (message: unknown) => void>)[type] : undefined;
  if (v !== PROTOCOL_VERSION || handler === undefined) {
    log.error('protocol message refused', { from, type: String(type), version: String(v),
      expectedVersion: PROTOCOL_VERSION });
    return false;
  }
  handler(frame);
  return true;
}
