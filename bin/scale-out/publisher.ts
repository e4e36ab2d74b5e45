// Ingest's side of the snapshot hand-over: every view put into the local SnapshotStore is also
// written to Redis (the latest frame per view, for fronts that start or reconnect) and published
// (for fronts that listen), with a heartbeat so fronts notice a silent ingest. Views leave in
// batches: one HSET and one PUBLISH per batch, not two commands and one message per view (a
// cadence refreshes hundreds of views in one turn). A batch leaves at the end of the turn, or
// as soon as it holds `batchBytesMax`, so Redis and the fronts work on the first views while
// ingest still puts the rest (docs/scale-out.md).
import type { LazyViewSource } from '../../core/view-meta.js';
import type { Logger } from '../../core/logger.js';
import type { PositioningSink } from '../../actors/runtime/positioning-views.js';
import type { SnapshotStore, ViewMeta } from '../../http/snapshots.js';
import { Command } from 'ioredis';
import { redisNames, type RedisLink } from '../../persistence/redis-link.js';
import { encodeBatch, encodeFrame, type Frame, type FrameStamp } from './frames.js';

/** Heartbeat period; a front calls the data stale after three missed beats. */
export const beatMs = 1_000;

/**
 * A batch leaves once it holds this many bytes of frames. Why: one 600 KB batch per turn (300
 * pair views) reached the front in one piece, whole, after Redis had read the whole HSET and
 * written the whole message, and the front applied all 300 before its next request; batches of
 * about 30 views reach a front while ingest still encodes the next (bench/README.md).
 */
export const batchBytesMax = 64 * 1024;

export class SnapshotPublisher {
  private readonly epochMs = Date.now();
  private seq = 0;
  /** The latest frame of every view: re-sent whole when Redis comes back. */
  private readonly latest = new Map<string, Buffer>();
  private beatTimer: NodeJS.Timeout | null = null;
  private published = 0;
  /** The batch's frames in order, and each view's last word (a frame, or null: deleted). */
  private batchFrames: Buffer[] = [];
  private batchViews = new Map<string, Buffer | null>();
  private batchBytes = 0;
  private flushScheduled = false;

  constructor(private readonly link: RedisLink, private readonly logger: Logger) {}

  /** The sink the producers write to: the local store, and Redis behind it. */
  sink(store: SnapshotStore): PositioningSink {
    return {
      put: (name: string, body: Uint8Array, meta: ViewMeta) => {
        store.put(name, body, meta);
        this.put(name, body, meta, store.get(name)?.etag);
      },
      get: (name: string) => store.get(name),
      delete: (name: string) => {
        store.delete(name);
        this.remove(name);
      },
      mount: (prefix: string, source: LazyViewSource) => store.mount(prefix, source),
    };
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

  get framesPublished(): number {
    return this.published;
  }

  private stamp(): FrameStamp {
    return { epochMs: this.epochMs, seq: ++this.seq };
  }

  private put(name: string, body: Uint8Array, meta: ViewMeta, etag: string | undefined): void {
    const bytes = Buffer.isBuffer(body) ? body
      : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const frame = encodeFrame({ kind: 'put', name, stamp: this.stamp(), sentAtMs: Date.now(),
      updatedAtMs: meta.updatedAtMs, cadenceMs: meta.cadenceMs, etag, body: bytes });
    this.latest.set(name, frame);
    this.queue(name, frame);
  }

  private remove(name: string): void {
    this.latest.delete(name);
    this.queue(name, null);
  }

  /** Adds a view's frame (null: its deletion) to the batch; a full batch leaves at once. */
  private queue(name: string, frame: Buffer | null): void {
    const bytes = frame ?? encodeFrame({ kind: 'delete', name, stamp: this.stamp() });
    this.batchViews.set(name, frame);
    this.batchFrames.push(bytes);
    this.batchBytes += bytes.length;
    if (this.batchBytes >= batchBytesMax) {
      this.flush();
    } else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flushAtTurnEnd);
    }
  }

  private readonly flushAtTurnEnd = (): void => {
    this.flushScheduled = false;
    this.flush();
  };

  /** Sends the batch now: its views to the hash, then its frames to the channel. */
  private flush(): void {
    const frames = this.batchFrames;
    const views = this.batchViews;
    if (frames.length === 0) return;
    this.batchFrames = [];
    this.batchViews = new Map();
    this.batchBytes = 0;
    // While Redis is away the frames wait in `latest`: resendAll writes them on reconnect.
    if (!this.link.ready()) return;
    const fields: (string | Buffer)[] = [];
    const deleted: string[] = [];
    for (const [name, frame] of views) {
      if (frame === null) deleted.push(name);
      else fields.push(name, frame);
    }
    // HSET first: a front that loads the hash after the message was published finds the frame.
    if (fields.length > 0) this.send('hset', [redisNames.snapshots, ...fields]);
    if (deleted.length > 0) this.send('hdel', [redisNames.snapshots, ...deleted]);
    this.send('publish', [redisNames.snapshotChannel, encodeBatch(frames, Date.now())]);
    this.published += fields.length / 2;
  }

  /**
   * Writes a command at once. Not through auto-pipelining, which holds it a turn, nor an
   * explicit pipeline, which copies every command's bytes once more into one buffer (about
   * 4 µs of ingest CPU per view on a microbench; bench/README.md).
   */
  private send(name: string, args: (string | Buffer)[]): void {
    const command = new Command(name, args);
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
    for (const [name, frame] of this.latest) this.queue(name, frame);
  }
}
