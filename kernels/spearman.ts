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

/** Ranks 1..n of values[0..n), tied values sharing the average of their ranks. */
export function averageRanks(values: Float64Array, n: number): Float64Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => values[a] - values[b]);
  const ranks = new Float64Array(n);
  for (let start = 0; start < n;) {
    let end = start + 1;
    while (end < n && values[order[end]] === values[order[start]]) end += 1;
    // Positions start..end-1 hold ranks start+1..end: their mean.
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k]] = rank;
    start = end;
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
