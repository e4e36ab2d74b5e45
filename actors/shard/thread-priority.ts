// A shard worker's own CPU priority. On a box where the shards share cores with the main thread
// (one box, `--role all`: the main thread answers every request), a shard's burst (its cadence's
// views, a feed's backlog) held a core the main thread's next request then waited for, a slice
// and often a scheduler tick (bench/README.md, "Shard workers below the main thread"). At nice 10
// a shard still gets every core nobody else wants, and yields it to a woken main thread.
import { getPriority, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** The nice value shard workers run at (or lower, when the whole process already is). */
export const SHARD_THREAD_NICE = 10;

/**
 * Lowers the calling worker thread to `nice`; never raises it (that needs privileges), and
 * leaves the main thread alone (an in-memory shard in a test runs on it). Only on Linux, where a
 * nice value is a thread's own: elsewhere the call would lower the whole process. Returns
 * whether it lowered.
 */
export function lowerWorkerThread(nice: number): boolean {
  if (process.platform !== 'linux' || isMainThread || nice <= 0) return false;
  try {
    if (getPriority(0) >= nice) return false;
    setPriority(0, nice);
    return true;
  } catch {
    // A container that forbids it: the shard runs at the process's priority, as before.
    return false;
  }
}
