// The main thread's side of a shard's held past (actors/shard/past-queue.ts): pulls the held
// bars, signals, history points and states one message at a time, once the views come first.
//
// Why pulled, not pushed: messages pushed on a port are read back to back, each in one task, so
// one shard's ~50 chunks of past would still be read ahead of the other shard's views. Pulled one
// at a time, and only while no views wait and every tracked pair has published (or after a
// bound), the past costs /readyz nothing and a poll at most one chunk's read.

/** One pull at a time; one that got no answer in this long (a stalled shard) is given up. */
const pullAnswerMsMax = 5_000;
/** Held past is pulled after this long even while a tracked pair has not published yet. */
const holdMsMax = 10_000;
/** How often a closed gate is looked at again while something is held. */
const gatePollMs = 20;

export interface PastPullerDeps {
  /** Asks shard `shardId` for its next held message (or all); false if it cannot be asked. */
  readonly pull: (shardId: number, all: boolean) => boolean;
  /** True while views are still to be applied: they go first. */
  readonly viewsPending: () => boolean;
  /** True once every tracked pair has published its views (what /readyz waits for). */
  readonly allPublished: () => boolean;
  /** True while the past is wanted at once (before ready): a shard sends all it holds. */
  readonly wantAll?: () => boolean;
  /** Monotonic milliseconds. */
  readonly nowMs: () => number;
}

export class PastPuller {
  /** Per shard, the messages it holds (as it last said). */
  private readonly left = new Map<number, number>();
  private inFlight: { shardId: number; sinceMs: number } | null = null;
  private heldSinceMs = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly deps: PastPullerDeps) {}

  /** A shard says it holds `left` messages. */
  onHeld(shardId: number, left: number): void {
    if (this.left.size === 0) this.heldSinceMs = this.deps.nowMs();
    this.left.set(shardId, left);
    this.schedule(0);
  }

  /** A shard answered a pull (its message, if any, is already handed on); `left` are still held. */
  onAnswer(shardId: number, left: number): void {
    if (this.inFlight?.shardId === shardId) {
      this.inFlight = null;
      // The next pull at once: the timer set meanwhile only watched for a lost answer.
      this.clearTimer();
    }
    this.setLeft(shardId, left);
    this.schedule(0);
  }

  /** A shard restarted: what its last generation held is gone with it. */
  onShardRestarted(shardId: number): void {
    if (this.inFlight?.shardId === shardId) this.inFlight = null;
    this.setLeft(shardId, 0);
  }

  /** Messages held by all shards, as they last said. */
  get held(): number {
    let sum = 0;
    for (const count of this.left.values()) sum += count;
    return sum;
  }

  /** Nothing is held (as the shards last said) and no pull waits for its answer. */
  get settled(): boolean {
    return this.left.size === 0 && this.inFlight === null;
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private setLeft(shardId: number, left: number): void {
    if (left > 0) this.left.set(shardId, left);
    else this.left.delete(shardId);
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.stopped || this.left.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.step();
    }, delayMs);
    this.timer.unref();
  }

  private step(): void {
    if (this.stopped || this.left.size === 0) return;
    const nowMs = this.deps.nowMs();
    if (this.inFlight && nowMs - this.inFlight.sinceMs >= pullAnswerMsMax) this.inFlight = null;
    if (this.inFlight) return this.schedule(this.inFlight.sinceMs + pullAnswerMsMax - nowMs);
    if (!this.open(nowMs)) return this.schedule(gatePollMs);
    // The lowest shard first: one shard's past ends before the next one's begins.
    const shardId = Math.min(...this.left.keys());
    if (this.deps.pull(shardId, this.deps.wantAll?.() ?? false)) {
      this.inFlight = { shardId, sinceMs: nowMs };
      this.schedule(pullAnswerMsMax);
    } else {
      // Its port is closed (a restart or a stop): what it held is sent or gone with it.
      this.left.delete(shardId);
      this.schedule(0);
    }
  }

  private open(nowMs: number): boolean {
    if (this.deps.viewsPending()) return false;
    return this.deps.allPublished() || nowMs - this.heldSinceMs > holdMsMax;
  }
}
