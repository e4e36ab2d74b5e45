// The market speed the shards achieve (shard-board.ts), against the speed asked for: the
// simulator paces itself to what the shards absorb, and this says by how much it falls short.
import type { Clock } from '../../core/clock.js';
import type { ShardBoard } from './shard-board.js';

/** Achieved speed is taken over this much wall time. */
const windowMs = 10_000;
/** Samples kept: one a second over the window, and a spare. */
const samplesMax = 12;
/** Below this share of the speed asked for, the service says it is behind. */
const behindShare = 0.9;

export class MarketPace {
  private readonly samples: { wallMs: number; marketMs: number }[] = [];

  constructor(private readonly board: ShardBoard, private readonly clock: Clock,
    /** The speed asked for (`--speed`); Infinity: as fast as the shards absorb. */
    readonly requestedSpeed: number) {}

  /** Reads the slowest shard's market time; call about once a second. */
  sample(): void {
    const marketMs = this.board.slowestMs();
    // Nothing paces (warm-up, live feed): no speed to speak of.
    if (Number.isNaN(marketMs)) return void (this.samples.length = 0);
    this.samples.push({ wallMs: this.clock.nowMs(), marketMs });
    while (this.samples.length > samplesMax ||
      this.samples[this.samples.length - 1].wallMs - this.samples[0].wallMs > windowMs) {
      this.samples.shift();
    }
  }

  /** Market ms per wall ms over the last window; null until half a window was seen. */
  get achievedSpeed(): number | null {
    if (this.samples.length < 2) return null;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const spanMs = last.wallMs - first.wallMs;
    if (spanMs < windowMs / 2) return null;
    return Math.max(0, last.marketMs - first.marketMs) / spanMs;
  }

  /** The shards run market time slower than asked. */
  get behind(): boolean {
    const achieved = this.achievedSpeed;
    return achieved !== null && Number.isFinite(this.requestedSpeed) &&
      achieved < this.requestedSpeed * behindShare;
  }

  /** For /readyz: what a reader should know about the pace; null when it is as asked. */
  detail(): string | null {
    if (!this.behind) return null;
    return `market time runs at ${formatSpeed(this.achievedSpeed!)}x of the requested ` +
      `${formatSpeed(this.requestedSpeed)}x: the shards absorb no more, so it runs slower ` +
      '(none of it is skipped)';
  }
}

function formatSpeed(speed: number): string {
  return speed >= 10 ? speed.toFixed(0) : speed.toFixed(2);
}
