// A front's side of the snapshot hand-over: whenever the connection is (again) up, subscribes,
// asks ingest to write every view's latest frame to the hash, and loads the hash; then applies
// published frames as they come, putting the same bytes into the front's SnapshotStore (so the
// same ETag and headers as ingest). Tracks ingest's heartbeat: three missed beats and the front
// calls its data stale.
import { randomUUID } from 'node:crypto';
import { preciseWallMs, type Clock } from '../core/clock.js';
import { runSliced } from '../actors/runtime/sliced.js';
import type { Logger } from '../core/logger.js';
import type { SnapshotStore } from '../http/snapshots.js';
import { redisNames, type RedisLink } from './redis-link.js';
import {
  decodeFrame, isNewer, splitBatch, type Batch, type Frame, type FrameStamp,
} from './frames.js';
import { applyPatch } from './patch.js';
import { beatMs, patchBodyBytesMin } from './publisher.js';
import { PubSubAsks } from './pubsub-ask.js';

const staleAfterMs = 3 * beatMs;
const reloadRetryMs = 500;
/** Main-thread time a turn of a hash load takes at most (plus one view). */
const loadSliceMs = 4;

export interface SubscriberOptions {
  /** How long ingest has to answer an ask to write the hash before the front loads the hash
   *  as it is (and asks again until answered). */
  readonly askTimeoutMs: number;
}

export const subscriberOptionsDefault: SubscriberOptions = { askTimeoutMs: 1_000 };

export class SnapshotSubscriber {
  private readonly stamps = new Map<string, FrameStamp>();
  /** Each view's last whole frame (its stamp and bytes): the base of the patches ingest sends
   *  of it. */
  private readonly keyframes = new Map<string, { readonly stamp: FrameStamp;
    readonly body: Buffer }>();
  /** Patches dropped for want of their keyframe: a front that (re)subscribed holds the hash's
   *  frames until each view's next whole frame (ingest sends every view whole after an ask). */
  patchesWithoutBase = 0;
  patchesApplied = 0;
  /** Versions are the front's own: a restarted ingest counts from 1 again. */
  private version = 0;
  private lastBeatWallMs = -Infinity;
  private loads = 0;
  /** Counts the catch-ups (one per reconnect): an older one still asking gives way. */
  private catchUps = 0;
  /** Asks for the hash waiting for ingest's answer. */
  private readonly asks: PubSubAsks;
  private badFrames = 0;
  /** Called with each applied put's delays in ms from the batch leaving ingest and from the
   *  view's put on ingest (the propagation bench). */
  onApplied: ((sinceSentMs: number, sincePutMs: number) => void) | null = null;
  /** Main-thread CPU spent applying published batches (µs), and the views they held: the
   *  front's share of propagation in figures load does not move. Off unless a bench turns it
   *  on: two process.cpuUsage calls (getrusage) per message are a visible share of a front's
   *  busy time. */
  measureApplyCpu = false;
  applyCpuUs = 0;
  viewsApplied = 0;

  constructor(private readonly link: RedisLink, private readonly store: SnapshotStore,
    private readonly clock: Clock, private readonly logger: Logger,
    private readonly options: SubscriberOptions = subscriberOptionsDefault) {
    this.asks = new PubSubAsks(link, redisNames.snapshotFlushed);
  }

  start(): void {
    this.link.listen(redisNames.snapshotChannel, (message) => this.applyBatch(message));
    this.asks.start();
    this.link.onReady(() => void this.catchUp());
  }

  /** Patches applied and dropped, as Prometheus counters (the front's /metrics). */
  renderPatchMetrics(): string {
    return [
      '# HELP orderflow_snapshot_patches_applied_total Views this front rebuilt from a patch of '
        + 'their keyframe.',
      '# TYPE orderflow_snapshot_patches_applied_total counter',
      `orderflow_snapshot_patches_applied_total ${this.patchesApplied}`,
      '# HELP orderflow_snapshot_patches_dropped_total Patches dropped because this front did not '
        + 'hold their keyframe (after it subscribed, until the view is sent whole).',
      '# TYPE orderflow_snapshot_patches_dropped_total counter',
      `orderflow_snapshot_patches_dropped_total ${this.patchesWithoutBase}`,
    ].join('\n') + '\n';
  }

