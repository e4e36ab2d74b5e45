// A pair's mailbox: a bounded FIFO of market events between the shard's feed and the pair actor.
import type { MarketEvent } from '../messages.js';

/**
 * Ring of events. When full, the oldest event is dropped and counted (policy: drop-oldest), so
 * a slow pair never grows memory without bound and the freshest data wins.
 *
 *   head -> [e3][e4][e5][  ][  ][e1][e2] <- tail wraps
 */
export class Mailbox {
  private readonly ring: (MarketEvent | undefined)[];
  private head = 0;
  private size = 0;
  dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new TypeError(`mailbox capacity must be a positive integer (was ${capacity})`);
    }
    this.ring = new Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  push(event: MarketEvent): void {
    if (this.size === this.capacity) {
      this.head = (this.head + 1) % this.capacity;
      this.size--;
      this.dropped++;
    }
    this.ring[(this.head + this.size) % this.capacity] = event;
    this.size++;
  }

  /** Calls `handle` for every queued event in order, emptying the mailbox. */
  drain(handle: (event: MarketEvent) => void): number {
    const count = this.size;
    for (let i = 0; i < count; i++) {
      const index = (this.head + i) % this.capacity;
      const event = this.ring[index]!;
      this.ring[index] = undefined;
      handle(event);
    }
    this.head = (this.head + count) % this.capacity;
    this.size -= count;
    return count;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.head = 0;
    this.size = 0;
  }
}
