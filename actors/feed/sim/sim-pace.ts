// Runs a shard's simulated pairs forward on paced market time (paced-clock.ts), in bounded steps
// that wait for each pair's lane to drain: a shard that falls behind slows market time instead
// of queueing events without bound, dropping them, or holding its event loop for seconds.
import type { Clock } from '../../../core/clock.js';
import type { MarketEvent } from '../../../core/messages.js';
import { PacedClock } from '../paced-clock.js';
import type { PairSimulator } from './pair-sim.js';

export interface SimPaceOptions {
  readonly clock: Clock;
  readonly speed: number;
  readonly startMs: number;
  /** Wall interval between advances once caught up. */
  readonly tickMs: number;
  /** The slowest other shard's market time (NaN: none paces): this one keeps within a lead. */
  readonly groupMs?: () => number;
  /** This shard's market time after each step; null while no pair paces (all warming, none). */
  readonly onPaced?: (reachedMs: number | null) => void;
}

/**
 * Market time a pair runs per step (one step per event-loop turn): a busy pair's 5 s is ~125
 * events, so a shard's fifty pairs make a turn of a few milliseconds at any speed.
 */
const stepMs = 5_000;
/**
 * Catch-up allowed after a stall, and the lead over the slowest shard, in wall time: shards
 * keep within a few market minutes of each other at 600x, so the views and history agree.
 */
const slackWallMs = 250;

/** A pair's events at or after its lane holds this many: it waits for the shard's drain. */
const backlogMax = 0;

export class SimPace {
  private readonly paced: PacedClock;
  private readonly slackMs: number;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private running = false;

  constructor(private readonly o: SimPaceOptions,
    /** The pairs that follow the pacer (warmed), in the order they are stepped. */
    private readonly active: () => Iterable<PairSimulator>,
    private readonly backlog: (symbol: string) => number,
    private readonly emit: (event: MarketEvent) => void) {
    this.slackMs = Number.isFinite(o.speed) ? Math.max(stepMs, o.speed * slackWallMs)
      : 12 * stepMs;
    this.paced = new PacedClock({ clock: o.clock, speed: o.speed, startMs: o.startMs,
      lagMaxMs: this.slackMs });
  }

  /** Where a pair joining now starts (its warm-up ends there). */
  marketMs(): number {
    const reached = this.reachedMs();
    if (reached !== null) return reached;
    // Nothing paces (every pair warming, or none): the clock runs on, and pairs join where the
    // other shards are if they are ahead. Warmed pairs then catch up in steps, as fast as they
    // are absorbed: at real speed market time stays the service clock's after a warm-up.
    const groupMs = this.o.groupMs?.() ?? NaN;
    return groupMs > this.paced.marketMs ? groupMs : this.paced.marketMs;
  }

  start(): void {
    this.running = true;
    this.step();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }

  /** The slowest paced pair's market time; null when none paces. */
  private reachedMs(): number | null {
    let slowest: number | null = null;
    for (const sim of this.active()) {
      if (slowest === null || sim.reachedMs < slowest) slowest = sim.reachedMs;
    }
    return slowest;
  }

  private step = (): void => {
    this.timer = null;
    this.immediate = null;
    if (!this.running) return;
    const reached = this.reachedMs();
    const groupMs = this.o.groupMs?.() ?? NaN;
    const targetMs = this.paced.advance(reached ?? this.paced.marketMs,
      groupMs >= 0 ? groupMs + this.slackMs : Infinity);
    let behind = false;
    for (const sim of this.active()) {
      if (sim.reachedMs >= targetMs) continue;
      if (this.backlog(sim.market.symbol) <= backlogMax) {
        sim.advanceTo(Math.min(targetMs, sim.reachedMs + stepMs), this.emit);
      }
      if (sim.reachedMs < targetMs) behind = true;
    }
    this.o.onPaced?.(this.reachedMs());
    // Still behind (a step's cap, a lane not drained): the next step in the next turn; caught
    // up: at the next tick. A pair that stepped to the target is caught up, however little
    // market time the turn itself took: at real speed every turn would otherwise find the
    // clock a millisecond on and spin the shard's core.
    if (behind) this.immediate = setImmediate(this.step);
    else this.timer = setTimeout(this.step, this.o.tickMs);
  };
}
