// The state image (kernels/state-image.ts): a restored tree answers later updates exactly as
// the captured one; t-digests come back with the same centroids and counts; an image that does
// not fit (shape, type, a fixed option) is refused before anything is written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Packr } from 'msgpackr';
import {
  captureState, restoreState, StateImageMismatch,
} from '../../kernels/state-image.js';
import {
  createVpinLevelState, updateVpinLevel, vpinCdf, type VpinLevelState,
} from '../../kernels/vpin-level.js';
import { createPairAnalytics, onTrade } from '../../kernels/pair-analytics.js';

const packr = new Packr({ moreTypes: true, useRecords: false });
const roundTrip = (image: unknown) => packr.unpack(packr.pack(image));
/** A tree's image as bytes: typed arrays holding NaN compare equal only this way. */
const bytesOf = (tree: unknown) => Buffer.from(packr.pack(captureState(tree)));

function values(seed: number, count: number): number[] {
  let s = seed;
  return Array.from({ length: count }, () => ((s = (s * 16807) % 2147483647) / 2147483647));
}

test('t-digests restore to the same centroids and answer later pushes identically', () => {
  const options = { halfWindowValues: 300, minValues: 10, compression: 0.01 };
  const a = createVpinLevelState(options);
  for (const v of values(7, 420)) updateVpinLevel(a, v);
  const b = createVpinLevelState(options);
  restoreState(b, roundTrip(captureState(a)));
  const centroids = (s: VpinLevelState) => [s.older, s.newer].map((d) => d.toArray(true));
  assert.equal(centroids(b), centroids(a));
  for (const v of values(11, 250)) {
    updateVpinLevel(a, v);
    updateVpinLevel(b, v);
  }
  for (const q of [0.01, 0.3, 0.5, 0.77, 0.99]) assert.is(vpinCdf(b, q), vpinCdf(a, q));
  assert.equal(centroids(b), centroids(a));
  assert.is(b.pushes, a.pushes);
});

test('a pair analytics tree round-trips exactly through msgpack', () => {
  const a = createPairAnalytics();
  let t = 1_700_000_000_000;
  for (const [i, v] of values(3, 2_000).entries()) {
    t += 250;
    onTrade(a, t, 100 + v, 0.5 + v, i % 3 === 0 ? -1 : 1);
  }
  const b = createPairAnalytics();
  restoreState(b, roundTrip(captureState(a)));
  assert.ok(bytesOf(b).equals(bytesOf(a)), 'same image');
  for (const [i, v] of values(5, 500).entries()) {
    t += 250;
    const side = i % 2 ? 1 : -1;
    assert.is(onTrade(b, t, 100 + v, 1, side), onTrade(a, t, 100 + v, 1, side));
  }
  assert.is(b.cvd.cvdDay, a.cvd.cvdDay);
});

test('an image that does not fit is refused and nothing is written', () => {
  const a = createPairAnalytics();
  onTrade(a, 1_000, 100, 1, 1);
  const image = roundTrip(captureState(a)) as Record<string, any>;
  const fresh = () => createPairAnalytics();
  const before = bytesOf(fresh());
  const cases: [string, unknown, RegExp][] = [
    ['other option', { ...image, options: { ...image.options, vpinWindowBuckets: 7 } },
      /state\.options\.vpinWindowBuckets: a fixed value differs/],
    ['missing key', { ...image, cvd: { ...image.cvd, cvd: undefined, extra: 1 } },
      /state\.cvd: keys/],
    ['not an object', 42, /object expected/],
  ];
  for (const [what, bad, message] of cases) {
    const tree = fresh();
    assert.throws(() => restoreState(tree, bad), (e: Error) =>
      e instanceof StateImageMismatch && message.test(e.message), what);
    assert.ok(bytesOf(tree).equals(before), `${what}: tree unchanged`);
  }
  const wrongType = fresh();
  const shaped = { ...image, cvd: { ...image.cvd } };
  const key = Object.keys(shaped.cvd).find((k) => shaped.cvd[k] instanceof Float64Array)!;
  shaped.cvd[key] = new Float32Array(shaped.cvd[key].length * 2);
  assert.throws(() => restoreState(wrongType, shaped), /Float64Array of/);
});

test('a class instance or a function in the tree cannot be captured', () => {
  assert.throws(() => captureState({ m: new Map() }), /class instance/);
  assert.throws(() => captureState({ f: () => 1 }), /cannot capture a function/);
});

test.run();
