// The 95 % interval of a mean and the two-sided p-value of "the mean is 0": a seeded
// percentile bootstrap (Efron 1979) below BOOTSTRAP_N_MAX values, where outcomes in R are too
// skewed for a t interval to be trusted, and a Student t interval from there on, where the
// bootstrap would only add cost.
import { studentTCdf } from './distributions.js';
import { studentTQuantile } from './t-quantile.js';

export const BOOTSTRAP_RESAMPLES = 2_000;
/** From this many values on, the t interval. */
export const BOOTSTRAP_N_MAX = 200;
/** Fewer values than this get no interval: a resampled handful says nothing. */
export const INTERVAL_N_MIN = 5;

export interface MeanInterval {
  readonly mean: number;
  readonly low: number;
  readonly high: number;
  /** Two-sided p-value of a zero mean, by the same method as the interval. */
  readonly pValue: number;
  readonly method: 'bootstrap' | 't';
}

/** The mean of values[0..n) with its 95 % interval; null when n < INTERVAL_N_MIN. */
export function meanInterval(values: Float64Array, n: number, seed: number): MeanInterval | null {
  if (!(n >= INTERVAL_N_MIN && n <= values.length)) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  return n < BOOTSTRAP_N_MAX ? bootstrap(values, n, mean, seed) : tInterval(values, n, mean);
}

function bootstrap(values: Float64Array, n: number, mean: number, seed: number): MeanInterval {
  // createSeededRng's mulberry32, inlined: the same draws without a call per draw (this loop
  // is most of a group's interval).
  let state = seed >>> 0;
  const means = new Float64Array(BOOTSTRAP_RESAMPLES);
  let below = 0;
  let above = 0;
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      sum += values[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)];
    }
    const m = sum / n;
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

function tInterval(values: Float64Array, n: number, mean: number): MeanInterval {
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (values[i] - mean) ** 2;
  const se = Math.sqrt(squares / (n - 1) / n);
  const df = n - 1;
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
