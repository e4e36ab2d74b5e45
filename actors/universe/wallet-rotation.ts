// Which simulated wallets to report now: a rotation over the tracked list that makes every wallet
// due once per wallet cadence of market time, drained under a wall-clock budget, the way the live
// poller asks the venue for a bounded batch of clearinghouseState answers per tick.
import type { Clock } from '../../core/clock.js';

export interface WalletRotationOptions {
  /** Wallets in the rotation. */
  readonly count: number;
  /** Market time in which every wallet falls due once. */
  readonly cadenceMs: number;
  /** Wall-clock budget: at `--speed max` market time outruns it and states arrive less often. */
  readonly statesPerSecondMax: number;
  /** States handed out in one call (one event-loop turn of the feed), so no turn is long. */
  readonly statesPerTurnMax: number;
  readonly clock: Clock;
}

export class WalletRotation {
  private cursor = 0;
  /** Wallets due and not yet reported; at most one round (older debt is the same wallets). */
  private owed: number;
  private tokens: number;
  private refilledAtMs: number;

  constructor(private readonly o: WalletRotationOptions) {
    if (!Number.isInteger(o.count) || o.count < 0) {
      throw new RangeError(`count must be a non-negative integer (was ${o.count})`);
    }
    if (!(o.cadenceMs > 0) || !(o.statesPerSecondMax > 0) || !(o.statesPerTurnMax >= 1)) {
      throw new RangeError('cadenceMs, statesPerSecondMax and statesPerTurnMax must be positive');
    }
    // Like the live poller (never-polled wallets first): a first full round is due at once.
    this.owed = o.count;
    this.tokens = o.statesPerTurnMax;
    this.refilledAtMs = o.clock.nowMs();
  }

  /** Market time went by: each wallet falls due once per cadence. */
  elapse(marketMs: number): void {
    if (!(marketMs > 0)) return;
    this.owed = Math.min(this.o.count, this.owed + (this.o.count * marketMs) / this.o.cadenceMs);
  }

  /** Calls visit with the index of each wallet to report now, in rotation; returns how many. */
  take(visit: (index: number) => void): number {
    this.refill();
    const n = Math.min(Math.floor(this.owed), this.o.statesPerTurnMax, Math.floor(this.tokens));
    for (let i = 0; i < n; i++) {
      visit(this.cursor);
      this.cursor = this.cursor + 1 === this.o.count ? 0 : this.cursor + 1;
    }
    this.owed -= n;
    this.tokens -= n;
    return n;
  }

  /** Wallets due and not yet reported (a whole number of them). */
  get backlog(): number {
    return Math.floor(this.owed);
  }

  private refill(): void {
    const nowMs = this.o.clock.nowMs();
    const elapsedMs = Math.max(0, nowMs - this.refilledAtMs);
    this.refilledAtMs = nowMs;
    // A bucket of one turn's worth: an idle second does not turn into a burst.
    this.tokens = Math.min(this.o.statesPerTurnMax,
      this.tokens + (elapsedMs * this.o.statesPerSecondMax) / 1_000);
  }
}
