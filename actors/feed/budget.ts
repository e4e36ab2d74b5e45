// One request budget for the whole process, shared by the main thread and every shard worker
// through a SharedArrayBuffer: token buckets for REST weight and WS messages sent, and a counter
// of open WS subscriptions. Pass `budget.buffer` to a worker (workerData or a message; a
// SharedArrayBuffer is shared, not copied) and call `attachBudget(buffer, clock)` there.
import type { Clock } from '../../core/clock.js';

/** The venue's published limits (per IP): REST weight and WS messages per minute, WS subs. */
export const venueLimits = Object.freeze({
  restWeightPerMinute: 1_200,
  wsMessagesPerMinute: 2_000,
  wsSubscriptionsMax: 1_000,
});

// Layout (Float64 slots, guarded by one Int32 spin lock each):
//   [0] rest tokens   [1] rest refilled-at ms   [2] ws tokens   [3] ws refilled-at ms
//   [4] open subscriptions
const SLOTS = 5;
const LOCK_BYTES = 8;

export type BucketName = 'rest' | 'ws';

export interface SharedBudget {
  readonly buffer: SharedArrayBuffer;
  /** Takes `cost` tokens if available now; returns 0, or the ms to wait before retrying. */
  take(bucket: BucketName, cost: number): number;
  /** Reserves subscriptions; false when that would exceed the venue's maximum. */
  reserveSubscriptions(count: number): boolean;
  releaseSubscriptions(count: number): void;
  subscriptions(): number;
  available(bucket: BucketName): number;
}

export function createSharedBudget(clock: Clock): SharedBudget {
  const buffer = new SharedArrayBuffer(LOCK_BYTES + SLOTS * 8);
  const slots = new Float64Array(buffer, LOCK_BYTES, SLOTS);
  const now = clock.nowMs();
  slots[0] = venueLimits.restWeightPerMinute;
  slots[1] = now;
  slots[2] = venueLimits.wsMessagesPerMinute;
  slots[3] = now;
  return attachBudget(buffer, clock);
}

export function attachBudget(buffer: SharedArrayBuffer, clock: Clock): SharedBudget {
  if (buffer.byteLength !== LOCK_BYTES + SLOTS * 8) {
    throw new TypeError(`budget buffer must be ${LOCK_BYTES + SLOTS * 8} bytes ` +
      `(was ${buffer.byteLength})`);
  }
  const lock = new Int32Array(buffer, 0, 1);
  const slots = new Float64Array(buffer, LOCK_BYTES, SLOTS);
  // The critical sections are a few arithmetic operations, so spinning is cheaper than waiting.
  const locked = <T>(body: () => T): T => {
    for (let spins = 0; Atomics.compareExchange(lock, 0, 0, 1) !== 0; spins++) {
      if (spins > 1_000_000) throw new Error('budget lock held too long');
    }
    try {
      return body();
    } finally {
      Atomics.store(lock, 0, 0);
    }
  };
  const refill = (bucket: BucketName) => {
    const i = bucket === 'rest' ? 0 : 2;
    const perMinute = bucket === 'rest' ? venueLimits.restWeightPerMinute
      : venueLimits.wsMessagesPerMinute;
    const now = clock.nowMs();
    const elapsedMs = Math.max(0, now - slots[i + 1]);
    slots[i] = Math.min(perMinute, slots[i] + (elapsedMs * perMinute) / 60_000);
    slots[i + 1] = Math.max(now, slots[i + 1]);
    return { i, perMinute };
  };
  return {
    buffer,
    take(bucket, cost) {
      if (!(cost > 0)) throw new RangeError(`cost must be > 0 (was ${cost})`);
      return locked(() => {
        const { i, perMinute } = refill(bucket);
        if (cost > perMinute) throw new RangeError(`cost ${cost} exceeds the bucket size`);
        if (slots[i] >= cost) {
          slots[i] -= cost;
          return 0;
        }
        return Math.ceil(((cost - slots[i]) * 60_000) / perMinute);
      });
    },
    reserveSubscriptions(count) {
      return locked(() => {
        if (slots[4] + count > venueLimits.wsSubscriptionsMax) return false;
        slots[4] += count;
        return true;
      });
    },
    releaseSubscriptions(count) {
      locked(() => { slots[4] = Math.max(0, slots[4] - count); });
    },
    subscriptions: () => locked(() => slots[4]),
    available: (bucket) => locked(() => slots[refill(bucket).i]),
  };
}
