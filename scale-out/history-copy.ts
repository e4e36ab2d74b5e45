// A front's bulk copy of ingest's history (docs/scale-out.md, "History on the fronts"): the
// ranges the Redis stream no longer holds (a new front, or one away longer than the backlog) are
// asked of ingest one chunk at a time over Redis (ask on a channel, chunk under a short-lived
// key, its key published), each chunk recorded with the code the stream's points go through,
// and the next asked only once it is applied and its cursor saved: a restart goes on from there,
// and a chunk applied twice writes the same slots and rows again (points are keyed by pair and
// minute or hour). The front answers from what it holds meanwhile; it never waits on ingest.
import { randomUUID } from 'node:crypto';
import type { Database } from 'lmdb';
import type { Logger } from '../core/logger.js';
import type { HistoryRecorder } from '../actors/runtime/history-recorder.js';
import { redisNames, type RedisLink } from './redis-link.js';
import { storeEncoder } from '../persistence/table.js';
import { PubSubAsks } from './pubsub-ask.js';
import {
  copyChunkPointsDefault, firstCursor, rangeStartMs, type CopyAsk, type CopyChunk, type CopyCursor,
} from './history-copy-chunk.js';

export interface CopyRange {
  readonly fromMs: number;
  readonly toMs: number;
  /** Per pair, a later start than fromMs (a front's gap: each pair from its own newest). */
  readonly startsMs?: Readonly<Record<string, number>>;
}

/** One range holding both: every pair from the earlier of its two starts. */
export function mergeRanges(a: CopyRange, b: CopyRange): CopyRange {
  const merged = { fromMs: Math.min(a.fromMs, b.fromMs), toMs: Math.max(a.toMs, b.toMs) };
  // A pair missing from either map starts at that range's fromMs: kept only if in both.
  if (a.startsMs === undefined || b.startsMs === undefined) return merged;
  const startsMs: Record<string, number> = {};
  for (const symbol of Object.keys(a.startsMs)) {
    if (symbol in b.startsMs) {
      startsMs[symbol] = Math.min(rangeStartMs(a, symbol), rangeStartMs(b, symbol));
    }
  }
  return { ...merged, startsMs };
}

/** What is left to copy, saved after each applied chunk. */
interface CopyState {
  readonly ranges: CopyRange[];
  readonly cursor: CopyCursor;
  readonly copiedPoints: number;
}

export interface CopyOptions {
  /** Points asked for per chunk. */
  readonly pointsMax: number;
  /** An ask not answered within this is asked again after the back-off. */
  readonly askTimeoutMs: number;
  readonly retryMs: number;
  readonly retryMsMax: number;
}

export const copyOptionsDefault: CopyOptions = Object.freeze({
  pointsMax: copyChunkPointsDefault, askTimeoutMs: 5_000, retryMs: 1_000, retryMsMax: 30_000,
});

/** Ranges waiting at most; one more is merged into the last (copied again: idempotent). */
const rangesMax = 4;
const stateKey = 'copy';
/** A range's end meaning "everything ingest holds": the latest time a Date can hold. */
export const copyToEndMs = 8_640_000_000_000_000;
const iso = (ms: number) => (ms >= copyToEndMs ? 'its newest point'
  : new Date(Math.max(ms, 0)).toISOString());
/** Where a range starts, for people: per pair, from the earliest of the pairs' starts. */
const isoFrom = (range: CopyRange) => {
  const starts = Object.values(range.startsMs ?? {});
  return starts.length === 0 ? iso(range.fromMs)
    : `each pair's newest minute held (the earliest ${iso(Math.min(...starts))})`;
};

export class HistoryCopier {
  private state: CopyState | null;
  private readonly packr = storeEncoder();
  private readonly asks: PubSubAsks;
  private stopped = false;
  private wakeUp: () => void = () => {};
  private running: Promise<void> = Promise.resolve();
  private chunksApplied = 0;
  /** Points copied as the last committed save says: what /readyz reports has survived a
   *  crash, so a front killed right after reporting N goes on from N (its cursor), not from an
   *  older one. */
  private savedPoints: number;
  private failure: string | null = null;

  constructor(private readonly recorder: HistoryRecorder,
    private readonly table: Database<CopyState, string>, private readonly link: RedisLink,
    private readonly logger: Logger, private readonly options = copyOptionsDefault) {
    this.state = table.get(stateKey) ?? null;
    this.savedPoints = this.state?.copiedPoints ?? 0;
    this.asks = new PubSubAsks(link, redisNames.historyCopyReady);
  }

