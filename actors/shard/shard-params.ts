// What a shard is created with: plain data, because it crosses into a worker thread.
import type { FeedSpec } from '../feed/pair-feed.js';

export interface ShardParams {
  readonly shardId: number;
  /** Increases on every restart of this shard, so stale publishes can be told apart. */
  readonly generation: number;
  readonly symbols: readonly string[];
  /** The feed; a speed of Infinity travels as the string 'max' (see encodeFeedSpec). */
  readonly feed: EncodedFeedSpec;
  readonly cadenceMs: number;
  readonly mailboxCapacity: number;
  /** Lets tests crash the shard on purpose (the `crash` topic); off in production. */
  readonly allowCrash: boolean;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  readonly chartBaseUrl: string;
  /** The process-wide venue request budget (live feed), shared with every worker; else null. */
  readonly budgetBuffer: SharedArrayBuffer | null;
}

export type EncodedFeedSpec =
  | (Omit<Extract<FeedSpec, { kind: 'sim' }>, 'speed'> & { speed: number | 'max' })
  | (Omit<Extract<FeedSpec, { kind: 'replay' }>, 'speed'> & { speed: number | 'max' })
  | Extract<FeedSpec, { kind: 'live' }>;

export function encodeFeedSpec(spec: FeedSpec): EncodedFeedSpec {
  if (spec.kind === 'live') return spec;
  return { ...spec, speed: Number.isFinite(spec.speed) ? spec.speed : 'max' } as EncodedFeedSpec;
}

export function decodeFeedSpec(spec: EncodedFeedSpec): FeedSpec {
  if (spec.kind === 'live') return spec;
  return { ...spec, speed: spec.speed === 'max' ? Infinity : spec.speed } as FeedSpec;
}
