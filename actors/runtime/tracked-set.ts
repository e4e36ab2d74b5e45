// The tracked set and its assignment to shards: re-ranked hourly in market time with hysteresis,
// each pair kept on its shard while it stays tracked (docs/decisions.md "Feeds and freshness").
import { limits } from '../../core/config.js';
import type { UniverseEvent } from '../../core/messages.js';
import { rankTracked } from '../universe/tracked.js';
import { assignShards, symbolsOfShard } from '../universe/assign.js';

/** Re-rank the tracked set this often, in market time (docs/decisions.md: hourly). */
export const rerankEveryMs = 3_600_000;

export class TrackedSet {
  private symbolsNow: string[] = [];
  private rankedAtMs = -Infinity;
  private assignment = new Map<string, number>();

  constructor(private readonly shardCount: number) {}

  get symbols(): readonly string[] {
    return this.symbolsNow;
  }

  /** Per shard, the symbols it owns. */
  perShard(): string[][] {
    return Array.from({ length: this.shardCount }, (_, i) => symbolsOfShard(this.assignment, i));
  }

  /** Re-ranks when an hour of market time has passed (or nothing is tracked); true if it did. */
  rerank(event: UniverseEvent): boolean {
    if (event.tsMs - this.rankedAtMs < rerankEveryMs && this.symbolsNow.length > 0) return false;
    this.rankedAtMs = event.tsMs;
    this.symbolsNow = rankTracked(event.markets, new Set(this.symbolsNow),
      limits.trackedPairsMax, limits.trackedRankExitMax);
    this.assignment = assignShards(this.symbolsNow, this.shardCount, this.assignment);
    return true;
  }
}
