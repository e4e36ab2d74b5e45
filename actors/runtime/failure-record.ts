// A shard's recent failures, within a sliding window: how long its next restart waits, and when
// restarting is given up (the service then runs degraded instead of looping).

export class FailureRecord {
  private readonly atMs: number[] = [];
  /** Why it failed last (for /readyz and the log). */
  lastReason = '';

  constructor(readonly max: number, readonly windowMs: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`max must be >= 1 (was ${max})`);
    if (!(windowMs > 0)) throw new RangeError(`windowMs must be > 0 (was ${windowMs})`);
  }

  /** Records a failure at `nowMs` (monotonic); returns the failures within the window. */
  add(nowMs: number, reason: string): number {
    this.lastReason = reason;
    this.atMs.push(nowMs);
    while (this.atMs.length > 0 && this.atMs[0] <= nowMs - this.windowMs) this.atMs.shift();
    // Bounded: only the newest `max` matter.
    if (this.atMs.length > this.max) this.atMs.shift();
    return this.atMs.length;
  }

  /** `max` failures within the window: restarting is given up. */
  get exhausted(): boolean {
    return this.atMs.length >= this.max;
  }
}
