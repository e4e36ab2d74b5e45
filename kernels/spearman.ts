// Spearman's rank correlation (Spearman 1904), ties given their average rank, with a 95 %
// interval from Fisher's z with the standard error 1.06 / sqrt(n - 3) that Fieller, Hartley and
// Pearson (1957) found for rank correlations.
import { Z_95 } from './wilson.js';

/** Fewer pairs than this get no interval (the standard error needs n > 3). */
export const SPEARMAN_N_MIN = 5;

export interface RankCorrelation {
  readonly rho: number;
  readonly low: number;
  readonly high: number;
  readonly n: number;
}

/** How many of sorted[0..n) are below `value` (strictly, or with `orEqual` at most it). */
export function countBelow(sorted: Float64Array, n: number, value: number,
  orEqual: boolean): number {
  let low = 0;
  let high = n;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < value || (orEqual && sorted[mid] === value)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Ranks 1..n of values[0..n), tied values sharing the average of their ranks. */
export function averageRanks(values: Float64Array, n: number): Float64Array {
  // A numeric sort without a comparator, then each value's tie run by bisection: the same
  // ranks as sorting the indices, in a fraction of the time.
  const sorted = values.slice(0, n).sort();
  const ranks = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // Positions start..end-1 of the sorted values hold ranks start+1..end: their mean.
    const start = countBelow(sorted, n, values[i], false);
    const end = countBelow(sorted, n, values[i], true);
    ranks[i] = (start + 1 + end) / 2;
  }
  return ranks;
}

/** Pearson correlation of the ranks; null below SPEARMAN_N_MIN or when a side is constant. */
export function spearman(x: Float64Array, y: Float64Array, n: number): RankCorrelation | null {
  if (!(n >= SPEARMAN_N_MIN && n <= x.length && n <= y.length)) return null;
  const rx = averageRanks(x, n);
  const ry = averageRanks(y, n);
  const centre = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i] - centre;
    const dy = ry[i] - centre;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  const rho = Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
  // atanh(+-1) is infinite: a perfect correlation is clamped just inside.
  const z = Math.atanh(Math.max(-1 + 1e-12, Math.min(1 - 1e-12, rho)));
  const half = (Z_95 * 1.06) / Math.sqrt(n - 3);
  return { rho, low: Math.tanh(z - half), high: Math.tanh(z + half), n };
}
