// Runs long main-thread work in slices: the work is a generator that yields between small units,
// and each event-loop turn runs units for about `sliceMs`, then lets HTTP and the feeds in.
import { performance } from 'node:perf_hooks';

/**
 * Yielded by a unit whose cost comes after its turn (a store write queued for a microtask, which
 * the slice's clock does not see): the slice ends there, and the work goes on next turn.
 */
export const endSlice: unique symbol = Symbol('endSlice');

/** Runs the generator to its end across turns; rejects with what it threw. */
export function runSliced(work: Iterator<unknown>, sliceMs: number): Promise<void> {
  if (!(sliceMs > 0)) throw new RangeError(`sliceMs must be positive (was ${sliceMs})`);
  return new Promise<void>((resolve, reject) => {
    const turn = () => {
      const untilMs = performance.now() + sliceMs;
      try {
        // A unit is at most a few hundred microseconds: checking the time after each is cheap.
        do {
          const unit = work.next();
          if (unit.done) {
            resolve();
            return;
          }
          if (unit.value === endSlice) break;
        } while (performance.now() < untilMs);
      } catch (error) {
        reject(error);
        return;
      }
      setImmediate(turn);
    };
    turn();
  });
}
