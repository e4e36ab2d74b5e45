// The track record's statistics against values worked out independently here: Wilson by its
// formula and textbook values, a bootstrap re-implemented with the same seed, the t interval
// against a tabled quantile, Spearman on a textbook set and on ties, Benjamini-Hochberg on the
// example of their 1995 paper.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { benjaminiHochberg } from '../../kernels/benjamini-hochberg.js';
import {
  BOOTSTRAP_N_MAX, BOOTSTRAP_RESAMPLES, meanInterval,
} from '../../kernels/mean-interval.js';
import { averageRanks, spearman } from '../../kernels/spearman.js';
import { studentTQuantile } from '../../kernels/t-quantile.js';
import { wilsonInterval } from '../../kernels/wilson.js';
import { seededRandom } from '../helpers/seeded-random.js';

const near = (actual: number | undefined, expected: number, tolerance: number, what: string) =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) <= tolerance,
    `${what}: ${actual} vs ${expected}`);

test('Wilson: the formula, textbook values, the edges', () => {
  // Newcombe (1998), table I: 81/263 gives 0.2553..0.3662; 15/148 gives 0.0624..0.1605.
  const a = wilsonInterval(81, 263)!;
  near(a.low, 0.2553, 5e-5, '81/263 low');
  near(a.high, 0.3662, 5e-5, '81/263 high');
  const b = wilsonInterval(15, 148)!;
  near(b.low, 0.0624, 5e-5, '15/148 low');
  near(b.high, 0.1605, 5e-5, '15/148 high');
  for (const [k, n] of [[0, 10], [3, 25], [10, 10], [361, 2958]]) {
    const z = 1.959963984540054;
    const p = k / n;
    const centre = (p + z * z / (2 * n)) / (1 + z * z / n);
    const half = z / (1 + z * z / n) * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n));
    const w = wilsonInterval(k, n)!;
    near(w.low, Math.max(0, centre - half), 1e-12, `${k}/${n} low`);
    near(w.high, Math.min(1, centre + half), 1e-12, `${k}/${n} high`);
  }
  assert.is(wilsonInterval(0, 0), null);
  assert.throws(() => wilsonInterval(5, 4));
});

test('bootstrap below 200: the same resamples as a re-implementation with the seed', () => {
  const draw = seededRandom(7);
  const n = 40;
  // Results in R: a t1 at +1.5, a stop at -1, else a move in between.
  const values = Float64Array.from({ length: n }, () => {
    const u = draw();
    return u < 0.3 ? 1.5 : u < 0.7 ? -1 : 2.5 * u - 2;
  });
  const seed = 12_345;
  const got = meanInterval(values, n, seed)!;
  // The procedure written out again: resample n with replacement, 2,000 times, percentiles.
  const next = seededRandom(seed);
  const means: number[] = [];
  for (let b = 0; b < 2_000; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(next() * n)];
    means.push(sum / n);
  }
  means.sort((x, y) => x - y);
  assert.is(BOOTSTRAP_RESAMPLES, 2_000);
  assert.is(got.method, 'bootstrap');
  near(got.mean, values.reduce((s, v) => s + v, 0) / n, 1e-12, 'mean');
  near(got.low, means[50], 1e-12, 'percentile 2.5');
  near(got.high, means[1949], 1e-12, 'percentile 97.5');
  const tail = Math.min(means.filter((m) => m <= 0).length, means.filter((m) => m >= 0).length);
  near(got.pValue, Math.min(1, 2 * (tail + 1) / 2_001), 1e-12, 'p-value');
  // Same seed, same answer; another seed, other resamples.
  assert.equal(meanInterval(values, n, seed), got);
  const other = meanInterval(values, n, seed + 1)!;
  assert.ok(other.low !== got.low || other.high !== got.high, 'another seed resamples anew');
  assert.is(meanInterval(values, 4, seed), null, 'too few values for an interval');
});

test('block bootstrap: whole blocks resampled, as a re-implementation with the seed', () => {
  const draw = seededRandom(11);
  const n = 60;
  // Blocks of 1 to 5 values that share an outcome (overlapping windows move together).
  const blocks = new Int32Array(n);
  const values = new Float64Array(n);
  let block = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && draw() < 0.35) block += 1;
    blocks[i] = block * 7;
    values[i] = (block % 3 === 0 ? 1.5 : -1) + (draw() - 0.5) / 10;
  }
  const seed = 4_242;
  const got = meanInterval(values, n, seed, blocks)!;
  const sums: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i === 0 || blocks[i] !== blocks[i - 1]) {
      sums.push(0);
      counts.push(0);
    }
    sums[sums.length - 1] += values[i];
    counts[counts.length - 1] += 1;
  }
  const k = sums.length;
  const next = seededRandom(seed);
  const means: number[] = [];
  for (let b = 0; b < 2_000; b++) {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < k; i++) {
      const j = Math.floor(next() * k);
      sum += sums[j];
      count += counts[j];
    }
    means.push(sum / count);
  }
  means.sort((x, y) => x - y);
  assert.is(got.method, 'bootstrap');
  near(got.low, means[50], 1e-12, 'percentile 2.5');
  near(got.high, means[1949], 1e-12, 'percentile 97.5');
  const tail = Math.min(means.filter((m) => m <= 0).length, means.filter((m) => m >= 0).length);
  near(got.pValue, Math.min(1, 2 * (tail + 1) / 2_001), 1e-12, 'p-value');
  // Taken one by one the same values look surer of themselves than they are.
  const single = meanInterval(values, n, seed)!;
  assert.ok(single.high - single.low < got.high - got.low, 'blocks widen the interval');
  assert.is(meanInterval(values, n, seed, new Int32Array(n).fill(3)), null, 'one block');
});

