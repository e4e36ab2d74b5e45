// Bootstrap intervals are the costly part of the track record (2,000 resamples per group) and
// most groups are unchanged from one poll to the next: they are kept by their exact values.
import { meanInterval, type MeanInterval } from '../../kernels/mean-interval.js';

const ENTRIES_MAX = 4_096;
const cache = new Map<string, MeanInterval | null>();

/** A 32-bit FNV-1a over 32-bit words, on from `h`: equal values give equal keys. */
function hashWords(words: Uint32Array | Int32Array, h = 0x811c9dc5): number {
  for (let i = 0; i < words.length; i++) {
    h ^= words[i];
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** meanInterval, remembered by its values and their blocks. */
export function cachedMeanInterval(values: Float64Array, n: number, seed: number,
  blockIds?: Int32Array): MeanInterval | null {
  let h = hashWords(new Uint32Array(values.buffer, values.byteOffset, n * 2));
  if (blockIds !== undefined) h = hashWords(blockIds.subarray(0, n), h);
  // n, seed, the hash and the first and last values: a collision needs all five to agree.
  const key = `${seed}:${n}:${h}:${values[0]}:${values[n - 1]}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    // Refreshed as most recently used.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const interval = meanInterval(values, n, seed, blockIds);
  if (cache.size >= ENTRIES_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, interval);
  return interval;
}

/** Forgets every remembered interval (the bench measures the cost without them). */
export function clearIntervalCache(): void {
  cache.clear();
}
