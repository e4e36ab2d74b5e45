// Ingest's side of the snapshot hand-over: every view put into the local SnapshotStore is also
// published to Redis (for fronts that listen), with a heartbeat so fronts notice a silent
// ingest, and each view's latest frame is written to a Redis hash (for fronts that start or
// reconnect) every few hundred ms and whenever a front asks (snapshot-hash.ts). Views leave in
// batches: one PUBLISH per batch, not one message per view (a cadence refreshes hundreds of
// views in one turn). A batch leaves once the task that put its views has run (a microtask), or
// as soon as the next frame would take it past `batchBytesMax` or its first frame has waited
// `batchWaitMsMax`, so Redis and the fronts work on the first views while ingest still puts the
// rest. A view that changed a little goes as a patch of the last one sent whole (patch.ts;
// docs/scale-out.md).
import { preciseWallMs } from '../core/clock.js';
import {
  isWatchedSource, type LazyView, type LazyViewSource, type WatchedViewSource,
} from '../core/view-meta.js';
import type { Logger } from '../core/logger.js';
import type { PositioningSink } from '../actors/runtime/positioning-views.js';
import {
  entryOf, type SnapshotStore, type ViewEntry, type ViewMeta,
} from '../http/snapshots.js';
import { redisNames, type RedisLink } from './redis-link.js';
import { BatchWriter } from './batch-writer.js';
import { ResendRun } from './resend-run.js';
import { DirtyViews, type WholePut } from './snapshot-hash.js';
import {
  encodeBatch, encodeFrame, type Frame, type FrameHeader, type FrameStamp, type HeaderOut,
  type PutHeader,
} from './frames.js';
import { diffBytes } from './patch.js';

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

/**
 * A batch also leaves once its first frame has waited this long: with patches a turn's views no
 * longer fill 64 KB (a shard's 150 views are ~30 KB of patches), and a turn that diffs and puts
 * them takes milliseconds, which its first views would otherwise wait on ingest
 * (bench/log/2026-11-26-propagation-patches.md).
 */
export const batchWaitMsMax = 0.25;

/**
 * How often the hash gets the views put since it was last written (a front's ask writes it at
 * once). Only a front that starts or reconnects reads the hash, and it asks first, so the period
 * bounds what a front finds there when its ask goes unanswered (ingest away or busy), and lets a
 * view put several times in a period be written once.
 */
export const hashWriteMsDefault = 500;

/**
 * Views at least this long go out as patches of their keyframe (patch.ts) once a front can
 * hold it; shorter ones go whole (a patch would save a few hundred bytes for its diff's cost).
 */
export const patchBodyBytesMin = 2_048;
/** A patch bigger than this share of its view is not sent: the view goes whole, as the new
 *  keyframe (the view moved far from the old one). */
const patchShareMax = 0.25;
/** Patches of one keyframe before the view goes whole again (two minutes at a 1 s cadence):
 *  patches grow as the view drifts from its keyframe. */
const patchesPerKeyframeMax = 120;

/** Main-thread time a turn of the resend after a reconnect takes at most (plus one view). */
const resendSliceMs = 4;

/** A view's last whole frame: what its patches patch. */
interface Keyframe {
  readonly seq: number;
  readonly body: Buffer;
  patches: number;
}

