// VPIN: hand case, exact equality with the unit-trade expansion, aggressor and BVC (normal and
// Student-t) against the plain bucket loop on random streams and on the real tape, levels.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normalCdf, studentTCdf } from '../../kernels/distributions.js';
import {
  createVpinLevelState, levelOfCdf, updateVpinLevel, vpinCdf, vpinLevelName,
} from '../../kernels/vpin-level.js';
import {
  createVpinState, defaultVpinOptions, resizeVpinBucketVolume, setVpinBucketVolume, snapshotVpin,
  updateVpin, type VpinOptions, type VpinState,
} from '../../kernels/vpin.js';
import { plainBvcInputs, plainVpin, unitVpin } from './helpers/plain.js';
import { close, randomTrades, realBtcTrades, type Trades } from './helpers/streams.js';

/** Feeds the trades; returns the VPIN after every completed bucket. */
function run(t: Trades, options: Partial<VpinOptions>): { state: VpinState; values: number[] } {
  const state = createVpinState({ ...defaultVpinOptions, ...options });
  const values: number[] = [];
  for (let i = 0; i < t.tsMs.length; i++) {
    updateVpin(state, t.tsMs[i], t.price[i], t.size[i], t.side[i]);
    const b = state.buckets;
    for (let k = 0; k < b.newCount; k++) values.push(b.newValues[k]);
  }
  return { state, values };
}
const snap = () => ({ vpin: null as number | null, bucketsCompleted: 0, bucketVolume: 0 });

test('hand case: V = 4, n = 2, a trade spilling over three buckets', () => {
  const t: Trades = { tsMs: [1, 2, 3], price: [10, 10, 10], size: [3, 10, 1], side: [1, -1, 1] };
  // buckets: [3B + 1S], [4S], [4S], then 1S + 1B open. Imbalances 2, 4, 4.
  const { state, values } = run(t, { bucketVolume: 4, windowBuckets: 2 });
  assert.equal(values, [(2 + 4) / 8, (4 + 4) / 8]);
  assert.equal(snapshotVpin(state, snap()).vpin, 1);
  assert.is(state.buckets.completed, 3);
  const empty = createVpinState({ ...defaultVpinOptions, bucketVolume: 4 });
  assert.is(snapshotVpin(empty, snap()).vpin, null, 'no full window: null, not 0');
});

test('equals the unit-trade expansion exactly (integer sizes)', () => {
  // Sizes are 1..9: with V = 3 no print spans more than n = 3 buckets, so none is skipped.
  for (const [seed, v, n] of [[5, 7, 5], [6, 10, 50], [7, 3, 3], [8, 1, 9]] as const) {
    const t = randomTrades(seed, 5000, true);
    const { values } = run(t, { bucketVolume: v, windowBuckets: n });
    const expected = unitVpin(t, v, n);
    assert.ok(expected.length > 10);
    assert.equal(values, expected, `seed ${seed}: exact equality`);
  }
});

test('a print of many buckets skips only what cannot stay in the window', () => {
  const t: Trades = { tsMs: [1, 2], price: [1, 1], size: [1, 1000], side: [1, -1] };
  const { state } = run(t, { bucketVolume: 2, windowBuckets: 3 });
  assert.is(state.buckets.completed, 500);
  assert.is(snapshotVpin(state, snap()).vpin, 1);
});

test('aggressor VPIN matches the plain bucket loop on random streams', () => {
  const t = randomTrades(11, 30_000);
  const { values } = run(t, { bucketVolume: 25, windowBuckets: 50 });
  const expected = plainVpin(t.size, t.side.map((s) => (s === 1 ? 1 : 0)), 25, 50);
  assert.is(values.length, expected.length);
  values.forEach((v, k) => assert.ok(close(v, expected[k]), `bucket ${k}`));
});

for (const nu of [0, 3.5]) {
  test(`BVC (${nu === 0 ? 'normal' : `Student-t nu ${nu}`}) matches the plain loop`, () => {
    const t = randomTrades(12, 30_000);
    const options = { mode: 'bvc' as const, bucketVolume: 40, windowBuckets: 20, bvcBarMs: 60_000,
      bvcSigmaBars: 50, bvcDegreesOfFreedom: nu };
    const { values } = run(t, options);
    const inputs = plainBvcInputs(t, 60_000, 50, nu);
    const expected = plainVpin(inputs.volumes, inputs.fractions, 40, 20);
    assert.ok(expected.length > 20);
    assert.is(values.length, expected.length);
    values.forEach((v, k) => assert.ok(close(v, expected[k]),
      `bucket ${k}: ${v} vs ${expected[k]}`));
  });
}

test('the real BTC tape: aggressor and BVC VPIN equal the plain loop', () => {
  const t = realBtcTrades();
  const aggressor = run(t, { bucketVolume: 10, windowBuckets: 50 });
  const expected = plainVpin(t.size, t.side.map((s) => (s === 1 ? 1 : 0)), 10, 50);
  assert.is(aggressor.values.length, expected.length);
  aggressor.values.forEach((v, k) => assert.ok(close(v, expected[k])));
  const bvc = run(t, { mode: 'bvc', bucketVolume: 10, windowBuckets: 50, bvcBarMs: 10_000 });
  const inputs = plainBvcInputs(t, 10_000, 1440, 0);
  const plainBvc = plainVpin(inputs.volumes, inputs.fractions, 10, 50);
  assert.ok(plainBvc.length > 100);
  assert.is(bvc.values.length, plainBvc.length);
  bvc.values.forEach((v, k) => assert.ok(close(v, plainBvc[k])));
});

