// A shard's past, held until the main thread asks for it (docs/decisions.md, Warm start).
//
// Why: a warm-up's first publish carries the whole week a shard's pairs went through: ~30,000
// closed bars and entry signals and 14,000-20,000 history points. Sent with the views, the main
// thread read them in one structured-clone task each (0.3-0.5 s per message, bench/README.md,
// Warm start), before the other shard's views and so before /readyz, though readiness needs only
// the views. So a large batch leaves as views at once and its past in chunks that the main thread
// pulls one at a time over the hand-over port once every tracked pair's views are in
// (actors/runtime/past-puller.ts): each chunk is one short task there, and nothing reads the past
// ahead of a view.
//
// Order is kept: once something is held, every later bar, signal, history point and saved state
// is held behind it, so the store still never holds a state ahead of what it follows.
import type { PastMessage } from './protocol.js';

/** A batch with at least this many bars, signals and history points is held (a warm-up's). */
export const pastHoldItemsMin = 2_000;
/** Items per chunk: small enough that the main thread's structured clone of one stays short. */
export const pastChunkItems = 1_000;
/** Held messages at most; beyond it (a main thread that stopped pulling) they are sent. */
export const pastHeldMessagesMax = 1_000;

interface Held {
  readonly message: PastMessage;
  readonly transfer: readonly ArrayBuffer[];
}

/** Splits `items` into arrays of at most `size` (the array itself when it fits). */
export function chunked<T>(items: readonly T[], size: number): (readonly T[])[] {
  if (items.length <= size) return items.length === 0 ? [] : [items];
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}

export class PastQueue {
  private readonly held: Held[] = [];

  /** Messages held and not yet taken. */
  get size(): number {
    return this.held.length;
  }

  /** Whether a batch of `items` past items is held: a large one, or anything behind one. */
  holds(items: number): boolean {
    return this.held.length > 0 || items >= pastHoldItemsMin;
  }

  hold(message: PastMessage, transfer: readonly ArrayBuffer[] = []): void {
    this.held.push({ message, transfer });
  }

  /** Whether the queue passed its bound: the caller sends everything at once. */
  get full(): boolean {
    return this.held.length > pastHeldMessagesMax;
  }

  /** The oldest held message, taken off the queue (a few dozen held: shift is cheap). */
  take(): Held | undefined {
    return this.held.shift();
  }
}
