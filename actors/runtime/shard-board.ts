// What each shard shows the main thread without a message, through a SharedArrayBuffer: a
// progress counter its event loop bumps (liveness that queued work cannot delay, unlike a ping
// queued behind it) and the market time its feed reached (pacing and achieved speed).
//
//   slot i: [progress: Int32][pacing: Int32][reachedMs: BigInt64]   (16 bytes, 8-aligned)

const SLOT_BYTES = 16;

export class ShardBoard {
  private readonly ints: Int32Array;
  private readonly times: BigInt64Array;
  readonly shardCount: number;

  constructor(readonly buffer: SharedArrayBuffer) {
    if (buffer.byteLength % SLOT_BYTES !== 0) {
      throw new RangeError(`shard board must be whole slots (was ${buffer.byteLength} bytes)`);
    }
    this.ints = new Int32Array(buffer);
    this.times = new BigInt64Array(buffer);
    this.shardCount = buffer.byteLength / SLOT_BYTES;
  }

  static create(shardCount: number): ShardBoard {
    return new ShardBoard(new SharedArrayBuffer(SLOT_BYTES * shardCount));
  }

  /** The shard's event loop turned (wraps around; only a change is read). */
  bump(shardId: number): void {
    Atomics.add(this.ints, shardId * 4, 1);
  }

  progress(shardId: number): number {
    return Atomics.load(this.ints, shardId * 4);
  }

  /** The market time the shard's paced feed reached; null: it paces nothing now. */
  report(shardId: number, reachedMs: number | null): void {
    if (reachedMs !== null) Atomics.store(this.times, shardId * 2 + 1, BigInt(reachedMs));
    Atomics.store(this.ints, shardId * 4 + 1, reachedMs === null ? 0 : 1);
  }

  /** The shard is gone (failed, stopped): it holds nobody back; its last time is kept. */
  leave(shardId: number): void {
    Atomics.store(this.ints, shardId * 4 + 1, 0);
  }

  pacing(shardId: number): boolean {
    return Atomics.load(this.ints, shardId * 4 + 1) === 1;
  }

  /** The last market time the shard reported (0: never). */
  reachedMs(shardId: number): number {
    return Number(Atomics.load(this.times, shardId * 2 + 1));
  }

  /** The slowest pacing shard's market time, `except` left out; NaN when none paces. */
  slowestMs(except = -1): number {
    let slowest = NaN;
    for (let id = 0; id < this.shardCount; id++) {
      if (id === except || !this.pacing(id)) continue;
      const reached = this.reachedMs(id);
      if (!(reached >= slowest)) slowest = reached;
    }
    return slowest;
  }

  /** The furthest market time any shard reported, pacing or not; NaN before any report. */
  furthestMs(): number {
    let furthest = NaN;
    for (let id = 0; id < this.shardCount; id++) {
      const reached = this.reachedMs(id);
      if (reached > 0 && !(reached <= furthest)) furthest = reached;
    }
    return furthest;
  }
}
