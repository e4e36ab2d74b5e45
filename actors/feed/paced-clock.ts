// Market time for a generated feed that must not outrun what its consumer absorbs: it runs at
// most `speed` x the service clock (speed is an upper bound), stops gaining while the consumer
// lags it by more than `lagMaxMs`, and never passes a limit (the slowest other shard plus a
// lead). Market time is never skipped: a consumer that falls behind makes it run slower.
import type { Clock } from '../../core/clock.js';

export interface PacedClockOptions {
  readonly clock: Clock;
  /** Multiple of real time; Infinity: as fast as the consumer absorbs. */
  readonly speed: number;
  /** Market time at start, epoch ms. */
  readonly startMs: number;
  /**
   * How far the target may run ahead of what was reached: the catch-up after a short stall.
   * Longer stalls are not caught up; the market time they cost is the speed not achieved.
   */
  readonly lagMaxMs: number;
}

export class PacedClock {
  private targetMs: number;
  private wallMs: number;

  constructor(private readonly o: PacedClockOptions) {
    if (!(o.speed > 0)) throw new TypeError(`speed must be > 0 (was ${o.speed})`);
    if (!(o.lagMaxMs > 0)) throw new TypeError(`lagMaxMs must be > 0 (was ${o.lagMaxMs})`);
    this.targetMs = o.startMs;
    this.wallMs = o.clock.nowMs();
  }

  /** The market time the feed may run to now, given what it reached; never decreases. */
  advance(reachedMs: number, limitMs = Infinity): number {
    // Pairs that joined ahead of it (where the other shards were): it runs on from there.
    if (reachedMs > this.targetMs && Number.isFinite(reachedMs)) this.targetMs = reachedMs;
    const wallMs = this.o.clock.nowMs();
    const elapsedMs = Math.max(0, wallMs - this.wallMs);
    this.wallMs = wallMs;
    // Flat out (speed max): a lag's worth ahead of what was reached, never an infinite target.
    const freeMs = Number.isFinite(this.o.speed) ? this.targetMs + elapsedMs * this.o.speed
      : reachedMs + this.o.lagMaxMs;
    // A consumer that had reached the last target gets all the time since (a late tick is this
    // thread's own stall); one still behind it gets at most lagMaxMs ahead of where it is.
    const caughtUp = reachedMs >= this.targetMs;
    const nextMs = Math.floor(Math.min(caughtUp ? freeMs : reachedMs + this.o.lagMaxMs,
      freeMs, limitMs));
    if (nextMs > this.targetMs) this.targetMs = nextMs;
    return this.targetMs;
  }

  get marketMs(): number {
    return this.targetMs;
  }
}
