// Items queued for one lmdb write per event turn: a full batch (batchMax) is written at once,
// the rest at the end of the turn; flush() waits for the last write to commit.

export interface WriteBatch<T> {
  add(item: T): void;
  /** Writes what waits and resolves when every write so far is committed. */
  flush(): Promise<void>;
}

/** `writeAll` writes one batch and returns the promise of its last write (undefined: none). */
export function createWriteBatch<T>(batchMax: number,
  writeAll: (batch: readonly T[]) => Promise<unknown> | undefined): WriteBatch<T> {
  let pending: T[] = [];
  let scheduled = false;
  let lastWrite: Promise<unknown> = Promise.resolve();
  const write = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    lastWrite = writeAll(batch) ?? lastWrite;
  };
  return {
    add(item) {
      pending.push(item);
      if (pending.length >= batchMax) write();
      else if (!scheduled) {
        scheduled = true;
        queueMicrotask(write);
      }
    },
    async flush() {
      write();
      await lastWrite;
    },
  };
}
