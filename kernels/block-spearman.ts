// Spearman's rank correlation with a 95 % interval that resamples whole blocks of pairs (Kunsch
// 1989; Liu and Singh 1992), as mean-interval.ts does for means: pairs whose outcome windows
// overlap move together, and Fisher's z with 1.06 / sqrt(n - 3) takes them for independent,
// which makes the interval too narrow. Below BOOTSTRAP_N_MAX pairs a seeded percentile bootstrap
// over the blocks (Efron 1979), ranks recomputed in every resample; from there on the
// delete-a-group jackknife (Efron and Stein 1981) of Fisher's z, a cluster-robust standard error,
// with a t quantile on groups - 1 degrees of freedom. Its groups are runs of consecutive blocks,
// at most JACKKNIFE_GROUPS_MAX of them: coarser clusters stay valid, and each costs a pass over
// every pair, so 90 days of 4 h blocks would cost 540.
import { BOOTSTRAP_N_MAX, BOOTSTRAP_RESAMPLES, INTERVAL_N_MIN } from './mean-interval.js';
import { countBelow, spearman } from './spearman.js';
import { studentTQuantile } from './t-quantile.js';

/** The jackknife leaves out one of at most this many groups of consecutive blocks. */
export const JACKKNIFE_GROUPS_MAX = 50;

export interface BlockRankCorrelation {
  readonly rho: number;
  /** Null with fewer than INTERVAL_N_MIN blocks: a resampled handful says nothing. */
  readonly low: number | null;
  readonly high: number | null;
  readonly n: number;
  readonly method: 'bootstrap' | 'jackknife' | null;
}

/**
 * Indices 0..n) ordered by value, ties by index (any order would do: they share a rank). A
 * numeric sort without a comparator, then each index placed in its tie run found by bisection,
 * as averageRanks does: a comparator sort cost more than every jackknife pass but a few.
 */
function orderOf(values: Float64Array, n: number): Int32Array {
  const order = new Int32Array(n);
  const sorted = values.slice(0, n).sort();
  if (!Number.isFinite(sorted[0]) || !Number.isFinite(sorted[n - 1])) {
    // NaN sorts last and bisects nowhere: the comparator's order, whatever it makes of it.
    for (let i = 0; i < n; i++) order[i] = i;
    return order.sort((a, b) => values[a] - values[b]);
  }
  const placed = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const start = countBelow(sorted, n, values[i], false);
    order[start + placed[start]] = i;
    placed[start] += 1;
  }
  return order;
}

/** Where each run of equal values starts in `order`, then n: the runs are the same in every
 *  resample, so they are found once rather than by comparing values in each. */
function tieRuns(values: Float64Array, order: Int32Array): Int32Array {
  const n = order.length;
  const starts: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i === 0 || values[order[i]] !== values[order[i - 1]]) starts.push(i);
  }
  starts.push(n);
  return Int32Array.from(starts);
}

/**
 * The ranks of values when value i counts weight[i] times (weight 0: left out): each tie run
 * shares the average of the ranks its copies take, as averageRanks gives over the copies.
 */
function weightedRanks(order: Int32Array, runs: Int32Array, weight: Float64Array,
  out: Float64Array): void {
  let before = 0;
  for (let r = 0; r + 1 < runs.length; r++) {
    const start = runs[r];
    const end = runs[r + 1];
    if (end === start + 1) {
      const i = order[start];
      const w = weight[i];
      out[i] = before + (w + 1) / 2;
      before += w;
      continue;
    }
    let total = 0;
    for (let m = start; m < end; m++) total += weight[order[m]];
    const rank = before + (total + 1) / 2;
    for (let m = start; m < end; m++) out[order[m]] = rank;
    before += total;
  }
}

/** One side's values in rank order, found once for every resample. */
interface RankOrder {
  readonly order: Int32Array;
  readonly runs: Int32Array;
}

function rankOrderOf(values: Float64Array, n: number): RankOrder {
  const order = orderOf(values, n);
  return { order, runs: tieRuns(values, order) };
}

/**
 * Spearman of the weighted copies (NaN when a side is constant): Pearson of their ranks.
 * `total` is the sum of the weights.
 */
