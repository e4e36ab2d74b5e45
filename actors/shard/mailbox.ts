// A pair's mailbox: a bounded FIFO of market events between the shard's feed and the pair actor.
import type { MarketEvent } from '../../core/messages.js';
import type { BookFields, PairLane, TradeFields } from '../feed/feed-types.js';
import * as lanes from '../feed/lanes.js';

// Bound once to a module-local name: tsx's CommonJS transform makes each use of an imported
// binding a getter call.
const { bookEventOf } = lanes;

/** Book levels a side the kernels see (the venue sends 20); a mailbox keeps no more. */
export const BOOK_LEVELS_MAX = 20;
/** Books a mailbox keeps as fields; more queued at once are kept as objects (see book()). */
export const BOOK_SLOTS_MAX = 256;

/** What a mailbox drains into (the pair engine): trades and books as fields, others whole. */
export interface MailboxReader {
  trade(tsMs: number, price: number, size: number, side: 1 | -1, buyer: string | null,
    seller: string | null): void;
  /** Levels best first; the arrays are the mailbox's, valid only during the call. */
  book(tsMs: number, bidPx: Float64Array, bidSz: Float64Array, bidLevels: number,
    askPx: Float64Array, askSz: Float64Array, askLevels: number): void;
  event(event: MarketEvent): void;
}

const EVENT = 0;
const TRADE = 1;
const BOOK = 2;

/**
 * Ring of events. When full, the oldest event is dropped and counted (policy: drop-oldest), so
 * a slow pair never grows memory without bound and the freshest data wins.
 *
 *   head -> [e3][e4][e5][  ][  ][e1][e2] <- tail wraps
 *
 * Trades (~90 % of events) are kept as columns of typed arrays rather than objects: a feed
 * hands their fields (PairLane.trade) and the engine reads them back, so the hot path
 * allocates nothing. Books handed as fields go to a second ring of BOOK_SLOTS_MAX level
 * columns, in the same order (its head is the oldest queued book). Any other event is kept
 * whole in `events` at the same index.
 */
export class Mailbox implements PairLane {
  private readonly kind: Uint8Array;
  private readonly tsMs: Float64Array;
  private readonly price: Float64Array;
  private readonly size: Float64Array;
  private readonly side: Int8Array;
  private readonly buyer: (string | null)[];
  private readonly seller: (string | null)[];
  private readonly events: (MarketEvent | undefined)[];
  private readonly books = new BookRing(BOOK_SLOTS_MAX);
  private head = 0;
  private count = 0;
  dropped = 0;
  /** Events accepted since creation (the ones dropped later included). */
  pushed = 0;
  /** Called when an event arrives at an empty mailbox: the owner schedules a drain. */
  onWake: (() => void) | null = null;

  /** `symbol` names the books that overflow the book ring as objects. */
  constructor(readonly capacity: number, readonly symbol: string) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new TypeError(`mailbox capacity must be a positive integer (was ${capacity})`);
    }
    this.kind = new Uint8Array(capacity);
    this.tsMs = new Float64Array(capacity);
    this.price = new Float64Array(capacity);
    this.size = new Float64Array(capacity);
    this.side = new Int8Array(capacity);
    this.buyer = new Array<string | null>(capacity).fill(null);
    this.seller = new Array<string | null>(capacity).fill(null);
    this.events = new Array<MarketEvent | undefined>(capacity).fill(undefined);
  }

  get length(): number {
    return this.count;
  }

  trade(t: TradeFields): void {
    const i = this.slot();
    this.kind[i] = TRADE;
    this.tsMs[i] = t.tsMs;
    this.price[i] = t.price;
    this.size[i] = t.size;
    this.side[i] = t.side;
    this.buyer[i] = t.buyer;
    this.seller[i] = t.seller;
  }

  /**
   * A book as fields: its first BOOK_LEVELS_MAX levels a side are copied into the book ring.
   * When that ring is full (a burst larger than any drain normally sees), the book is queued
   * as an object instead: nothing more is dropped, and memory stays bounded by `capacity`.
   */
  book(b: BookFields): void {
    if (this.books.count === this.books.capacity) return this.event(bookEventOf(this.symbol, b));
    const i = this.slot();
    this.kind[i] = BOOK;
    this.books.push(b);
  }

  /** Any other event, or a trade or book that arrives as an object (live, sim, JSON lines). */
  event(event: MarketEvent): void {
    const i = this.slot();
    this.kind[i] = EVENT;
    this.events[i] = event;
  }

  /** Hands every queued event to `reader` in order, emptying the mailbox; returns the count. */
  drain(reader: MailboxReader): number {
    const count = this.count;
    const kind = this.kind;
    let i = this.head;
    for (let k = 0; k < count; k++) {
      const what = kind[i];
      if (what === TRADE) {
        reader.trade(this.tsMs[i], this.price[i], this.size[i], this.side[i] as 1 | -1,
          this.buyer[i], this.seller[i]);
      } else if (what === BOOK) {
        this.books.shift(reader);
      } else {
        const event = this.events[i]!;
        this.events[i] = undefined;
        reader.event(event);
      }
      i = i + 1 === this.capacity ? 0 : i + 1;
    }
    this.head = i;
    this.count -= count;
    return count;
  }

  clear(): void {
    this.events.fill(undefined);
    this.buyer.fill(null);
    this.seller.fill(null);
    this.books.clear();
    this.head = 0;
    this.count = 0;
  }

  /** The index for the next event: wakes the owner when empty, drops the oldest when full. */
  private slot(): number {
    this.pushed++;
    if (this.count === 0) this.onWake?.();
    if (this.count === this.capacity) {
      if (this.kind[this.head] === BOOK) this.books.drop();
      this.events[this.head] = undefined;
      this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
      this.count--;
      this.dropped++;
    }
    const i = this.head + this.count;
    this.count++;
    return i >= this.capacity ? i - this.capacity : i;
  }
}

/** FIFO of books as level columns: slot k holds its levels at [k * BOOK_LEVELS_MAX, ...). */
class BookRing {
  private readonly tsMs: Float64Array;
  private readonly bidLevels: Uint8Array;
  private readonly askLevels: Uint8Array;
  private readonly bidPx: Float64Array;
  private readonly bidSz: Float64Array;
  private readonly askPx: Float64Array;
  private readonly askSz: Float64Array;
  /** What shift() hands out: the kernels take levels from index 0. */
  private readonly out = {
    bidPx: new Float64Array(BOOK_LEVELS_MAX), bidSz: new Float64Array(BOOK_LEVELS_MAX),
    askPx: new Float64Array(BOOK_LEVELS_MAX), askSz: new Float64Array(BOOK_LEVELS_MAX),
  };
  private head = 0;
  count = 0;

  constructor(readonly capacity: number) {
    const levels = () => new Float64Array(capacity * BOOK_LEVELS_MAX);
    this.tsMs = new Float64Array(capacity);
    this.bidLevels = new Uint8Array(capacity);
    this.askLevels = new Uint8Array(capacity);
    this.bidPx = levels();
    this.bidSz = levels();
    this.askPx = levels();
    this.askSz = levels();
  }

  /** Appends a book (the caller checked count < capacity). */
  push(b: BookFields): void {
    let k = this.head + this.count;
    if (k >= this.capacity) k -= this.capacity;
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
  shift(reader: MailboxReader): void {
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
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
    this.count--;
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
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
