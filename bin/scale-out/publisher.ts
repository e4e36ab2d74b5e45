// Ingest's side of the snapshot hand-over: every view put into the local SnapshotStore is also
// written to Redis (the latest frame per view, for fronts that start or reconnect) and published
// (for fronts that listen), with a heartbeat so fronts notice a silent ingest. Views leave in
// batches: one HSET and one PUBLISH per batch, not two commands and one message per view (a
// cadence refreshes hundreds of views in one turn). A batch leaves once the task that put its
// views has run (a microtask), or as soon as the next frame would take it past `batchBytesMax`,
// so Redis and the fronts work on the first views while ingest still puts the rest
// (docs/scale-out.md).
import { preciseWallMs } from '../../core/clock.js';
import {
  isWatchedSource, type LazyView, type LazyViewSource, type WatchedViewSource,
} from '../../core/view-meta.js';
import type { Logger } from '../../core/logger.js';
import type { PositioningSink } from '../../actors/runtime/positioning-views.js';
import {
  entryOf, type SnapshotStore, type ViewEntry, type ViewMeta,
} from '../../http/snapshots.js';
import { redisNames, type RedisLink } from '../../persistence/redis-link.js';
import { BatchWriter } from './batch-writer.js';
import {
  encodeBatch, encodeFrame, putHeaderJson, type Frame, type FrameHeader, type FrameStamp,
} from './frames.js';

/** Heartbeat period; a front calls the data stale after three missed beats. */
export const beatMs = 1_000;

/**
 * A batch holds at most this many bytes of frames (a bigger view leaves alone; one that fills up
 * holds at least half: batch-writer.ts). Why: one 600 KB
 * batch per turn (300 pair views) reached the front in one piece, whole, after Redis had read
 * all of it, and the front applied all 300 before its next request; batches of about 30 views
 * reach a front while ingest still puts the next (bench/README.md).
 */
export const batchBytesMax = 64 * 1024;

export class SnapshotPublisher {
  private readonly epochMs = Date.now();
  private seq = 0;
  /** Every published view's entry in the local store (its bytes and meta, not a copy): framed
   *  again and re-sent when Redis comes back. */
  private readonly latest = new Map<string, ViewEntry>();
  /** Lazy families whose views are forwarded as they change (the wallets): re-sent from their
   *  source, not held as bytes here. */
  private readonly families: [prefix: string, source: WatchedViewSource][] = [];
  private beatTimer: NodeJS.Timeout | null = null;
  /** The batch's frames, written in place, and per frame its view's name and where the frame
   *  lies in the message ([start, end], start -1 for a deletion). */
  private batch = new BatchWriter(batchBytesMax);
  private names: string[] = [];
  private spans: number[] = [];
  /** The batch holds a deletion: its views' last words are sorted out before sending. */
  private deletes = false;
  private flushScheduled = false;

  constructor(private readonly link: RedisLink, private readonly logger: Logger) {}

  /** The sink the producers write to: the local store, and Redis behind it. */
  sink(store: SnapshotStore): PositioningSink {
    return {
      put: (name: string, body: Uint8Array, meta: ViewMeta) => {
        store.put(name, body, meta);
        const entry = store.get(name)!;
        this.latest.set(name, entry);
        this.put(name, entry);
      },
      get: (name: string) => store.get(name),
      delete: (name: string) => {
        store.delete(name);
        this.remove(name);
      },
      mount: (prefix: string, source: LazyViewSource) => {
        store.mount(prefix, source);
        if (isWatchedSource(source)) this.forwardFamily(prefix, source);
      },
    };
  }

  /**
   * A lazy family on ingest is built only when asked; a front has no producer to ask, so each
   * view the producer publishes is encoded here and sent like any other (same bytes, ETag and
   * meta as ingest's own entry), and a dropped one is deleted on the fronts.
   */
  private forwardFamily(prefix: string, source: WatchedViewSource): void {
    this.families.push([prefix, source]);
    source.watch((key, view) => {
      if (view === undefined) this.remove(prefix + key);
      else this.putLazy(prefix + key, view);
    });
  }

  /** A lazy view's frame: its bytes encoded now, with the validators ingest's store gives. */
  private putLazy(name: string, view: LazyView): void {
    this.put(name, entryOf(view.encode(), view));
  }

  start(): void {
    this.link.onReady(() => this.resendAll());
    this.beatTimer = setInterval(() => this.beat(), beatMs);
    this.beatTimer.unref();
    this.beat();
  }

  stop(): void {
    if (this.beatTimer) clearInterval(this.beatTimer);
    this.beatTimer = null;
  }

