// A pair's mailbox: a bounded FIFO of market events between the shard's feed and the pair actor.
import type { MarketEvent } from '../../core/messages.js';
import type { BookFields, PairLane, TradeFields } from '../feed/feed-types.js';
import * as lanes from '../feed/lanes.js';
import { BookRing, type BookReader } from './book-ring.js';
import { unwrapColumn, unwrapSlots } from './ring-growth.js';

// Bound once to a module-local name: tsx's CommonJS transform makes each use of an imported
// binding a getter call.
const { bookEventOf } = lanes;

export { BOOK_LEVELS_MAX } from './book-ring.js';
/** Books a mailbox keeps as fields; more queued at once are kept as objects (see book()). */
export const BOOK_SLOTS_MAX = 256;
/**
 * Slots a mailbox starts with; it doubles when full, up to its capacity. Between drains a pair
 * queues ~10-30 events live and ~1,000-2,000 in a max-speed warm-up: columns sized whole at
 * the 8,192 bound were ~400 KB a pair (typed columns plus three arrays in the JS heap), most
 * of it never used.
 */
const MAILBOX_SLOTS_START = 64;

/** What a mailbox drains into (the pair engine): trades and books as fields, others whole. */
export interface MailboxReader extends BookReader {
  trade(tsMs: number, price: number, size: number, side: 1 | -1, buyer: string | null,
    seller: string | null): void;
  event(event: MarketEvent): void;
}

const EVENT = 0;
const TRADE = 1;
const BOOK = 2;

/**
 * Ring of events. When its columns are full they double, up to `capacity`; at capacity the
 * oldest event is dropped and counted (policy: drop-oldest), so a slow pair never grows memory
 * without bound and the freshest data wins.
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
  private kind: Uint8Array;
  private tsMs: Float64Array;
  private price: Float64Array;
  private size: Float64Array;
  private side: Int8Array;
  private buyer: (string | null)[];
  private seller: (string | null)[];
  private events: (MarketEvent | undefined)[];
  private readonly books = new BookRing(BOOK_SLOTS_MAX);
  /** Length of the columns: MAILBOX_SLOTS_START doubled as needed, at most `capacity`. */
  private slots: number;
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
    const slots = Math.min(capacity, MAILBOX_SLOTS_START);
    this.slots = slots;
    this.kind = new Uint8Array(slots);
    this.tsMs = new Float64Array(slots);
    this.price = new Float64Array(slots);
    this.size = new Float64Array(slots);
    this.side = new Int8Array(slots);
    this.buyer = new Array<string | null>(slots).fill(null);
    this.seller = new Array<string | null>(slots).fill(null);
    this.events = new Array<MarketEvent | undefined>(slots).fill(undefined);
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
    if (this.books.full) return this.event(bookEventOf(this.symbol, b));
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
      i = i + 1 === this.slots ? 0 : i + 1;
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

  /**
   * The index for the next event: wakes the owner when empty; when the columns are full, grows
   * them, or at capacity drops the oldest.
   */
  private slot(): number {
    this.pushed++;
    if (this.count === 0) this.onWake?.();
    if (this.count === this.slots) {
      if (this.slots < this.capacity) this.grow();
      else this.dropOldest();
    }
    const i = this.head + this.count;
    this.count++;
    return i >= this.slots ? i - this.slots : i;
  }

  private dropOldest(): void {
    if (this.kind[this.head] === BOOK) this.books.drop();
    this.events[this.head] = undefined;
    this.head = this.head + 1 === this.slots ? 0 : this.head + 1;
    this.count--;
    this.dropped++;
  }

  /** Doubles the columns (the queued events keep their order; the head moves to slot 0). */
  private grow(): void {
    const slots = Math.min(this.capacity, this.slots * 2);
    const { head, count } = this;
    this.kind = unwrapColumn(this.kind, new Uint8Array(slots), head, count);
    this.tsMs = unwrapColumn(this.tsMs, new Float64Array(slots), head, count);
    this.price = unwrapColumn(this.price, new Float64Array(slots), head, count);
    this.size = unwrapColumn(this.size, new Float64Array(slots), head, count);
    this.side = unwrapColumn(this.side, new Int8Array(slots), head, count);
    this.buyer = unwrapSlots(this.buyer, slots, null, head, count);
    this.seller = unwrapSlots(this.seller, slots, null, head, count);
    this.events = unwrapSlots(this.events, slots, undefined, head, count);
    this.slots = slots;
    this.head = 0;
  }
}
