// The information coefficient's block interval against one worked out independently here: the
// resampled pairs written out and ranked by counting with the same seed's draws, and the
// delete-a-group jackknife spelled out.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { blockSpearman, JACKKNIFE_GROUPS_MAX } from '../../kernels/block-spearman.js';
import { BOOTSTRAP_RESAMPLES } from '../../kernels/mean-interval.js';
import { studentTQuantile } from '../../kernels/t-quantile.js';
import { seededRandom } from '../helpers/seeded-random.js';

const near = (actual: number | null | undefined, expected: number, what: string) =>
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) <= 1e-9,
    `${what}: ${actual} vs ${expected}`);

/** Spearman by the textbook: rank = 1 + #below + (#equal - 1) / 2, Pearson of the ranks. */
function naiveRho(x: number[], y: number[]): number {
  const rank = (v: number[]) => v.map((a) => 1 + v.filter((b) => b < a).length +
    (v.filter((b) => b === a).length - 1) / 2);
  const rx = rank(x);
  const ry = rank(y);
  const mean = (rx.length + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < rx.length; i++) {
    sxy += (rx[i] - mean) * (ry[i] - mean);
    sxx += (rx[i] - mean) ** 2;
    syy += (ry[i] - mean) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** n pairs in `blocks` blocks (ids 100, 103, ...), with ties, a mild correlation. */
function knownSet(n: number, blocks: number, seed: number) {
  const draw = seededRandom(seed);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = Math.round(draw() * 20);
    y[i] = Math.round((x[i] / 20 + draw()) * 10) / 10;
    ids[i] = 100 + 3 * Math.floor((i * blocks) / n);
  }
  return { x, y, ids };
}

/** Members of each block, in first-seen order. */
function blockMembers(ids: Int32Array): number[][] {
  const byId = new Map<number, number[]>();
  ids.forEach((id, i) => {
    if (!byId.has(id)) byId.set(id, []);
    byId.get(id)!.push(i);
  });
  return [...byId.values()];
}

test('bootstrap: the resampled pairs written out and ranked give the same percentiles', () => {
  const { x, y, ids } = knownSet(60, 12, 7);
  const seed = 1234;
  const got = blockSpearman(x, y, 60, seed, ids)!;
  assert.is(got.method, 'bootstrap');
  near(got.rho, naiveRho([...x], [...y]), 'rho');
  const members = blockMembers(ids);
  const draw = seededRandom(seed);
  const rhos: number[] = [];
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    const rx: number[] = [];
    const ry: number[] = [];
    for (let k = 0; k < members.length; k++) {
      for (const i of members[Math.floor(draw() * members.length)]) {
        rx.push(x[i]);
        ry.push(y[i]);
      }
    }
    rhos.push(naiveRho(rx, ry));
  }
  rhos.sort((a, b) => a - b);
  near(got.low, rhos[50], 'low (51st of 2,000)');
  near(got.high, rhos[1949], 'high (1,950th of 2,000)');
  // The same pairs in another order, blocks interleaved, give the same interval.
  const order = [...Array(60).keys()].sort((a, b) => (a % 7) - (b % 7) || a - b);
  const pick = (v: Float64Array | Int32Array) => order.map((i) => v[i]);
  const shuffled = blockSpearman(Float64Array.from(pick(x)), Float64Array.from(pick(y)), 60,
    seed, Int32Array.from(pick(ids)))!;
  near(shuffled.rho, got.rho, 'rho shuffled');
  assert.ok(shuffled.low! < got.rho && got.rho < shuffled.high!);
});

test('jackknife: each group of consecutive blocks left out, Fisher z, t on groups - 1', () => {
  const { x, y, ids } = knownSet(300, 60, 11);
  const got = blockSpearman(x, y, 300, 5, ids)!;
  assert.is(got.method, 'jackknife');
  // 60 blocks in at most 50 groups: block p (in id order) goes to group floor(p x 50 / 60).
  const blocks = blockMembers(ids);
  const members: number[][] = Array.from({ length: JACKKNIFE_GROUPS_MAX }, () => []);
  blocks.forEach((block, p) =>
    members[Math.floor((p * JACKKNIFE_GROUPS_MAX) / blocks.length)].push(...block));
  const k = members.length;
  const zs = members.map((left) => {
    const keep = [...Array(300).keys()].filter((i) => !left.includes(i));
    return Math.atanh(naiveRho(keep.map((i) => x[i]), keep.map((i) => y[i])));
  });
  const mean = zs.reduce((a, b) => a + b, 0) / k;
  const se = Math.sqrt(((k - 1) / k) * zs.reduce((a, z) => a + (z - mean) ** 2, 0));
  const z = Math.atanh(naiveRho([...x], [...y]));
  const half = studentTQuantile(0.975, k - 1) * se;
  near(got.low, Math.tanh(z - half), 'low');
  near(got.high, Math.tanh(z + half), 'high');
  // Too few blocks: the coefficient without an interval.
  const few = blockSpearman(x, y, 300, 5, new Int32Array(300).map((_, i) => i % 4))!;
  assert.equal([few.low, few.high, few.method], [null, null, null]);
});

test.run();
