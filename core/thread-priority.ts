// The worker threads (shards, views worker) run at a lower CPU priority than the main thread,
// which answers every request: when the cores are busy, the kernel runs the front first and
// the analytics a moment later, instead of a poll waiting out a shard's time slice. On Linux
// a nice value belongs to a thread, and setpriority on "this process" renices only the
// calling thread; elsewhere it would renice the whole process, so it is skipped there.
import { getPriority, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** Nice increment of the worker threads over the main thread's (0: leave them alone). */
export const workerNiceDefault = 10;
const niceMax = 19;

/** Lowers the calling worker thread's priority by `increment`; false when it did not. */
export function lowerWorkerPriority(increment: number = workerNiceDefault,
  platform: NodeJS.Platform = process.platform, mainThread = isMainThread): boolean {
  if (mainThread || platform !== 'linux' || increment <= 0) return false;
  try {
    setPriority(Math.min(niceMax, getPriority() + increment));
    return true;
  } catch {
    // Refused (a sandbox's seccomp filter, say): the thread keeps the main thread's priority.
    return false;
  }
}