function weightedRho(x: RankOrder, y: RankOrder, weight: Float64Array, total: number,
  rx: Float64Array, ry: Float64Array): number {
  weightedRanks(x.order, x.runs, weight, rx);
  weightedRanks(y.order, y.runs, weight, ry);
  const centre = (total + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < weight.length; i++) {
    const w = weight[i];
    if (w === 0) continue;
    const dx = rx[i] - centre;
    const dy = ry[i] - centre;
    sxy += w * dx * dy;
    sxx += w * dx * dx;
    syy += w * dy * dy;
  }
  return sxx === 0 || syy === 0 ? NaN : Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * Spearman of x[0..n) with y[0..n), its interval over the blocks `blockIds[i]` names (any
 * order); null where spearman is. Seeded: the same pairs give the same interval.
 */
export function blockSpearman(x: Float64Array, y: Float64Array, n: number, seed: number,
  blockIds: Int32Array): BlockRankCorrelation | null {
  const point = spearman(x, y, n);
  if (point === null) return null;
  if (blockIds.length < n) throw new Error('a block id per pair');
  // Blocks numbered 0..k) in id order, so that a group is a run of consecutive blocks.
  const ids = [...new Set(blockIds.subarray(0, n))].sort((a, b) => a - b);
  const k = ids.length;
  const groups = Math.min(k, JACKKNIFE_GROUPS_MAX);
  const dense = new Map<number, number>();
  const grouped = n >= BOOTSTRAP_N_MAX;
  ids.forEach((id, position) => dense.set(id, grouped ? Math.floor((position * groups) / k)
    : position));
  const blockOf = new Int32Array(n);
  for (let i = 0; i < n; i++) blockOf[i] = dense.get(blockIds[i]) as number;
  const { rho } = point;
  if (k < INTERVAL_N_MIN) return { rho, low: null, high: null, n, method: null };
  const xOrder = rankOrderOf(x.subarray(0, n), n);
  const yOrder = rankOrderOf(y.subarray(0, n), n);
  const weight = new Float64Array(n);
  const rx = new Float64Array(n);
  const ry = new Float64Array(n);
  const rhoOf = (total: number) => weightedRho(xOrder, yOrder, weight, total, rx, ry);
  const sizes = new Float64Array(grouped ? groups : k);
  for (let i = 0; i < n; i++) sizes[blockOf[i]] += 1;
  return grouped ? jackknife(rho, n, groups, blockOf, sizes, weight, rhoOf)
    : bootstrap(rho, n, k, blockOf, sizes, weight, rhoOf, seed);
}

function bootstrap(rho: number, n: number, k: number, blockOf: Int32Array,
  sizes: Float64Array, weight: Float64Array, rhoOf: (total: number) => number, seed: number):
  BlockRankCorrelation {
  const times = new Float64Array(k);
  const rhos = new Float64Array(BOOTSTRAP_RESAMPLES);
  // createSeededRng's mulberry32, inlined as in mean-interval.ts: k block draws per resample.
  let state = seed >>> 0;
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    times.fill(0);
    for (let i = 0; i < k; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      times[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * k)] += 1;
    }
    for (let i = 0; i < n; i++) weight[i] = times[blockOf[i]];
    let total = 0;
    for (let j = 0; j < k; j++) total += times[j] * sizes[j];
    const r = rhoOf(total);
    // A resample whose side is constant has no correlation: it counts as the sample's own.
    rhos[b] = Number.isNaN(r) ? rho : r;
  }
  rhos.sort();
  const low = rhos[Math.floor(0.025 * BOOTSTRAP_RESAMPLES)];
  const high = rhos[Math.ceil(0.975 * BOOTSTRAP_RESAMPLES) - 1];
  return { rho, low, high, n, method: 'bootstrap' };
}

/** atanh clamped inside +-1, where it is infinite. */
function fisherZ(r: number): number {
  return Math.atanh(Math.max(-1 + 1e-12, Math.min(1 - 1e-12, r)));
}

function jackknife(rho: number, n: number, k: number, blockOf: Int32Array,
  sizes: Float64Array, weight: Float64Array, rhoOf: (total: number) => number):
  BlockRankCorrelation {
  const zs = new Float64Array(k);
  let mean = 0;
  for (let b = 0; b < k; b++) {
    for (let i = 0; i < n; i++) weight[i] = blockOf[i] === b ? 0 : 1;
    const r = rhoOf(n - sizes[b]);
    zs[b] = fisherZ(Number.isNaN(r) ? rho : r);
    mean += zs[b] / k;
  }
  let squares = 0;
  for (let b = 0; b < k; b++) squares += (zs[b] - mean) ** 2;
  const se = Math.sqrt(((k - 1) / k) * squares);
  const half = studentTQuantile(0.975, k - 1) * se;
  const z = fisherZ(rho);
  return { rho, low: Math.tanh(z - half), high: Math.tanh(z + half), n, method: 'jackknife' };
}