test('resizing V keeps the filled buckets and their VPIN; new volume fills the new V', () => {
  const t: Trades = { tsMs: [1, 2, 3], price: [10, 10, 10], size: [3, 10, 1], side: [1, -1, 1] };
  // As in the hand case: [4S], [4S] in the ring, 1S + 1B open, VPIN 1.
  const { state } = run(t, { bucketVolume: 4, windowBuckets: 2 });
  resizeVpinBucketVolume(state, 8);
  // Scaled to V = 8: [8S], [8S], 2S + 2B open (half full); VPIN unchanged, nothing restarted.
  assert.equal(snapshotVpin(state, snap()), { vpin: 1, bucketsCompleted: 3, bucketVolume: 8 });
  // 4 more buys fill the open bucket at the new V: [2S + 6B]. VPIN (8 + 4) / (2 * 8).
  assert.is(updateVpin(state, 4, 10, 4, 1), 1);
  assert.equal(snapshotVpin(state, snap()), { vpin: 0.75, bucketsCompleted: 4, bucketVolume: 8 });
  // From V unknown (0): nothing was filled, so a resize is a start.
  const unknown = createVpinState({ ...defaultVpinOptions, windowBuckets: 2 });
  updateVpin(unknown, 0, 10, 5, 1);
  resizeVpinBucketVolume(unknown, 4);
  for (let i = 0; i < t.tsMs.length; i++) {
    updateVpin(unknown, t.tsMs[i], t.price[i], t.size[i], t.side[i]);
  }
  assert.equal(snapshotVpin(unknown, snap()), { vpin: 1, bucketsCompleted: 3, bucketVolume: 4 });
  // Back to unknown: the buckets restart (VPIN null), as a bad V is refused.
  resizeVpinBucketVolume(state, 0);
  assert.equal(snapshotVpin(state, snap()), { vpin: null, bucketsCompleted: 0, bucketVolume: 0 });
  assert.throws(() => resizeVpinBucketVolume(state, NaN), /bucketVolume/);
});

test('setting V restarts the buckets; bad options are rejected', () => {
  const { state } = run(randomTrades(3, 2000), { bucketVolume: 5, windowBuckets: 5 });
  assert.ok(snapshotVpin(state, snap()).vpin !== null);
  setVpinBucketVolume(state, 50);
  assert.equal(snapshotVpin(state, snap()), { vpin: null, bucketsCompleted: 0, bucketVolume: 50 });
  assert.throws(() => createVpinState({ ...defaultVpinOptions, windowBuckets: 0 }),
    /windowBuckets/);
  assert.throws(() => createVpinState({ ...defaultVpinOptions, mode: 'tick' as 'bvc' }), /mode/);
  assert.throws(() => setVpinBucketVolume(state, -1), /bucketVolume/);
});

test('distributions: known values of the normal and Student-t CDFs', () => {
  assert.ok(close(normalCdf(1), 0.8413447460685429, 1e-12));
  assert.ok(close(normalCdf(-1.96), 0.024997895148220435, 1e-11));
  assert.ok(close(normalCdf(-5), 2.866515718791939e-7, 1e-9));
  for (const x of [-3, -0.5, 0.7, 10]) {
    assert.ok(close(studentTCdf(x, 1), 0.5 + Math.atan(x) / Math.PI, 1e-12), `cauchy ${x}`);
    assert.ok(close(studentTCdf(x, 2), 0.5 + x / (2 * Math.sqrt(2 + x * x)), 1e-12), `nu 2 ${x}`);
  }
  assert.ok(close(studentTCdf(1.5, 1e6), normalCdf(1.5), 1e-6));
});

test('vpinLevel: CDF bounds 0.75 / 0.90 / 0.99, null until enough values', () => {
  assert.equal([0.5, 0.75, 0.89, 0.9, 0.989, 0.99].map(levelOfCdf), [0, 1, 1, 2, 2, 3]);
  const s = createVpinLevelState({ halfWindowValues: 500, minValues: 100, compression: 0.01 });
  for (let k = 0; k < 99; k++) updateVpinLevel(s, (k % 100) / 100);
  assert.is(vpinLevelName(s), null);
  for (let k = 0; k < 900; k++) updateVpinLevel(s, ((k * 37) % 100) / 100);
  assert.ok(Math.abs(vpinCdf(s, 0.5) - 0.5) < 0.03);
  updateVpinLevel(s, 0.995);
  assert.is(vpinLevelName(s), 'extreme');
  updateVpinLevel(s, 0.3);
  assert.is(vpinLevelName(s), 'safe');
  updateVpinLevel(s, 0.85);
  assert.is(vpinLevelName(s), 'elevated');
  assert.ok(s.olderCount + s.newerCount <= 1000, 'the trailing window is bounded');
  assert.throws(() => updateVpinLevel(s, 2), /vpin must be a number in \[0, 1\]/);
});

test.run();