test('cluster-robust t from 200 values in 50 blocks: the variance of block sums', () => {
  const n = 600;
  const blocks = Int32Array.from({ length: n }, (_, i) => Math.floor(i / 3));
  const values = Float64Array.from({ length: n },
    (_, i) => (Math.floor(i / 3) % 4 === 0 ? 2 : -0.5));
  const mean = values.reduce((s, v) => s + v, 0) / n;
  let squares = 0;
  for (let b = 0; b < 200; b++) {
    const sum = values[3 * b] + values[3 * b + 1] + values[3 * b + 2];
    squares += (sum - 3 * mean) ** 2;
  }
  const se = Math.sqrt(squares * 200 / 199) / n;
  const got = meanInterval(values, n, 1, blocks)!;
  assert.is(got.method, 't');
  near(got.low, mean - 1.971957 * se, 1e-5, 'low');
  near(got.high, mean + 1.971957 * se, 1e-5, 'high');
  // The same values in 40 blocks of 15: too few clusters for that variance, the bootstrap.
  const few = Int32Array.from({ length: n }, (_, i) => Math.floor(i / 15));
  assert.is(meanInterval(values, n, 1, few)!.method, 'bootstrap');
});

test('t interval from 200: mean +- t(0.975, n-1) s / sqrt(n), tabled quantile', () => {
  // Tables: t(0.975, 199) = 1.971957, t(0.975, 9) = 2.262157.
  near(studentTQuantile(0.975, 199), 1.971957, 1e-6, 't 199');
  near(studentTQuantile(0.975, 9), 2.262157, 1e-6, 't 9');
  near(studentTQuantile(0.975, 30), 2.042272, 1e-6, 't 30');
  near(studentTQuantile(0.975, 1_000), 1.962339, 1e-6, 't 1000');
  near(studentTQuantile(0.9, 60), 1.295821, 1e-6, 't 60 at 0.9');
  const n = BOOTSTRAP_N_MAX;
  const values = Float64Array.from({ length: n }, (_, i) => (i % 4 === 0 ? 2 : -0.5));
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1));
  const got = meanInterval(values, n, 1)!;
  assert.is(got.method, 't');
  near(got.low, mean - 1.971957 * sd / Math.sqrt(n), 1e-5, 'low');
  near(got.high, mean + 1.971957 * sd / Math.sqrt(n), 1e-5, 'high');
  // t = 0.125 / (sd / sqrt 200) = 1.6308: two-sided p about 0.1045 at 199 df.
  near(got.pValue, 0.1045, 5e-4, 'p-value');
});

test('Spearman: a textbook set, ties by average rank, the Fisher z interval', () => {
  // IQ and hours of television (the standard worked example): rho = -29/165.
  const iq = Float64Array.from([106, 86, 100, 101, 99, 103, 97, 113, 112, 110]);
  const tv = Float64Array.from([7, 0, 27, 50, 28, 29, 20, 12, 6, 17]);
  const got = spearman(iq, tv, 10)!;
  near(got.rho, -29 / 165, 1e-12, 'rho');
  const half = 1.959963984540054 * 1.06 / Math.sqrt(7);
  near(got.low, Math.tanh(Math.atanh(-29 / 165) - half), 1e-12, 'low');
  near(got.high, Math.tanh(Math.atanh(-29 / 165) + half), 1e-12, 'high');
  // Ties: 10, 20, 20, 30, 30, 30 rank 1, 2.5, 2.5, 5, 5, 5.
  assert.equal([...averageRanks(Float64Array.from([30, 20, 10, 30, 20, 30]), 6)],
    [5, 2.5, 1, 5, 2.5, 5]);
  // With ties rho is Pearson's r of the average ranks: worked out here by hand.
  const x = Float64Array.from([1, 2, 2, 3, 4, 4, 5]);
  const y = Float64Array.from([2, 1, 3, 3, 5, 4, 4]);
  const rx = [1, 2.5, 2.5, 4, 5.5, 5.5, 7];
  const ry = [2, 1, 3.5, 3.5, 7, 5.5, 5.5];
  const m = 4;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < 7; i++) {
    sxy += (rx[i] - m) * (ry[i] - m);
    sxx += (rx[i] - m) ** 2;
    syy += (ry[i] - m) ** 2;
  }
  near(spearman(x, y, 7)!.rho, sxy / Math.sqrt(sxx * syy), 1e-12, 'rho with ties');
  assert.is(spearman(x, Float64Array.from([1, 1, 1, 1, 1, 1, 1]), 7), null, 'constant side');
  assert.is(spearman(x, y, 4), null, 'too few');
});

test('Benjamini-Hochberg: the 15 p-values of the 1995 paper give 4 discoveries at 0.05', () => {
  const p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240,
    0.4262, 0.5719, 0.6528, 0.7590, 1.0000];
  // Shuffled: the verdict follows each p-value, not its position.
  const order = [7, 0, 14, 3, 9, 1, 12, 5, 2, 11, 4, 13, 6, 10, 8];
  const shuffled = order.map((i) => p[i]);
  const got = benjaminiHochberg(shuffled, 0.05);
  assert.equal(order.filter((_, k) => got[k]).sort((a, b) => a - b), [0, 1, 2, 3]);
  // Step-up: 0.04 and 0.045 of two tests are both discoveries though 0.04 > 0.05 / 2.
  assert.equal(benjaminiHochberg([0.045, 0.04]), [true, true]);
  assert.equal(benjaminiHochberg([]), []);
});

test.run();