  start(): void {
    this.asks.start();
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.asks.stop();
    this.wakeUp();
    await this.running;
  }

  /** Adds a range to copy (saved at once, so a restart copies it too). */
  want(range: CopyRange): void {
    if (!(range.toMs > range.fromMs)) return;
    const ranges = [...this.state?.ranges ?? [], range];
    if (ranges.length > rangesMax) {
      const [a, b] = ranges.splice(-2);
      ranges.push(mergeRanges(a!, b!));
    }
    this.logger.info('copying history the stream no longer holds from ingest',
      { from: isoFrom(range), to: iso(range.toMs) });
    this.save(this.state === null ? { ranges, cursor: firstCursor(range.fromMs), copiedPoints: 0 }
      : { ...this.state, ranges });
    this.wakeUp();
  }

  /** Changes with every chunk applied while a copy runs ('' when none): part of the ETag. */
  revision(): string {
    return this.state === null ? '' : `-c${this.chunksApplied}`;
  }

  /** What is missing and why, for /readyz; null when nothing is. */
  status(): string | null {
    const s = this.state;
    if (s === null) return null;
    const range = s.ranges[0]!;
    const what = `history from ${isoFrom(range)} to ${iso(range.toMs)} is being copied ` +
      `from ingest (${this.savedPoints} points so far` +
      (s.ranges.length > 1 ? `, ${s.ranges.length - 1} more ranges)` : ')');
    return this.failure === null ? what : `${what}; waiting: ${this.failure}`;
  }

  private save(state: CopyState | null): void {
    this.state = state;
    if (state === null) {
      void this.table.remove(stateKey);
      return;
    }
    // lmdb commits the puts in order: the last one committed is the latest state saved.
    void this.table.put(stateKey, state).then(() => { this.savedPoints = state.copiedPoints; });
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      if (this.state === null) {
        await new Promise<void>((resolve) => { this.wakeUp = resolve; });
        continue;
      }
      const failure = await this.step(this.state).catch((error: Error) => error.message);
      if (failure === null) {
        if (this.failure !== null) this.logger.info('history copy goes on');
        failures = 0;
        this.failure = null;
        continue;
      }
      if (this.stopped) return;
      if (this.failure === null) {
        this.logger.warn('history copy waits; the front answers without the missing range',
          { reason: failure, missing: this.status() });
      }
      this.failure = failure;
      const { retryMs, retryMsMax } = this.options;
      const waitMs = Math.min(retryMsMax, retryMs * 2 ** Math.min(failures++, 16));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        this.wakeUp = () => { clearTimeout(timer); resolve(); };
      });
    }
  }

  /** Asks for, applies and saves one chunk; the failure's reason, or null. */
  private async step(state: CopyState): Promise<string | null> {
    if (!this.link.ready()) return 'redis unreachable';
    const range = state.ranges[0]!;
    const key = redisNames.historyCopyChunk(randomUUID());
    const ask: CopyAsk = { key, ...range, cursor: state.cursor,
      pointsMax: this.options.pointsMax };
    const { heardBy, answered } = await this.asks.ask(redisNames.historyCopyAsk,
      JSON.stringify(ask), key, this.options.askTimeoutMs);
    if (heardBy === 0) return 'no ingest listens for copy asks';
    if (!await answered || this.stopped) return 'ingest did not answer the copy ask';
    const bytes = await this.link.command.getdelBuffer(key);
    if (bytes === null) return 'the copy chunk was gone';
    const chunk = this.packr.unpack(bytes) as CopyChunk;
    this.recorder.onHistory({ type: 'shardHistory', shardId: -1, generation: 0,
      points: chunk.minutes });
    await this.recorder.store.putHours(chunk.hours);
    // Committed before the cursor moves past it (lmdb writes commit in order).
    await this.recorder.store.flush();
    this.chunksApplied += 1;
    const copiedPoints = state.copiedPoints + chunk.minutes.length + chunk.hours.length;
    // The ranges as they are now: want() may have added one while the chunk travelled.
    const ranges = this.state?.ranges ?? state.ranges;
    if (chunk.next !== null) {
      this.save({ ranges, cursor: chunk.next, copiedPoints });
      return null;
    }
    const rest = ranges.slice(1);
    this.logger.info('history range copied from ingest', { from: isoFrom(range),
      to: iso(range.toMs), points: copiedPoints });
    this.save(rest.length === 0 ? null
      : { ranges: rest, cursor: firstCursor(rest[0]!.fromMs), copiedPoints });
    return null;
  }
}
