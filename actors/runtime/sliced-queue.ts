// Main-thread work that arrives as messages (the shards' publishes), applied in arrival order in
// slices of about `sliceMs` (sliced.ts), so one message never holds the event loop for long.
//
// Why: a shard's publish carries dozens of pairs; storing their views, splicing and hashing the
// deep views and rebuilding each pair detail in one task would make every poll that arrived
// meanwhile wait for all of it.
import { runSliced } from './sliced.js';

export class SlicedQueue<T> {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(
    /** The work of one message, as a generator that yields between small units. */
    private readonly apply: (item: T) => Iterator<unknown>,
    private readonly sliceMs: number,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Queues a message; it starts once every earlier one is applied. */
  push(item: T): void {
    this.queued++;
    this.tail = this.tail.then(() => runSliced(this.apply(item), this.sliceMs))
      .catch((error: Error) => this.onError(error))
      .finally(() => { this.queued--; });
  }

  /** Messages pushed and not yet applied (nor failed). */
  get pending(): number {
    return this.queued;
  }

  /** Settles once every message pushed so far is applied (or failed, and was reported). */
  drained(): Promise<void> {
    return this.tail;
  }
}
