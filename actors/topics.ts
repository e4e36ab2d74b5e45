// Topic and address strings: the only place actor message names and view names are spelled.
import { protocolTypes } from './shard/protocol.js';

/** Messages the supervisor sends to a shard (threaded actor handler names). */
export const shardTopics = Object.freeze({
  ping: 'ping',
  setPairs: 'setPairs',
  stop: 'stop',
  crash: 'crash',
} as const);

/**
 * The type tags of what a shard sends the main thread. They travel on its hand-over port, not
 * comedy's bus: the messages are in actors/shard/protocol.ts.
 */
export const supervisorTopics = Object.freeze({
  publish: protocolTypes.publish,
  history: protocolTypes.history,
  backfill: protocolTypes.backfill,
  pairStates: protocolTypes.pairStates,
} as const);

/** Messages a shard sends to one of its pair actors. */
export const pairTopics = Object.freeze({
  drain: 'drain',
  publish: 'publish',
  reset: 'reset',
  /** Publish, then the pair's saved state taken in the same step (pair-state.ts). */
  publishAndSave: 'publishAndSave',
  restore: 'restore',
} as const);

/** The comedy actor name of a pair actor. */
export function pairActorName(symbol: string): string {
  return `pair:${symbol}`;
}

/** The comedy actor name of a shard. */
export function shardActorName(shardId: number): string {
  return `shard-${shardId}`;
}

export const PAIR_VIEW_KINDS = ['pair', 'deep-view', 'cvd'] as const;
export type PairViewKind = (typeof PAIR_VIEW_KINDS)[number];
export const GLOBAL_VIEWS = [
  'screener', 'signals', 'smart-money', 'funding-arb', 'wallets',
] as const;

/** The snapshot-store name of a per-symbol view, e.g. `deep-view/BTC`. */
export function viewName(kind: string, symbol: string): string {
  return `${kind}/${symbol}`;
}