  private stamp(): FrameStamp {
    return { epochMs: this.epochMs, seq: ++this.seq };
  }

  /** A put's frame: the entry's bytes as served, with its ETag and meta. */
  private put(name: string, entry: ViewEntry): void {
    // Stamped to the microsecond: the fronts' propagation histograms are finer than a ms.
    this.queue(name, putHeaderJson(name, this.stamp(), preciseWallMs(), entry.updatedAtMs,
      entry.cadenceMs, entry.etag), entry.body);
  }

  private remove(name: string): void {
    this.latest.delete(name);
    const header: FrameHeader = { kind: 'delete', name, stamp: this.stamp() };
    this.queue(name, JSON.stringify(header), undefined);
  }

  /** Adds a frame to the batch; a full batch leaves at once. */
  private queue(name: string, header: string, body: Uint8Array | undefined): void {
    let start = this.batch.add(header, body);
    if (start < 0) {
      this.flush();
      start = this.batch.add(header, body);
    }
    this.names.push(name);
    this.spans.push(body === undefined ? -1 : start, this.batch.byteLength);
    if (body === undefined) this.deletes = true;
    if (this.batch.byteLength >= batchBytesMax) {
      this.flush();
    } else if (!this.flushScheduled) {
      this.flushScheduled = true;
      // A microtask: once the task that put the views (a slice of a shard's publish, a timer)
      // has run, not a turn of the event loop later (setImmediate: through the next timers and
      // poll phases, I/O callbacks and the collector's tasks first). One view at a time p99
      // 4.3 -> 2.9 ms in the bench (bench/README.md).
      queueMicrotask(this.flushAtTurnEnd);
    }
  }

  private readonly flushAtTurnEnd = (): void => {
    this.flushScheduled = false;
    this.flush();
  };

  /** Sends the batch now: each view's last word to the hash, then the message. */
  private flush(): void {
    if (this.batch.frameCount === 0) return;
    const message = this.batch.take(preciseWallMs());
    const { names, spans, deletes } = this;
    this.names = [];
    this.spans = [];
    this.deletes = false;
    // While Redis is away the views wait in `latest`: resendAll frames them on reconnect.
    if (!this.link.ready()) return;
    // A frame goes to the hash as a slice of the message: the client copies it into its command.
    const sets: (string | Buffer)[] = [redisNames.snapshots];
    const removes: string[] = [redisNames.snapshots];
    if (!deletes) {
      // A view put twice in one batch is set twice in order: HSET's last value for a field wins.
      for (let i = 0; i < names.length; i++) {
        sets.push(names[i]!, message.subarray(spans[2 * i]!, spans[2 * i + 1]!));
      }
    } else {
      // Each view's last word only: a put then a deletion is a deletion, and the reverse a put.
      const last = new Map<string, Buffer | null>();
      for (let i = 0; i < names.length; i++) {
        const start = spans[2 * i]!;
        last.set(names[i]!, start < 0 ? null : message.subarray(start, spans[2 * i + 1]!));
      }
      for (const [name, frame] of last) {
        if (frame === null) removes.push(name);
        else sets.push(name, frame);
      }
    }
    // HSET first: a front that loads the hash after the message was published finds the frame.
    if (sets.length > 1) this.send('hset', sets);
    if (removes.length > 1) this.send('hdel', removes);
    this.send('publish', [redisNames.snapshotChannel, message]);
  }

  /**
   * Writes a command at once. Not through auto-pipelining, which holds it a turn, nor an
   * explicit pipeline, which copies every command's bytes once more into one buffer (about
   * 4 µs of ingest CPU per view on a microbench; bench/README.md).
   */
  private send(name: string, args: (string | Buffer)[]): void {
    const command = new this.link.Command(name, args);
    command.promise.catch(() => {});
    this.link.command.sendCommand(command);
  }

  private beat(): void {
    if (!this.link.ready()) return;
    const nowMs = Date.now();
    const frame: Frame = { kind: 'beat', stamp: this.stamp(), sentAtMs: nowMs };
    this.link.command.publish(redisNames.snapshotChannel, encodeBatch([encodeFrame(frame)], nowMs))
      .catch(() => {});
  }

  private resendAll(): void {
    this.logger.info('publishing every snapshot to redis', { views: this.latest.size });
    for (const [name, entry] of this.latest) this.put(name, entry);
    for (const [prefix, source] of this.families) {
      for (const key of source.keys()) {
        const view = source.view(key);
        if (view !== undefined) this.putLazy(prefix + key, view);
      }
    }
  }
}
