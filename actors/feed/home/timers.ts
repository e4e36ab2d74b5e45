// Timers for the backfill's waits (request budget, the bounded wait before /readyz, the hold
// bound): real ones in the service; tests and the backfill bench pass timers on simulated time,
// so minutes of the venue's budget pass without minutes of waiting.

/** A timer that can be cancelled (what `setTimeout` returns, or a simulated timer's handle). */
export type TimerHandle = unknown;

export interface Timers {
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const realTimers: Timers = {
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Resolves after `delayMs` on `timers`. */
export function sleepOn(timers: Timers, delayMs: number): Promise<void> {
  return new Promise((resolve) => { timers.setTimeout(resolve, delayMs); });
}