  /** Ingest was heard from within three beats, over a live connection. */
  fresh(): boolean {
    return this.link.ready() && Date.now() - this.lastBeatWallMs < staleAfterMs;
  }

  /** At least one whole load from Redis has completed. */
  loaded(): boolean {
    return this.loads > 0;
  }

  /** A channel message: the frames ingest put in one turn. */
  private applyBatch(message: Buffer): void {
    const cpuBefore = this.measureApplyCpu ? process.cpuUsage() : null;
    let batch: Batch;
    try {
      batch = splitBatch(message);
    } catch (error) {
      this.noteBad(error);
      return;
    }
    for (const frame of batch.frames) this.apply(frame, batch.sentAtMs);
    this.viewsApplied += batch.frames.length;
    if (cpuBefore === null) return;
    const cpu = process.cpuUsage(cpuBefore);
    this.applyCpuUs += cpu.user + cpu.system;
  }

  private noteBad(error: unknown): void {
    if (this.badFrames++ === 0) {
      this.logger.warn('ignoring a malformed snapshot frame', {
        error: (error as Error).message });
    }
  }

  /** One frame; `sentAtMs` is its batch's (NaN for a frame loaded from the hash). */
  private apply(bytes: Buffer, sentAtMs: number): void {
    let frame: Frame;
    try {
      frame = decodeFrame(bytes);
    } catch (error) {
      this.noteBad(error);
      return;
    }
    if (frame.kind === 'beat') {
      this.lastBeatWallMs = Date.now();
      return;
    }
    const known = this.stamps.get(frame.name);
    if (known !== undefined && !isNewer(frame.stamp, known)) return;
    if (frame.kind === 'delete') {
      this.stamps.set(frame.name, frame.stamp);
      this.keyframes.delete(frame.name);
      this.store.delete(frame.name);
      return;
    }
    const body = this.bodyOf(frame);
    if (body === null) return;
    this.stamps.set(frame.name, frame.stamp);
    // The view's bytes as a slice of the message, not a copy (a copy a view adds up): a view
    // holds its batch in memory until it is replaced, at most batchBytesMax (64 KB) plus
    // itself, and the views of one batch are mostly refreshed together. Nothing writes into a
    // message's bytes (each socket read is a new buffer; views are never mutated). A copy would
    // not make the front's mark-compacts rarer either: V8 counts the ArrayBuffer bytes made
    // since the last one against the old generation's limit, and every byte received is
    // already one socket read's (bench/log/2026-11-26-propagation-fronts-cost.md).
    this.store.put(frame.name, body, {
      version: ++this.version, updatedAtMs: frame.updatedAtMs, cadenceMs: frame.cadenceMs,
      etag: frame.etag,
    });
    if (this.onApplied !== null && !Number.isNaN(sentAtMs)) {
      const nowMs = preciseWallMs();
      this.onApplied(nowMs - sentAtMs, nowMs - frame.sentAtMs);
    }
  }

  /** A put's view bytes: its body, kept as the view's keyframe, or its patch applied to the
   *  keyframe; null when the front lacks that keyframe or the patch does not fit it. */
  private bodyOf(frame: Extract<Frame, { kind: 'put' }>): Buffer | null {
    if (frame.patch === undefined) {
      const body = frame.body;
      // Ingest patches only views this long: a shorter one is no keyframe.
      if (body.byteLength < patchBodyBytesMin) {
        this.keyframes.delete(frame.name);
        return body;
      }
      // A keyframe is held for up to 120 cadences, its view's bytes only until the next patch:
      // a copy, when the frame is a slice of a larger message, so it does not hold the message.
      const own = body.byteLength * 2 < body.buffer.byteLength ? Buffer.from(body) : body;
      this.keyframes.set(frame.name, { stamp: frame.stamp, body: own });
      return body;
    }
    const base = this.keyframes.get(frame.name);
    if (base === undefined || base.stamp.epochMs !== frame.stamp.epochMs ||
      base.stamp.seq !== frame.patch.baseSeq) {
      this.patchesWithoutBase++;
      return null;
    }
    try {
      const body = applyPatch(base.body, frame.body, frame.patch.targetBytes);
      this.patchesApplied++;
      return body;
    } catch (error) {
      this.noteBad(error);
      return null;
    }
  }

