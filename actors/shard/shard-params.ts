// What a shard is created with: plain data, because it crosses into a worker thread.
import type { AssetCtx } from '../../core/messages.js';
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
  /** Nice increment of the shard's thread over the main thread's (core/thread-priority.ts). */
  readonly workerNice?: number;
  /**
   * Wall time (epoch ms) at which the feed's market clock read `startMs`: a shard that starts
   * (or restarts) later catches up, so every shard and the universe share one market time.
   */
  readonly feedAnchorWallMs: number;
  /** The process-wide venue request budget (live feed), shared with every worker; else null. */
  readonly budgetBuffer: SharedArrayBuffer | null;
  /** Pair states are saved this often (wall time) and at stop; 0: never (pair-state.ts). */
  readonly stateSaveEveryMs?: number;
  /** Saved states of `symbols` to restore before their first publish (a restarted shard). */
  readonly states?: Readonly<Record<string, Uint8Array>>;
  /** Test hook: the shard's stop blocks its thread and never finishes (docs/operations.md). */
  readonly hangOnStop?: boolean;
  /** Every shard's progress and market time (actors/runtime/shard-board.ts). */
  readonly boardBuffer?: SharedArrayBuffer;
  /** Every shard's metrics (actors/shard/shard-meters.ts); none: the shard counts nothing. */
  readonly metersBuffer?: SharedArrayBuffer;
  /** Test hook, with allowCrash: the shard with this id exits right after every start. */
  readonly crashAtStartShardId?: number;
  /** The universe's context of `symbols` (live backfill: VPIN's V before any ctx event). */
  readonly contexts?: Readonly<Record<string, AssetCtx>>;
}

export type EncodedFeedSpec =
  | (Omit<Extract<FeedSpec, { kind: 'sim' }>, 'speed'> & { speed: number | 'max' })
  | (Omit<Extract<FeedSpec, { kind: 'replay' }>, 'speed'> & { speed: number | 'max' })
  | Extract<FeedSpec, { kind: 'live' }>;

export function encodeFeedSpec(spec: FeedSpec): EncodedFeedSpec {
  if (spec.kind === 'live') return spec;
  return { ...spec, speed: Number.isFinite(spec.speed) ? spec.speed : 'max' } as EncodedFeedSpec;
}

/**
 * `pacedMs`: the market time the shards reached (NaN: none yet), where a restarted simulator
 * resumes; market time is paced to what the shards absorb, so the anchor's reckoning runs ahead.
 */
export function decodeFeedSpec(spec: EncodedFeedSpec, anchorWallMs: number, wallNowMs: number,
  pacedMs = NaN): FeedSpec {
  if (spec.kind === 'live') return spec;
  const speed = spec.speed === 'max' ? Infinity : spec.speed;
  if (spec.kind === 'sim' && pacedMs > 0) return { ...spec, speed, startMs: pacedMs };
  if (spec.kind === 'sim' && Number.isFinite(speed)) {
    // The simulator's market time runs from the anchor, not from this worker's start.
    const lateMs = Math.max(0, wallNowMs - anchorWallMs);
    return { ...spec, speed, startMs: spec.startMs + lateMs * speed };
  }
  return { ...spec, speed } as FeedSpec;
}
