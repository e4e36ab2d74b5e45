// A pair's mailbox: a bounded FIFO of market events between the shard's feed and the pair actor.
import type { MarketEvent } from '../messages.js';
import type { PairLane, TradeFields } from '../feed/feed-types.js';

/** What a mailbox drains into (the pair engine): trades as fields, other events whole. */
export interface MailboxReader {
  trade(tsMs: number, price: number, size: number, side: 1 | -1, buyer: string | null,
    seller: string | null): void;
  event(event: MarketEvent): void;
}

/**
 * Ring of events. When full, the oldest event is dropped and counted (policy: drop-oldest), so
 * a slow pair never grows memory without bound and the freshest data wins.
 *
 *   head -> [e3][e4][e5][  ][  ][e1][e2] <- tail wraps
 *
 * Trades (~90 % of events) are kept as columns of typed arrays rather than objects: a feed
 * hands their fields (PairLane.trade) and the engine reads them back, so the hot path
 * allocates nothing. Any other event is kept whole in `events` at the same index.
 */
export class Mailbox implements PairLane {
  private readonly isTrade: Uint8Array;
  private readonly tsMs: Float64Array;
  private readonly price: Float64Array;
  private readonly size: Float64Array;
  private readonly side: Int8Array;
  private readonly buyer: (string | null)[];
  private readonly seller: (string | null)[];
  private readonly events: (MarketEvent | undefined)[];
  private head = 0;
  private count = 0;
  dropped = 0;
  /** Events accepted since creation (the ones dropped later included). */
  pushed = 0;
  /** Called when an event arrives at an empty mailbox: the owner schedules a drain. */
  onWake: (() => void) | null = null;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new TypeError(`mailbox capacity must be a positive integer (was ${capacity})`);
    }
    this.isTrade = new Uint8Array(capacity);
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
    this.isTrade[i] = 1;
    this.tsMs[i] = t.tsMs;
    this.price[i] = t.price;
    this.size[i] = t.size;
    this.side[i] = t.side;
    this.buyer[i] = t.buyer;
    this.seller[i] = t.seller;
  }

  /** Any other event, or a trade that arrives as an object (live, sim, JSON lines). */
  event(event: MarketEvent): void {
    const i = this.slot();
    this.isTrade[i] = 0;
    this.events[i] = event;
  }

  /** Hands every queued event to `reader` in order, emptying the mailbox; returns the count. */
  drain(reader: MailboxReader): number {
    const count = this.count;
    let i = this.head;
    for (let k = 0; k < count; k++) {
      if (this.isTrade[i] === 1) {
        reader.trade(this.tsMs[i], this.price[i], this.size[i], this.side[i] as 1 | -1,
          this.buyer[i], this.seller[i]);
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
    this.head = 0;
    this.count = 0;
  }

  /** The index for the next event: wakes the owner when empty, drops the oldest when full. */
  private slot(): number {
    this.pushed++;
    if (this.count === 0) this.onWake?.();
    if (this.count === this.capacity) {
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