  /**
   * Every view's latest frame, with no window in which a view is missed: subscribed (Redis
   * confirmed it) before asking, so whatever ingest puts after writing the hash comes as a
   * message; the hash, loaded after ingest's answer, holds everything put before. Frames
   * published meanwhile win by their stamps. An unanswered ask (ingest away, or not yet
   * listening after Redis came back): the hash is loaded as it is, once (the front serves it, and
   * without ingest's beat it says stale), and the ask is repeated until ingest answers.
   */
  private async catchUp(): Promise<void> {
    const catchUp = ++this.catchUps;
    // A beat heard before Redis went proves nothing about ingest now (it may have died while
    // Redis was away): the front is fresh again on the first beat over the new connection.
    this.lastBeatWallMs = -Infinity;
    let loadedOnce = false;
    while (catchUp === this.catchUps && this.link.ready()) {
      try {
        await this.link.subscriber.subscribe(redisNames.snapshotChannel,
          redisNames.snapshotFlushed);
        // What this front held when it asked: a view ingest deleted while the front was away
        // is missing from the answered hash, and nothing else will say so.
        const heldAtAsk = new Map(this.stamps);
        const answered = await this.askToWriteHash();
        if (catchUp !== this.catchUps) return;
        if (answered || !loadedOnce) await this.loadHash(answered, heldAtAsk);
        loadedOnce = true;
        if (answered) return;
      } catch (error) {
        this.logger.warn('loading snapshots from redis failed; retrying', {
          error: (error as Error).message });
      }
      await new Promise((resolve) => setTimeout(resolve, reloadRetryMs).unref());
    }
  }

  /** Publishes an ask; true once ingest answers that the hash is written, false on timeout. */
  private async askToWriteHash(): Promise<boolean> {
    const id = randomUUID();
    const { answered } = await this.asks.ask(redisNames.snapshotAsk, id, id,
      this.options.askTimeoutMs);
    return answered;
  }

  private async loadHash(answered: boolean, heldAtAsk: Map<string, FrameStamp>): Promise<void> {
    const all = await this.link.command.hgetallBuffer(redisNames.snapshots);
    // Applied in slices, so requests are answered between them (a reconnect's whole load is
    // hundreds of views); a frame published meanwhile wins by its stamp as ever.
    await runSliced(function* (self) {
      for (const frame of Object.values(all)) {
        self.apply(frame, NaN);
        yield;
      }
    }(this), loadSliceMs);
    if (answered) this.dropDeletedMeanwhile(heldAtAsk, all);
    // A live beat is the only proof of a live ingest: the load does not count as one.
    this.loads++;
    this.logger.info(answered ? 'snapshots loaded from redis'
      : 'snapshots loaded from redis as they are: ingest did not answer (asking again)',
    { views: Object.keys(all).length, atMs: this.clock.nowMs() });
  }

  /**
   * After a hash ingest wrote on this front's ask: every view ingest holds is in it, and a
   * deletion ingest made meanwhile took the view out of it (its HDEL). So a view held at the ask
   * and absent from the hash was deleted while this front was away, unless a frame came for it
   * since (its stamp moved: published after the hash was written, so not in it).
   */
  private dropDeletedMeanwhile(heldAtAsk: Map<string, FrameStamp>,
    hash: Record<string, Buffer>): void {
    let dropped = 0;
    for (const [name, stamp] of heldAtAsk) {
      if (Object.hasOwn(hash, name) || this.stamps.get(name) !== stamp) continue;
      if (this.store.get(name) === undefined) continue; // its deletion came by message
      this.store.delete(name);
      this.keyframes.delete(name);
      dropped += 1;
    }
    if (dropped > 0) this.logger.info('views deleted on ingest while away dropped', { dropped });
  }
}
