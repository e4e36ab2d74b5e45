// Ingest's side of history on scale-out fronts (docs/scale-out.md, "History"): every batch of
// closed 1-minute points is appended to a Redis stream, trimmed to a bounded backlog, from which
// each front records the points into its own store; the stored signals are mirrored into a
// Redis hash, with a notice of the ids that changed. The fronts then answer the history and
// track-record endpoints from local data, with the same code and the same figures as ingest.
import type { HistoryPoint } from '../core/history-point.js';
import type { Logger } from '../core/logger.js';
import type { HistoryStore } from '../persistence/history.js';
import { redisNames, type RedisLink } from './redis-link.js';
import type { SignalRecord, StoredSignal } from '../persistence/signals.js';
import { storeEncoder } from '../persistence/table.js';
import { runSliced } from '../actors/runtime/sliced.js';
import { serveHistoryCopies } from './history-copy-server.js';

/** Batches held while Redis is away (one per shard publish with closed minutes). */
const waitingBatchesMax = 50_000;
/** The stored signals are compared with the mirror at this period (the outcome cadence). */
export const signalSyncEveryMs = 5_000;
/** Main-thread time a turn of a signal sync takes at most (plus one record). */
const syncSliceMs = 4;

/** How far a signal record has come: claimed, outcome scheduled, outcome done. */
function stageOf(record: SignalRecord): string {
  return `${record.claimedAtMs}:${record.outcome === null ? 0 : 1}:${record.outcomeDone ? 1 : 0}`;
}

export interface SignalList {
  list(): Iterable<SignalRecord<StoredSignal>>;
}

export class HistoryPublisher {
  private readonly packr = storeEncoder();
  private waiting: Buffer[] = [];
  /** signal_id -> stage last written to the mirror; cleared to resend everything. */
  private mirrored = new Map<string, string>();
  private resyncAll = true;
  private timer: NodeJS.Timeout | null = null;
  private dropped = 0;
  private stopCopies: (() => void) | null = null;
  private syncing: Promise<void> | null = null;
  private syncAgain = false;

  /** With `store`, it also answers the fronts' bulk copies of it (history-copy-server.ts). */
  constructor(private readonly link: RedisLink, private readonly signals: SignalList,
    private readonly backlogMs: number, private readonly logger: Logger,
    private readonly store: HistoryStore | null = null) {}

  start(): void {
    if (this.store !== null) this.stopCopies = serveHistoryCopies(this.link, this.store,
      this.logger);
    this.link.onReady(() => {
      this.resyncAll = true;
      void this.drain();
      void this.syncSignals();
    });
    this.timer = setInterval(() => void this.syncSignals(), signalSyncEveryMs);
    this.timer.unref();
  }

  /** Sends what is waiting (the last minutes and outcomes of a graceful stop). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopCopies?.();
    // After any sync under way, one more: every change made until now.
    await this.syncing;
    await this.syncSignals();
    await this.drain();
  }

  /** A shard's closed minutes, as the recorder got them. */
  points(points: readonly HistoryPoint[]): void {
    if (points.length === 0) return;
    if (this.waiting.length >= waitingBatchesMax) {
      this.waiting.shift();
      if (this.dropped++ === 0) {
        this.logger.warn('redis away too long: the fronts miss the oldest history points');
      }
    }
    this.waiting.push(this.packr.pack(points));
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (!this.link.ready() || this.waiting.length === 0) return;
    const batches = this.waiting;
    this.waiting = [];
    const { command } = this.link;
    // Entries older than the backlog go (MINID on Redis' own entry times, ~: whole macro nodes).
    const minId = String(Math.max(0, Date.now() - this.backlogMs));
    await Promise.all(batches.map((batch) =>
      command.xadd(redisNames.history, 'MINID', '~', minId, '*', 'p', batch).catch(() => {
        // Sent again with the next drain (a front files a late point where it belongs).
        this.waiting.push(batch);
      })));
  }

  /**
   * Writes the signal records that changed since the last sync (all after a reconnect). Read and
   * packed in slices over event-loop turns: the store keeps 180 days of records, and reading and
   * packing them all in one turn as Redis came back held the ingest's loop with the snapshots'
   * resend. One sync at a time; one asked for meanwhile runs after it. Settles when written.
   */
  syncSignals(): Promise<void> {
    if (this.syncing !== null) {
      this.syncAgain = true;
      return this.syncing;
    }
    this.syncing = runSliced(this.syncSteps(), syncSliceMs).catch((error: Error) => {
      this.logger.error('mirroring the signals to redis failed', { error: error.message,
        stack: error.stack });
    }).finally(() => {
      this.syncing = null;
      if (this.syncAgain) {
        this.syncAgain = false;
        void this.syncSignals();
      }
    });
    return this.syncing;
  }

  private *syncSteps(): Generator<unknown, void, undefined> {
    if (!this.link.ready()) return;
    // Claimed now: a reconnect during this sync asks for another whole one.
    const all = this.resyncAll;
    this.resyncAll = false;
    const seen = new Map<string, string>();
    const changed: [string, Buffer][] = [];
    for (const record of this.signals.list()) {
      const id = record.signal.signal_id;
      const stage = stageOf(record);
      seen.set(id, stage);
      if (all || this.mirrored.get(id) !== stage) changed.push([id, this.packr.pack(record)]);
      yield;
    }
    const removed = all ? [] : [...this.mirrored.keys()].filter((id) => !seen.has(id));
    if (!all && changed.length === 0 && removed.length === 0) return;
    if (!this.link.ready()) {
      this.resyncAll ||= all;
      return;
    }
    this.write(all, seen, changed, removed);
  }

  /** One transaction: the mirror's changes and their notice, atomic for the fronts. */
  private write(all: boolean, seen: Map<string, string>, changed: [string, Buffer][],
    removed: string[]): void {
    const tx = this.link.command.multi();
    if (all) tx.del(redisNames.signals);
    for (const [id, bytes] of changed) tx.hset(redisNames.signals, id, bytes);
    if (removed.length > 0) tx.hdel(redisNames.signals, ...removed);
    tx.publish(redisNames.signalsChannel,
      all ? '"*"' : JSON.stringify([...changed.map(([id]) => id), ...removed]));
    const before = this.mirrored;
    this.mirrored = seen;
    tx.exec().then((results) => {
      if (results?.some(([error]) => error !== null)) throw new Error('transaction refused');
    }).catch((error: Error) => {
      // Not written: the next sync compares against what was mirrored before.
      if (this.mirrored === seen) this.mirrored = before;
      this.resyncAll ||= all;
      this.logger.warn('mirroring the signals to redis failed; retrying',
        { error: error.message });
    });
  }
}
