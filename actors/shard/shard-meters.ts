// Each shard's metrics, written by its worker into a SharedArrayBuffer and read by the main
// thread at scrape time: no message per event, and none per scrape. One writer per slot (the
// shard's own thread); a reader may see a count one event old, which a scrape does not mind.
//
//   shard i: [connected][reconnects][frames x4][waiting x2][refused x2][mailbox depth]
//            [events in x5][dropped][market ms][lag histogram cells][slice histogram cells]
import { BucketHistogram, histogramCells } from '../../core/metrics/bucket-histogram.js';
import {
  feedChannels, type BudgetBucket, type FeedMeters,
} from '../feed/feed-meters.js';

/** Venue time to arrival, seconds: a healthy link is tens of ms, a stalled one seconds. */
export const feedLagBoundsS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** One pair's drain of its mailbox, seconds: live it is well under a ms, a warm-up's tens. */
export const sliceBoundsS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
  0.1, 0.25];
/** Event types counted apart (core/messages.ts); the rest count as 'other'. */
export const eventTypes = ['trade', 'book', 'ctx', 'gap', 'other'] as const;
export const budgetBuckets: readonly BudgetBucket[] = ['rest', 'ws'];

const CONNECTED = 0;
const RECONNECTS = 1;
const FRAMES = 2;
const WAITING = FRAMES + feedChannels.length;
const REFUSED = WAITING + 2;
const DEPTH = REFUSED + 2;
const EVENTS = DEPTH + 1;
const DROPPED = EVENTS + eventTypes.length;
const MARKET = DROPPED + 1;
const LAG = MARKET + 1;
const SLICE = LAG + histogramCells(feedLagBoundsS);
const SLOTS = SLICE + histogramCells(sliceBoundsS);

/** What a shard's feed and mailboxes say at the moment (written once a second). */
export interface ShardState {
  /** 1 connected, 0 not; NaN: the feed has no connection (simulator, replay). */
  readonly connected: number;
  readonly reconnects: number;
  readonly mailboxDepth: number;
  readonly eventsByType: Readonly<Record<string, number>>;
  readonly dropped: number;
  /** Market time of the newest event the feed handed on (NaN before the first). */
  readonly marketMs: number;
}

/** One shard's slots: its worker writes them, the main thread reads them. */
export class ShardMeters implements FeedMeters {
  private readonly cells: Float64Array<ArrayBufferLike>;
  readonly lagHistogram: BucketHistogram;
  readonly sliceHistogram: BucketHistogram;

  constructor(buffer: SharedArrayBuffer, readonly shardId: number) {
    this.cells = new Float64Array(buffer, shardId * SLOTS * 8, SLOTS);
    this.lagHistogram = new BucketHistogram(feedLagBoundsS,
      this.cells.subarray(LAG, LAG + histogramCells(feedLagBoundsS)));
    this.sliceHistogram = new BucketHistogram(sliceBoundsS,
      this.cells.subarray(SLICE, SLICE + histogramCells(sliceBoundsS)));
  }

  /** A buffer for `shardCount` shards; a feed without a connection reads NaN until it says. */
  static create(shardCount: number): SharedArrayBuffer {
    const buffer = new SharedArrayBuffer(SLOTS * 8 * shardCount);
    for (let id = 0; id < shardCount; id++) new Float64Array(buffer, id * SLOTS * 8, 1)[0] = NaN;
    return buffer;
  }

  frame(channel: number): void {
    this.cells[FRAMES + channel]!++;
  }

  lag(seconds: number): void {
    this.lagHistogram.observe(seconds);
  }

  waiting(bucket: BudgetBucket, count: number): void {
    this.cells[WAITING + (bucket === 'rest' ? 0 : 1)] = count;
  }

  refused(bucket: BudgetBucket): void {
    this.cells[REFUSED + (bucket === 'rest' ? 0 : 1)]!++;
  }

  slice(seconds: number): void {
    this.sliceHistogram.observe(seconds);
  }

  /** The feed's and mailboxes' state now (the shard writes it once a second). */
  write(state: ShardState): void {
    const { cells } = this;
    cells[CONNECTED] = state.connected;
    cells[RECONNECTS] = state.reconnects;
    cells[DEPTH] = state.mailboxDepth;
    cells[DROPPED] = state.dropped;
    cells[MARKET] = state.marketMs;
    cells.fill(0, EVENTS, EVENTS + eventTypes.length);
    for (const [type, count] of Object.entries(state.eventsByType)) {
      const i = eventTypes.indexOf(type as (typeof eventTypes)[number]);
      cells[EVENTS + (i < 0 ? eventTypes.length - 1 : i)]! += count;
    }
  }

  get connected(): number { return this.cells[CONNECTED]!; }
  get reconnects(): number { return this.cells[RECONNECTS]!; }
  get mailboxDepth(): number { return this.cells[DEPTH]!; }
  get dropped(): number { return this.cells[DROPPED]!; }
  get marketMs(): number { return this.cells[MARKET]!; }
  frames(channel: number): number { return this.cells[FRAMES + channel]!; }
  eventsIn(type: number): number { return this.cells[EVENTS + type]!; }
  waitingNow(bucket: BudgetBucket): number {
    return this.cells[WAITING + (bucket === 'rest' ? 0 : 1)]!;
  }
  refusedTotal(bucket: BudgetBucket): number {
    return this.cells[REFUSED + (bucket === 'rest' ? 0 : 1)]!;
  }
}
