// The shards' outputs that go to the store (closed bars and entry signals, 1-minute history
// points), written in small batches after the views they came with, so readiness and polls do
// not wait for them. A warm-up's first publish carries its whole past: ~30,000 bars and signals
// and ~65,000 history points a shard, about a second of lmdb writes on the main thread, which
// /readyz used to wait behind though it needs only the views.
import { endSlice } from './sliced.js';
import { SlicedQueue } from './sliced-queue.js';

/** Items written per turn: their store writes (after the turn) stay a few milliseconds. */
const itemsPerTurn = 500;
/** The turns' own slice (the writes they queue run after it, see endSlice). */
const sliceMs = 1;

interface Batch {
  readonly items: readonly unknown[];
  readonly write: (items: readonly unknown[]) => void;
}

export class StoreAfterViews {
  private readonly queue: SlicedQueue<Batch>;

  constructor(
    /** True while views are still to be applied: those go first. */
    private readonly viewsPending: () => boolean,
    onError: (error: Error) => void,
  ) {
    this.queue = new SlicedQueue((batch: Batch) => this.writeInTurns(batch), sliceMs, onError);
  }

  /** Queues `items`; they reach `write` in order, a few hundred a turn. */
  push<T>(items: readonly T[], write: (items: readonly T[]) => void): void {
    if (items.length === 0) return;
    this.queue.push({ items, write: write as Batch['write'] });
  }

  /** Settles once everything pushed so far is written (or failed, and was reported). */
  drained(): Promise<void> {
    return this.queue.drained();
  }

  private *writeInTurns(batch: Batch): Generator<unknown> {
    for (let i = 0; i < batch.items.length; i += itemsPerTurn) {
      while (this.viewsPending()) yield endSlice;
      batch.write(batch.items.length <= itemsPerTurn ? batch.items
        : batch.items.slice(i, i + itemsPerTurn));
      yield endSlice;
    }
  }
}