export interface PublisherOptions {
  readonly hashWriteMs: number;
  /** How long a batch's first frame may wait for more (batchWaitMsMax; tests set it to
   *  Infinity, one message a turn, or 0, one a frame). */
  readonly batchWaitMs?: number;
}

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
  /** Per frame of the batch, the view whole when the frame is its patch (the hash's), else null. */
  private wholes: (WholePut | null)[] = [];
  /** Each view's keyframe, as every listening front received it; cleared whenever a front may
   *  have missed one (an ask, a reconnect), so its next put goes whole. */
  private readonly keyframes = new Map<string, Keyframe>();
  /** Puts sent as patches, and whole: figures for the bench and the tests. */
  patchesSent = 0;
  wholesSent = 0;
  private flushScheduled = false;
  /** When the batch's first frame was queued (preciseWallMs). */
  private batchFirstMs = 0;
  private readonly batchWaitMs: number;
  /** Views put (or deleted) since the hash was last written. */
  private readonly dirty = new DirtyViews();
  private hashTimer: NodeJS.Timeout | null = null;
  private stopAsks: (() => void) | null = null;
  private readonly resend: ResendRun;
  /** Main-thread CPU spent writing the hash (µs): ingest's cost of the views outside the turn
   *  that put them (the propagation bench adds it to the turn's). */
  hashCpuUs = 0;

  constructor(private readonly link: RedisLink, private readonly logger: Logger,
    private readonly options: PublisherOptions = { hashWriteMs: hashWriteMsDefault }) {
    this.batchWaitMs = options.batchWaitMs ?? batchWaitMsMax;
    this.resend = new ResendRun(resendSliceMs, logger);
  }

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
    this.stopAsks = this.link.listen(redisNames.snapshotAsk, (id) => this.answerAsk(id));
    this.link.onReady(() => this.resendAll());
    this.beatTimer = setInterval(() => this.beat(), beatMs);
    this.beatTimer.unref();
    this.hashTimer = setInterval(() => this.writeHash(), this.options.hashWriteMs);
    this.hashTimer.unref();
    this.beat();
  }

  stop(): void {
    if (this.beatTimer) clearInterval(this.beatTimer);
    if (this.hashTimer) clearInterval(this.hashTimer);
    this.beatTimer = this.hashTimer = null;
    this.stopAsks?.();
    this.stopAsks = null;
    this.resend.cancel();
  }

  /**
   * A front's ask: the hash is written with every view put so far, and then the ask's id is
   * published on the same connection, so Redis has the hash written before the front hears the
   * answer and loads it. The front subscribed before it asked: what is put later reaches it as a
   * message.
   */
  private answerAsk(id: Buffer): void {
    // While every view is sent again (after Redis came back), the hash lacks the views not sent
    // yet: the ask is answered once they all are.
    if (this.resend.running) this.resend.hold(id);
    else this.answerAsks([id]);
  }

  private answerAsks(ids: readonly Buffer[]): void {
    this.flush();
    if (!this.link.ready() || ids.length === 0) return;
    this.writeHash();
    for (const id of ids) this.send('publish', [redisNames.snapshotFlushed, id]);
    // The asking front holds the hash's frames, not the keyframes: every view goes whole next.
    this.keyframes.clear();
  }

  /** Each waiting view's last word to the hash; while Redis is away they keep waiting. */
  writeHash(): void {
    if (this.dirty.size === 0 || !this.link.ready()) return;
    const cpuBefore = process.cpuUsage();
    const { sets, removes } = this.dirty.take();
    if (sets !== null) this.send('hset', sets);
    if (removes !== null) this.send('hdel', removes);
    const cpu = process.cpuUsage(cpuBefore);
    this.hashCpuUs += cpu.user + cpu.system;
  }

  private stamp(): FrameStamp {
    return { epochMs: this.epochMs, seq: ++this.seq };
  }

  /** A put's frame: the entry's bytes as served, with its ETag and meta; a patch of its
   *  keyframe when there is one and the patch is small. */
  private put(name: string, entry: ViewEntry): void {
    // Stamped to the microsecond: the fronts' propagation histograms are finer than a ms.
    const header: PutHeader = { name, stamp: this.stamp(), sentAtMs: preciseWallMs(),
      updatedAtMs: entry.updatedAtMs, cadenceMs: entry.cadenceMs, etag: entry.etag };
    const body = entry.body;
    const keyframe = this.keyframes.get(name);
    const patch = keyframe === undefined || keyframe.patches >= patchesPerKeyframeMax ? null
      : diffBytes(keyframe.body, body, body.byteLength * patchShareMax);
    if (patch !== null) {
      keyframe!.patches++;
      this.patchesSent++;
      const patchOf = { baseSeq: keyframe!.seq, targetBytes: body.byteLength };
      this.queue(name, { ...header, patch: patchOf }, patch, { header, body });
      return;
    }
    // Only a view whose whole frame leaves now, over a live link, can be patched later: a
    // frame queued while Redis is away never reaches a front.
    if (body.byteLength >= patchBodyBytesMin && this.link.ready()) {
      this.keyframes.set(name, { seq: header.stamp.seq, body, patches: 0 });
    } else {
      this.keyframes.delete(name);
    }
    this.wholesSent++;
    this.queue(name, header, body);
  }

  private remove(name: string): void {
    this.latest.delete(name);
    this.keyframes.delete(name);
    const header: FrameHeader = { kind: 'delete', name, stamp: this.stamp() };
    this.queue(name, JSON.stringify(header), undefined);
  }

  /** Adds a frame to the batch; a full batch leaves at once. `whole`: the view, when the frame
   *  is its patch. */
  private queue(name: string, header: HeaderOut, body: Uint8Array | undefined,
    whole: WholePut | null = null): void {
    let start = this.batch.add(header, body);
    if (start < 0) {
      this.flush();
      start = this.batch.add(header, body);
    }
    this.names.push(name);
    this.spans.push(body === undefined ? -1 : start, this.batch.byteLength);
    this.wholes.push(whole);
    const nowMs = preciseWallMs();
    if (this.batch.frameCount === 1) this.batchFirstMs = nowMs;
    if (this.batch.byteLength >= batchBytesMax || nowMs - this.batchFirstMs >= this.batchWaitMs) {
      this.flush();
    } else if (!this.flushScheduled) {
      this.flushScheduled = true;
      // A microtask: once the task that put the views (a slice of a shard's publish, a timer)
      // has run, not a turn of the event loop later (setImmediate: through the next timers and
      // poll phases, I/O callbacks and the collector's tasks first), which fronts would see as
      // propagation delay.
      queueMicrotask(this.flushAtTurnEnd);
    }
  }

  private readonly flushAtTurnEnd = (): void => {
    this.flushScheduled = false;
    this.flush();
  };

  /** Sends the batch now, and notes its views for the hash's next write. */
  private flush(): void {
    if (this.batch.frameCount === 0) return;
    const message = this.batch.take(preciseWallMs());
    const { names, spans, wholes } = this;
    this.names = [];
    this.spans = [];
    this.wholes = [];
    const ready = this.link.ready();
    // Each view's last word, in order: a put then a deletion is a deletion, and the reverse a
    // put. A frame waits as a slice of the message; the client copies it into the HSET.
    for (let i = 0; i < names.length; i++) {
      const start = spans[2 * i]!;
      if (start >= 0) {
        // While Redis is away a put waits in `latest`: resendAll frames it on reconnect.
        if (ready) {
          this.dirty.note(names[i]!, wholes[i] ?? message.subarray(start, spans[2 * i + 1]!));
        }
      } else {
        // A deletion is nowhere else: it waits for the hash even while Redis is away.
        this.dirty.note(names[i]!, null);
      }
    }
    if (ready) this.send('publish', [redisNames.snapshotChannel, message]);
    // A keyframe in a message Redis never got (it went away meanwhile) is no base for a patch.
    else this.keyframes.clear();
  }

  /**
   * Writes a command at once. Not through auto-pipelining, which holds it a turn, nor an
   * explicit pipeline, which copies every command's bytes once more into one buffer.
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

  /**
   * Every view again, whole, once Redis is (back) up: an empty Redis (restarted without
   * persistence) holds none of them. In slices over event-loop turns, not in one: 526 views in
   * one turn held ingest's event loop 544-861 ms, past the command timeout of the re-subscribe
   * sent just before (which then failed) and of every request meanwhile.
   */
  private resendAll(): void {
    this.logger.info('publishing every snapshot to redis', { views: this.latest.size });
    this.keyframes.clear();
    this.resend.run(this.resendSteps(), (heldAsks, figures) => {
      if (!this.link.ready()) return; // away again: its return sends them all anew
      this.logger.info('every snapshot published to redis', { ...figures });
      this.answerAsks(heldAsks);
    });
  }

  /** One view a step; stops early once Redis is away again (its return sends them all anew). */
  private *resendSteps(): Generator<unknown, void, undefined> {
    for (const [name, entry] of this.latest) {
      if (!this.link.ready()) return;
      this.put(name, entry);
      yield;
    }
    for (const [prefix, source] of this.families) {
      for (const key of [...source.keys()]) {
        if (!this.link.ready()) return;
        const view = source.view(key);
        if (view !== undefined) this.putLazy(prefix + key, view);
        yield;
      }
    }
  }
}
