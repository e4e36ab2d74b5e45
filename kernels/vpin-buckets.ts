// Equal-volume buckets for VPIN: exact overflow splitting (a trade or bar larger than the room
// left spills into the next buckets with its buy fraction), a ring of the last n buckets, and the
// VPIN after every completed bucket (ELO 2012, eq. 9; no partial buckets).
//
//   ring of n completed buckets (oldest at (head - count) mod n):
//   bucketBuy[k], bucketSell[k], bucketEndMs[k]      curBuy/curSell/curFilled: the open bucket
import { checkOption } from './check.js';
import { asDoubleFields } from './double-fields.js';

export interface VpinBuckets {
  /** V, base units per bucket; 0 while unknown (no bucket ever completes). */
  bucketVolume: number;
  readonly windowBuckets: number;
  readonly bucketBuy: Float64Array;
  readonly bucketSell: Float64Array;
  readonly bucketEndMs: Float64Array;
  head: number;
  count: number;
  /** Buckets completed since the last reset (ring holds at most windowBuckets of them). */
  completed: number;
  curBuy: number;
  curSell: number;
  curFilled: number;
  /** VPIN after the newest completed bucket, NaN until windowBuckets are complete. */
  vpin: number;
  /** VPIN values produced by the last fill call, in order; newCount of them. */
  readonly newValues: Float64Array;
  newCount: number;
}

export function createVpinBuckets(bucketVolume: number, windowBuckets: number): VpinBuckets {
  checkOption('bucketVolume', bucketVolume, 0, 1e15);
  checkOption('windowBuckets', windowBuckets, 1, 10_000, true);
  return asDoubleFields<VpinBuckets>({
    bucketVolume, windowBuckets,
    bucketBuy: new Float64Array(windowBuckets), bucketSell: new Float64Array(windowBuckets),
    bucketEndMs: new Float64Array(windowBuckets),
    head: 0, count: 0, completed: 0, curBuy: 0, curSell: 0, curFilled: 0, vpin: NaN,
    newValues: new Float64Array(windowBuckets + 1), newCount: 0,
  }, ['bucketVolume', 'curBuy', 'curSell', 'curFilled']);
}

export function resetVpinBuckets(b: VpinBuckets): void {
  b.bucketBuy.fill(0);
  b.bucketSell.fill(0);
  b.bucketEndMs.fill(0);
  b.head = 0;
  b.count = 0;
  b.completed = 0;
  b.curBuy = 0;
  b.curSell = 0;
  b.curFilled = 0;
  b.vpin = NaN;
  b.newCount = 0;
}

/**
 * Changes V for the volume still to come without discarding what was filled: every bucket (the
 * open one too) is scaled to the new V, keeping its buy share and how full it is, so VPIN, the
 * mean of the buckets' imbalance fractions |B - S| / V, is unchanged. Nothing was filled while V
 * was 0; a V of 0 (unknown again) restarts the buckets.
 */
export function resizeVpinBuckets(b: VpinBuckets, bucketVolume: number): void {
  checkOption('bucketVolume', bucketVolume, 0, 1e15);
  const old = b.bucketVolume;
  b.newCount = 0;
  if (bucketVolume === 0 && old > 0) resetVpinBuckets(b);
  b.bucketVolume = bucketVolume;
  if (old === 0 || bucketVolume === 0 || bucketVolume === old) return;
  const scale = bucketVolume / old;
  for (let k = 0; k < b.windowBuckets; k++) {
    b.bucketBuy[k] *= scale;
    b.bucketSell[k] *= scale;
  }
  b.curBuy *= scale;
  b.curSell *= scale;
  b.curFilled *= scale;
}

/** VPIN over the ring, oldest bucket first: sum |B - S| / (n V). */
function computeVpin(b: VpinBuckets): number {
  const n = b.windowBuckets;
  const { bucketBuy, bucketSell } = b;
  let sum = 0;
  // Oldest first, as two runs of the ring (no modulo per bucket).
  for (let at = b.head; at < n; at++) sum += Math.abs(bucketBuy[at] - bucketSell[at]);
  for (let at = 0; at < b.head; at++) sum += Math.abs(bucketBuy[at] - bucketSell[at]);
  return sum / (n * b.bucketVolume);
}

function pushBucket(b: VpinBuckets, buy: number, sell: number, tsMs: number): void {
  const n = b.windowBuckets;
  b.bucketBuy[b.head] = buy;
  b.bucketSell[b.head] = sell;
  b.bucketEndMs[b.head] = tsMs;
  b.head = (b.head + 1) % n;
  if (b.count < n) b.count += 1;
  b.completed += 1;
  if (b.count === n) {
    b.vpin = computeVpin(b);
    // newValues holds at most n + 1 values: older ones of one giant fill are overwritten.
    if (b.newCount === b.newValues.length) b.newValues.copyWithin(0, 1);
    else b.newCount += 1;
    b.newValues[b.newCount - 1] = b.vpin;
  }
}

/**
 * Adds `volume` (> 0) with buy fraction `buyFraction` in [0, 1] at `tsMs`; returns the number
 * of buckets it completed. A volume of more than n whole buckets skips the buckets that could
 * not stay in the ring, so the loop is bounded by n + 2 iterations.
 */
export function fillVpinBuckets(
  b: VpinBuckets, volume: number, buyFraction: number, tsMs: number,
): number {
  b.newCount = 0;
  // Most fills stay inside the open bucket: this short path is what the trade path inlines.
  if (volume < b.bucketVolume - b.curFilled) {
    b.curBuy += volume * buyFraction;
    b.curSell += volume * (1 - buyFraction);
    b.curFilled += volume;
    return 0;
  }
  return spillVpinBuckets(b, volume, buyFraction, tsMs);
}

/** A fill that completes at least one bucket (or V unknown: nothing completes). */
function spillVpinBuckets(
  b: VpinBuckets, volume: number, buyFraction: number, tsMs: number,
): number {
  const v = b.bucketVolume;
  if (v === 0) return 0;
  const sellFraction = 1 - buyFraction;
  let remaining = volume;
  let closed = 0;
  for (;;) {
    const room = v - b.curFilled;
    if (remaining < room) {
      b.curBuy += remaining * buyFraction;
      b.curSell += remaining * sellFraction;
      b.curFilled += remaining;
      return closed;
    }
    pushBucket(b, b.curBuy + room * buyFraction, b.curSell + room * sellFraction, tsMs);
    closed += 1;
    remaining -= room;
    b.curBuy = 0;
    b.curSell = 0;
    b.curFilled = 0;
    const whole = Math.floor(remaining / v);
    if (whole > b.windowBuckets) {
      // These whole buckets would be pushed out of the ring by the n that follow them.
      const skipped = whole - b.windowBuckets;
      b.completed += skipped;
      closed += skipped;
      remaining -= skipped * v;
    }
  }
}
