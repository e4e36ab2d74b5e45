// Ingest's side of the snapshot hand-over: every view put into the local SnapshotStore is also
// written to Redis (the latest frame per view, for fronts that start or reconnect) and published
// (for fronts that listen), with a heartbeat so fronts notice a silent ingest.
import type { LazyViewSource } from '../../core/view-meta.js';
import type { Logger } from '../../core/logger.js';
import type { PositioningSink } from '../../actors/runtime/positioning-views.js';
import type { SnapshotStore, ViewMeta } from '../../http/snapshots.js';
import { redisNames, type RedisLink } from '../../persistence/redis-link.js';
import { encodeFrame, type Frame, type FrameStamp } from './frames.js';

/** Heartbeat period; a front calls the data stale after three missed beats. */
export const beatMs = 1_000;

export class SnapshotPublisher {
  private readonly epochMs = Date.now();
  private seq = 0;
  /** The latest frame of every view: re-sent whole when Redis comes back. */
  private readonly latest = new Map<string, Buffer>();
  private beatTimer: NodeJS.Timeout | null = null;
  private published = 0;

  constructor(private readonly link: RedisLink, private readonly logger: Logger) {}

  /** The sink the producers write to: the local store, and Redis behind it. */
  sink(store: SnapshotStore): PositioningSink {
    return {
      put: (name: string, body: Uint8Array, meta: ViewMeta) => {
        store.put(name, body, meta);
        this.put(name, body, meta);
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

  private put(name: string, body: Uint8Array, meta: ViewMeta): void {
    const bytes = Buffer.isBuffer(body) ? body
      : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const frame = encodeFrame({ kind: 'put', name, stamp: this.stamp(), sentAtMs: Date.now(),
      updatedAtMs: meta.updatedAtMs, cadenceMs: meta.cadenceMs, body: bytes });
    this.latest.set(name, frame);
    this.send(name, frame);
  }

  private remove(name: string): void {
    this.latest.delete(name);
    if (!this.link.ready()) return;
    const frame = encodeFrame({ kind: 'delete', name, stamp: this.stamp() });
    const { command } = this.link;
    command.hdel(redisNames.snapshots, name).catch(() => {});
    command.publish(redisNames.snapshotChannel, frame).catch(() => {});
  }

  private send(name: string, frame: Buffer): void {
    // While Redis is away the frame waits in `latest`: resendAll writes it on reconnect.
    if (!this.link.ready()) return;
    const { command } = this.link;
    command.hset(redisNames.snapshots, name, frame).catch(() => {});
    command.publish(redisNames.snapshotChannel, frame).catch(() => {});
    this.published++;
  }

  private beat(): void {
    if (!this.link.ready()) return;
    const frame: Frame = { kind: 'beat', stamp: this.stamp(), sentAtMs: Date.now() };
    this.link.command.publish(redisNames.snapshotChannel, encodeFrame(frame)).catch(() => {});
  }

  private resendAll(): void {
    this.logger.info('publishing every snapshot to redis', { views: this.latest.size });
    for (const [name, frame] of this.latest) this.send(name, frame);
  }
}
