// Bootstrap intervals are the costly part of the track record (2,000 resamples per group) and
// most groups are unchanged from one poll to the next: they are kept by their exact values.
import {
  BOOTSTRAP_N_MAX, meanInterval, type MeanInterval,
} from '../../kernels/mean-interval.js';

const ENTRIES_MAX = 4_096;
const cache = new Map<string, MeanInterval | null>();

/** A 32-bit FNV-1a over the bits of values[0..n): equal values give equal keys. */
function hashValues(values: Float64Array, n: number): number {
  const words = new Uint32Array(values.buffer, values.byteOffset, n * 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) {
    h ^= words[i];
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** meanInterval, remembered for bootstrap sizes (a t interval is cheaper than its key). */
export function cachedMeanInterval(values: Float64Array, n: number, seed: number):
  MeanInterval | null {
  if (n >= BOOTSTRAP_N_MAX) return meanInterval(values, n, seed);
  // n, seed, the hash and the first and last values: a collision needs all five to agree.
  const key = `${seed}:${n}:${hashValues(values, n)}:${values[0]}:${values[n - 1]}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    // Refreshed as most recently used.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const interval = meanInterval(values, n, seed);
  if (cache.size >= ENTRIES_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, interval);
  return interval;
}

/** Forgets every remembered interval (the bench measures the cost without them). */
export function clearIntervalCache(): void {
  cache.clear();
}
