// Ingest's side of the snapshot hand-over: every view put into the local SnapshotStore is also
// written to Redis (the latest frame per view, for fronts that start or reconnect) and published
// (for fronts that listen), with a heartbeat so fronts notice a silent ingest. The views put in
// one turn of the event loop leave together: one HSET and one PUBLISH of one batch, not two
// commands and one message per view (a cadence refreshes hundreds of views in one turn).
import type { LazyViewSource } from '../../core/view-meta.js';
import type { Logger } from '../../core/logger.js';
import type { PositioningSink } from '../../actors/runtime/positioning-views.js';
import type { SnapshotStore, ViewMeta } from '../../http/snapshots.js';
import { redisNames, type RedisLink } from '../../persistence/redis-link.js';
import { encodeBatch, encodeFrame, type Frame, type FrameStamp } from './frames.js';

/** Heartbeat period; a front calls the data stale after three missed beats. */
export const beatMs = 1_000;

export class SnapshotPublisher {
  private readonly epochMs = Date.now();
  private seq = 0;
  /** The latest frame of every view: re-sent whole when Redis comes back. */
  private readonly latest = new Map<string, Buffer>();
  private beatTimer: NodeJS.Timeout | null = null;
  private published = 0;
  /** This turn's frames in order, and each view's last word (a frame, or null: deleted). */
  private turnFrames: Buffer[] = [];
  private turnViews = new Map<string, Buffer | null>();

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

  /** Adds a view's frame (null: its deletion) to this turn's batch. */
  private queue(name: string, frame: Buffer | null): void {
    if (this.turnFrames.length === 0 && this.turnViews.size === 0) setImmediate(this.flush);
    this.turnViews.set(name, frame);
    this.turnFrames.push(frame ?? encodeFrame({ kind: 'delete', name, stamp: this.stamp() }));
  }

  private readonly flush = (): void => {
    const frames = this.turnFrames;
    const views = this.turnViews;
    this.turnFrames = [];
    this.turnViews = new Map();
    // While Redis is away the frames wait in `latest`: resendAll writes them on reconnect.
    if (!this.link.ready()) return;
    const { command } = this.link;
    const fields: (string | Buffer)[] = [];
    const deleted: string[] = [];
    for (const [name, frame] of views) {
      if (frame === null) deleted.push(name);
      else fields.push(name, frame);
    }
    if (fields.length > 0) command.hset(redisNames.snapshots, ...fields).catch(() => {});
    if (deleted.length > 0) command.hdel(redisNames.snapshots, ...deleted).catch(() => {});
    command.publish(redisNames.snapshotChannel, encodeBatch(frames, Date.now())).catch(() => {});
    this.published += fields.length / 2;
  };

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
