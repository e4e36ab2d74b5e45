// The main thread's side of history: the shards' closed 1-minute points into the store (in
// batches, rolled up to hours after each commit), and the background trim to retention.
import type { RootDatabase } from 'lmdb';
import type { Clock } from '../../core/clock.js';
import type { ShardHistory } from '../shard/protocol.js';
import type { Logger } from '../../core/logger.js';
import { openHistoryStore, type HistoryStore } from '../../persistence/history.js';

const dayMs = 86_400_000;

export interface HistoryRecorderOptions {
  readonly minuteRetentionDays: number;
  readonly hourRetentionDays: number;
}

export class HistoryRecorder {
  readonly store: HistoryStore;
  /** 1-minute points handed to the store since start (metrics). */
  pointsWritten = 0;

  constructor(root: RootDatabase, options: HistoryRecorderOptions, private readonly clock: Clock,
    private readonly logger: Logger) {
    this.store = openHistoryStore(root, {
      minuteRetentionMs: options.minuteRetentionDays * dayMs,
      hourRetentionMs: options.hourRetentionDays * dayMs,
    });
  }

  onHistory(message: ShardHistory): void {
    try {
      this.store.add(message.points);
      this.pointsWritten += message.points.length;
    } catch (error) {
      // A malformed point is dropped with its batch; the minutes stay a gap.
      this.logger.error('history points dropped', { shardId: message.shardId,
        error: (error as Error).message });
    }
  }

  /** Trims both tables to their retention in market time (the service clock before any). */
  async prune(): Promise<number> {
    await this.store.flush();
    return this.store.prune(this.store.newestMs() ?? this.clock.nowMs());
  }

  close(): Promise<void> {
    return this.store.flush();
  }
}
