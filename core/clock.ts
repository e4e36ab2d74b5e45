// Clocks: everything that depends on time takes one, so tests can travel in time.

/** A source of the current instant, in epoch milliseconds. */
export interface Clock {
  nowMs(): number;
}

/** The wall clock. */
export const systemClock: Clock = { nowMs: () => Date.now() };

/**
 * The service (delivery) clock: the wall clock shifted so that it read `startMs` when created,
 * running forward at real speed (DECISIONS.md, `--clock-start`).
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
