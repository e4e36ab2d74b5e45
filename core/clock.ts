// Clocks: everything that depends on time takes one, so tests can travel in time.

/** A source of the current instant, in epoch milliseconds. */
export interface Clock {
  nowMs(): number;
}

/** The wall clock. */
export const systemClock: Clock = { nowMs: () => Date.now() };

/**
 * The wall clock with a fraction of a millisecond: when the process started (to the
 * microsecond) plus the monotonic time since. For delays measured between processes (a frame
 * stamped on ingest, applied on a front), where Date.now()'s whole milliseconds would be most of
 * a 5 ms figure.
 */
export function preciseWallMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * The service (delivery) clock: the wall clock shifted so that it read `startMs` when created,
 * running forward at real speed (docs/decisions.md, `--clock-start`).
 */
export function shiftedClock(startMs: number, base: Clock = systemClock): Clock {
  const offsetMs = startMs - base.nowMs();
  return { nowMs: () => base.nowMs() + offsetMs };
}

/** A clock that only moves when told to: for tests. */
export class ManualClock implements Clock {
  private currentMs: number;
  constructor(startMs: number) {
    this.currentMs = startMs;
  }
  nowMs(): number {
    return this.currentMs;
  }
  set(ms: number): void {
    this.currentMs = ms;
  }
  advance(ms: number): void {
    this.currentMs += ms;
  }
}
