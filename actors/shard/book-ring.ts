// A mailbox's FIFO of books as level columns (books a feed hands as fields, see mailbox.ts).
import type { BookFields } from '../feed/feed-types.js';
import { unwrapColumn } from './ring-growth.js';

/** Book levels a side the kernels see (the venue sends 20); a mailbox keeps no more. */
export const BOOK_LEVELS_MAX = 20;
/** Slots a ring starts with: a drain per event-loop turn rarely finds more than one book. */
const BOOK_SLOTS_START = 8;

/** What a ring hands its books to (the pair engine, through the mailbox's reader). */
export interface BookReader {
  /** Levels best first; the arrays are the ring's, valid only during the call. */
  book(tsMs: number, bidPx: Float64Array, bidSz: Float64Array, bidLevels: number,
    askPx: Float64Array, askSz: Float64Array, askLevels: number): void;
}

/**
 * Slot k holds its levels at [k * BOOK_LEVELS_MAX, ...) of each level column. The columns start
 * at BOOK_SLOTS_START slots and double when full, up to `capacity` (the owner checks `full`
 * before a push): 256 slots are ~160 KB a pair, which the simulator (books as objects) never
 * used and a live pair rarely needs.
 */
export class BookRing {
  private tsMs: Float64Array;
  private bidLevels: Uint8Array;
  private askLevels: Uint8Array;
  private bidPx: Float64Array;
  private bidSz: Float64Array;
  private askPx: Float64Array;
  private askSz: Float64Array;
  /** What shift() hands out: the kernels take levels from index 0. */
  private readonly out = {
    bidPx: new Float64Array(BOOK_LEVELS_MAX), bidSz: new Float64Array(BOOK_LEVELS_MAX),
    askPx: new Float64Array(BOOK_LEVELS_MAX), askSz: new Float64Array(BOOK_LEVELS_MAX),
  };
  private slots: number;
  private head = 0;
  count = 0;

  constructor(readonly capacity: number) {
    this.slots = Math.min(capacity, BOOK_SLOTS_START);
    const levels = () => new Float64Array(this.slots * BOOK_LEVELS_MAX);
    this.tsMs = new Float64Array(this.slots);
    this.bidLevels = new Uint8Array(this.slots);
    this.askLevels = new Uint8Array(this.slots);
    this.bidPx = levels();
    this.bidSz = levels();
    this.askPx = levels();
    this.askSz = levels();
  }

  get full(): boolean {
    return this.count === this.capacity;
  }

  /** Appends a book (the caller checked `full`). */
  push(b: BookFields): void {
    if (this.count === this.slots) this.grow();
    let k = this.head + this.count;
    if (k >= this.slots) k -= this.slots;
    this.count++;
    const bids = Math.min(b.bidLevels, BOOK_LEVELS_MAX);
    const asks = Math.min(b.askLevels, BOOK_LEVELS_MAX);
    this.tsMs[k] = b.tsMs;
    this.bidLevels[k] = bids;
    this.askLevels[k] = asks;
    const at = k * BOOK_LEVELS_MAX;
    copyLevels(b.bidPx, b.bidSz, 0, this.bidPx, this.bidSz, at, bids);
    copyLevels(b.askPx, b.askSz, 0, this.askPx, this.askSz, at, asks);
  }

  /** Hands the oldest book to `reader` and frees its slot. */
  shift(reader: BookReader): void {
    const k = this.head;
    const bids = this.bidLevels[k];
    const asks = this.askLevels[k];
    const at = k * BOOK_LEVELS_MAX;
    const o = this.out;
    copyLevels(this.bidPx, this.bidSz, at, o.bidPx, o.bidSz, 0, bids);
    copyLevels(this.askPx, this.askSz, at, o.askPx, o.askSz, 0, asks);
    this.drop();
    reader.book(this.tsMs[k], o.bidPx, o.bidSz, bids, o.askPx, o.askSz, asks);
  }

  /** Frees the oldest slot. */
  drop(): void {
    this.head = this.head + 1 === this.slots ? 0 : this.head + 1;
    this.count--;
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }

  /** Doubles the columns (the queued books keep their order; the head moves to slot 0). */
  private grow(): void {
    const slots = Math.min(this.capacity, this.slots * 2);
    const { head, count } = this;
    const levels = (from: Float64Array) =>
      unwrapColumn(from, new Float64Array(slots * BOOK_LEVELS_MAX), head, count, BOOK_LEVELS_MAX);
    this.tsMs = unwrapColumn(this.tsMs, new Float64Array(slots), head, count);
    this.bidLevels = unwrapColumn(this.bidLevels, new Uint8Array(slots), head, count);
    this.askLevels = unwrapColumn(this.askLevels, new Uint8Array(slots), head, count);
    this.bidPx = levels(this.bidPx);
    this.bidSz = levels(this.bidSz);
    this.askPx = levels(this.askPx);
    this.askSz = levels(this.askSz);
    this.slots = slots;
    this.head = 0;
  }
}

/** `levels` prices and sizes from `from` to `to`: one loop over locals, no property reads. */
function copyLevels(px: Float64Array, sz: Float64Array, from: number, toPx: Float64Array,
  toSz: Float64Array, to: number, levels: number): void {
  for (let l = 0; l < levels; l++) {
    toPx[to + l] = px[from + l];
    toSz[to + l] = sz[from + l];
  }
}
