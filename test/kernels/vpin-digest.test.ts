// The VPIN levels' digest (kernels/vpin-digest.ts) against the `tdigest` package's TDigest it
// replaces: the same pushes give the same centroids, counts, cumulations and ranks, through
// merges, exact repeats and recompressions (Math.random seeded alike for both).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TDigest } from 'tdigest';
import { VpinDigest } from '../../kernels/vpin-digest.js';

/** The package's fields the comparison reads. */
interface PackageDigest {
  n: number;
  last_cumulate: number;
  size(): number;
  push(x: number): void;
  p_rank(x: number): number;
  toArray(everything?: boolean): object[];
}

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

/** Runs `f` with Math.random drawn from a fixed sequence. */
function withRandom<T>(seed: number, f: () => T): T {
  const random = Math.random;
  Math.random = lcg(seed);
  try {
    return f();
  } finally {
    Math.random = random;
  }
}

/** What either digest answers along a run: ranks after some pushes, states at checkpoints. */
function run(digest: VpinDigest | PackageDigest, values: number[], everyRank: number): unknown[] {
  const rank = (x: number) => digest instanceof VpinDigest ? digest.rank(x)
    : (digest as PackageDigest).p_rank(x);
  const size = () => digest instanceof VpinDigest ? digest.size : digest.size();
  const out: unknown[] = [];
  values.forEach((v, i) => {
    digest.push(v);
    if (i % everyRank === 0) out.push(rank(v), rank(0.5), rank(v * 0.9), rank(-1), rank(2));
    if (i % 500 === 0) out.push(size(), digest.n, digest.last_cumulate, digest.toArray());
  });
  out.push(digest.toArray(true), digest.n, digest.last_cumulate);
  return out;
}

function compare(values: number[], everyRank: number, delta = 0.01, K = 10): void {
  const mine = withRandom(3, () => run(new VpinDigest(delta, K), values, everyRank));
  const theirs = withRandom(3, () =>
    run(new TDigest(delta, K) as unknown as PackageDigest, values, everyRank));
  assert.equal(mine, theirs);
}

test('the same centroids and ranks as the package, rated after every push', () => {
  const next = lcg(7);
  compare(Array.from({ length: 3_000 }, () => next()), 1);
});

test('the same when values repeat and ranks are rare (stale cumulations merge)', () => {
  const next = lcg(11);
  // Rounded to 3 decimals: exact repeats add weight to a centroid without limit.
  compare(Array.from({ length: 4_000 }, () => Math.round(next() ** 2 * 1000) / 1000), 37);
  compare(Array.from({ length: 2_000 }, () => next() * 0.3 + 0.2), 1_000_000);
});

test('the same through recompressions (past K / delta centroids)', () => {
  const next = lcg(5);
  // Rising values make a centroid each: 1,000 is passed within the first few thousand.
  const values = Array.from({ length: 6_000 }, (_, i) => (i + next()) / 6_000);
  compare(values, 7);
  compare(values, 1, 0.05, 25);
});

test('a digest images and restores its centroids in order', () => {
  const a = new VpinDigest(0.01, 10);
  const next = lcg(9);
  for (let i = 0; i < 700; i++) a.push(next());
  const b = new VpinDigest(0.01, 10);
  b.restoreImage(a.centroidImage(), a.n, a.last_cumulate);
  assert.equal(b.toArray(true), a.toArray(true));
  for (let i = 0; i < 300; i++) {
    const v = next();
    a.push(v);
    b.push(v);
    assert.is(b.rank(v), a.rank(v));
  }
  assert.throws(() => new VpinDigest(0, 10), /delta/);
});

test.run();
