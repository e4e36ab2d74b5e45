// The 95 % interval of a mean and the two-sided p-value of "the mean is 0", resampling blocks of
// values that move together (a block, or cluster, bootstrap: Kunsch 1989; Liu and Singh 1992)
// rather than single values: outcomes whose windows overlap are not independent, and treating
// them as if they were makes intervals too narrow and p-values too small. A seeded percentile
// bootstrap over the blocks (Efron 1979) below BOOTSTRAP_N_MAX values or T_BLOCKS_MIN blocks,
// where outcomes in R are too skewed, or their blocks too few, for a t interval to be trusted;
// from there on a t interval with the cluster-robust standard error (Liang and Zeger 1986),
// which the bootstrap would match at many times the cost. Without blocks every value is its own
// block: the plain bootstrap and the plain t interval.
import { studentTCdf } from './distributions.js';
import { studentTQuantile } from './t-quantile.js';

export const BOOTSTRAP_RESAMPLES = 2_000;
/** From this many values on, and with T_BLOCKS_MIN blocks, the t interval. */
export const BOOTSTRAP_N_MAX = 200;
/** Fewer blocks than this keep the bootstrap: a cluster-robust variance needs many clusters. */
export const T_BLOCKS_MIN = 50;
/** Fewer values or blocks than this get no interval: a resampled handful says nothing. */
export const INTERVAL_N_MIN = 5;

export interface MeanInterval {
  readonly mean: number;
  readonly low: number;
  readonly high: number;
  /** Two-sided p-value of a zero mean, by the same method as the interval. */
  readonly pValue: number;
  readonly method: 'bootstrap' | 't';
}

/** Each block's sum and count, blocks in the order they first appear. */
interface Blocks {
  readonly sums: Float64Array;
  readonly counts: Float64Array;
  readonly length: number;
}

/** Values with the same block id next to each other form one block (ids sorted by the caller). */
function blocksOf(values: Float64Array, n: number, ids: Int32Array | undefined): Blocks {
  if (ids === undefined) {
    return { sums: values, counts: new Float64Array(n).fill(1), length: n };
  }
  const sums = new Float64Array(n);
  const counts = new Float64Array(n);
  let k = -1;
  for (let i = 0; i < n; i++) {
    if (i === 0 || ids[i] !== ids[i - 1]) k += 1;
    sums[k] += values[i];
    counts[k] += 1;
  }
  return { sums, counts, length: k + 1 };
}

/**
 * The mean of values[0..n) with its 95 % interval; null below INTERVAL_N_MIN values or blocks.
 * `blockIds[i]` names value i's block (equal ids adjacent); without it each value is a block.
 */
export function meanInterval(values: Float64Array, n: number, seed: number,
  blockIds?: Int32Array): MeanInterval | null {
  if (!(n >= INTERVAL_N_MIN && n <= values.length)) return null;
  if (blockIds !== undefined && blockIds.length < n) throw new Error('a block id per value');
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  const blocks = blocksOf(values, n, blockIds);
  if (blocks.length < INTERVAL_N_MIN) return null;
  return n < BOOTSTRAP_N_MAX || blocks.length < T_BLOCKS_MIN ? bootstrap(blocks, mean, seed)
    : tInterval(blocks, n, mean);
}

function bootstrap(blocks: Blocks, mean: number, seed: number): MeanInterval {
  const { sums, counts, length: k } = blocks;
  // createSeededRng's mulberry32, inlined: the same draws without a call per draw (this loop
  // is most of a group's interval).
  let state = seed >>> 0;
  const means = new Float64Array(BOOTSTRAP_RESAMPLES);
  let below = 0;
  let above = 0;
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < k; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const j = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * k);
      sum += sums[j];
      count += counts[j];
    }
    const m = sum / count;
    means[b] = m;
    if (m <= 0) below += 1;
    if (m >= 0) above += 1;
  }
  means.sort();
  // Percentiles 2.5 and 97.5: the 51st and the 1,950th of 2,000 sorted means.
  const low = means[Math.floor(0.025 * BOOTSTRAP_RESAMPLES)];
  const high = means[Math.ceil(0.975 * BOOTSTRAP_RESAMPLES) - 1];
  // (count + 1) / (B + 1): a p-value of 0 is never claimed from finitely many resamples.
  const pValue = Math.min(1, (2 * (Math.min(below, above) + 1)) / (BOOTSTRAP_RESAMPLES + 1));
  return { mean, low, high, pValue, method: 'bootstrap' };
}

const tQuantiles = new Map<number, number>();

function tInterval(blocks: Blocks, n: number, mean: number): MeanInterval {
  const { sums, counts, length: k } = blocks;
  // Cluster-robust variance of the mean: sum over blocks of (block sum - mean x block count)^2,
  // scaled by k / (k - 1); with one value a block, s^2 / n.
  let squares = 0;
  for (let i = 0; i < k; i++) squares += (sums[i] - mean * counts[i]) ** 2;
  const se = Math.sqrt((squares * k) / (k - 1)) / n;
  const df = k - 1;
  let q = tQuantiles.get(df);
  if (q === undefined) {
    q = studentTQuantile(0.975, df);
    // Bounded: one entry per sample size seen, and sizes are bounded by the signals kept.
    if (tQuantiles.size < 100_000) tQuantiles.set(df, q);
  }
  if (se === 0) return { mean, low: mean, high: mean, pValue: mean === 0 ? 1 : 0, method: 't' };
  const t = Math.abs(mean) / se;
  const pValue = Math.min(1, 2 * (1 - studentTCdf(t, df)));
  return { mean, low: mean - q * se, high: mean + q * se, pValue, method: 't' };
}
