// The shards' outputs that go to the store (closed bars and entry signals, 1-minute history
// points), written in small batches after the views they came with, so readiness and polls do
// not wait for them. A warm-up's first publish carries its whole past, tens of thousands of
// bars, signals and history points a shard: lmdb writes that /readyz does not need.
import { performance } from 'node:perf_hooks';
import { endSlice } from './sliced.js';
import { SlicedQueue } from './sliced-queue.js';

/**
 * What one turn's writes may cost the main thread, the store work they queue for a microtask
 * included: the items per turn follow it, since a fixed count that suits a steady cadence's few
 * dozen items holds the loop far too long with a warm-up's past under load.
 */
const turnTargetMs = 2;
/** Bounds of the items per turn: the first turn's, the least and the most. */
const itemsFirstTurn = 100;
const itemsPerTurnMin = 20;
const itemsPerTurnMax = 500;
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

  /**
   * From now on everything queued is written at once, views or not: at a stop nothing is served
   * any more, and turns of 2 ms made the writes after a warm-up take seconds.
   */
  hurry(): void {
    this.hurried = true;
  }

  /** Back to turns of a few ms: clients are served now (the warm-up's past is written). */
  calm(): void {
    this.hurried = false;
  }

  /** Batches pushed and not yet written. */
  get pending(): number {
    return this.queue.pending;
  }

  /** Settles once everything pushed so far is written (or failed, and was reported). */
  drained(): Promise<void> {
    return this.queue.drained();
  }

  private itemsPerTurn = itemsFirstTurn;
  private hurried = false;

  private *writeInTurns(batch: Batch): Generator<unknown> {
    for (let i = 0; i < batch.items.length;) {
      if (this.hurried) {
        batch.write(i === 0 ? batch.items : batch.items.slice(i));
        return;
      }
      while (this.viewsPending()) yield endSlice;
      const count = this.itemsPerTurn;
      const startMs = performance.now();
      batch.write(i === 0 && batch.items.length <= count ? batch.items
        : batch.items.slice(i, i + count));
      i += count;
      // Queued after the writers' own microtasks (the history store's puts), so it sees them.
      queueMicrotask(() => this.adapt(count, performance.now() - startMs));
      yield endSlice;
    }
  }

  /** Items for the next turn from what `count` took: toward the target, at most doubling. */
  private adapt(count: number, tookMs: number): void {
    const toTarget = Math.floor((count * turnTargetMs) / Math.max(tookMs, 0.01));
    this.itemsPerTurn = Math.max(itemsPerTurnMin,
      Math.min(itemsPerTurnMax, 2 * count, toTarget));
  }
}
