// Whale prints (merge, fixed and quantile thresholds), the rolling histogram quantile, and
// absorption events: hand cases, random streams and the real tape against the plain versions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BUY_ABSORBED, classifyWindow, createAbsorptionSnapshot, createAbsorptionState,
  defaultAbsorptionOptions, SELL_ABSORBED, snapshotAbsorption, updateAbsorption,
} from '../../kernels/absorption.js';
import {
  createRollingHistogram, pushRollingHistogram, quantileRollingHistogram,
} from '../../kernels/rolling-histogram.js';
import {
  advanceWhale, createWhaleSnapshot, createWhaleState, defaultWhaleOptions, snapshotWhale,
  updateWhale, WHALE_CLOSED, WHALE_CROSSED,
} from '../../kernels/whale.js';
import { plainAbsorption, plainWhales } from './helpers/plain.js';
import { close, randomTrades, realBtcTrades, rng, type Trades } from './helpers/streams.js';

const fixed = (usd: number) => ({
  ...defaultWhaleOptions, minSamples: 1e9, fallbackUsd: usd, floorUsd: 0, listSize: 10_000,
});

test('whale hand case: same-ms same-side prints merge; bits on cross and on close', () => {
  const s = createWhaleState(fixed(1000));
  assert.is(updateWhale(s, 1, 100, 4, 1), 0);
  assert.is(updateWhale(s, 1, 101, 4, 1), 0, '400 + 404 = 804 < 1000');
  assert.is(updateWhale(s, 1, 102, 2, 1), WHALE_CROSSED, '804 + 204 = 1008');
  assert.is(updateWhale(s, 1, 102, 2, -1), WHALE_CLOSED, 'other side closes the merged print');
  assert.is(updateWhale(s, 2, 50, 1, -1), 0);
  assert.is(advanceWhale(s, 3), 0);
  const out = snapshotWhale(s, createWhaleSnapshot(10));
  assert.is(out.count, 1);
  assert.equal([out.tsMs[0], out.notional[0], out.size[0], out.side[0]], [1, 1008, 10, 1]);
  assert.ok(close(out.price[0], 100.8));
});

function whalesOf(t: Trades, threshold: number) {
  const s = createWhaleState(fixed(threshold));
  for (let i = 0; i < t.tsMs.length; i++) updateWhale(s, t.tsMs[i], t.price[i], t.size[i],
    t.side[i]);
  const out = snapshotWhale(s, createWhaleSnapshot(10_000));
  const list = [];
  for (let k = out.count - 1; k >= 0; k--) {
    list.push({ tsMs: out.tsMs[k], notional: out.notional[k], side: out.side[k] });
  }
  return list;
}

test('whales on random streams and the real tape match the plain merge', () => {
  for (const [t, usd] of [[randomTrades(41, 30_000), 2000], [realBtcTrades(), 50_000]] as const) {
    const got = whalesOf(t, usd);
    const expected = plainWhales(t, usd);
    assert.ok(expected.length > 5);
    assert.is(got.length, expected.length);
    got.forEach((w, k) => assert.ok(w.tsMs === expected[k].tsMs && w.side === expected[k].side &&
      close(w.notional, expected[k].notional), `whale ${k}`));
  }
});

test('rolling histogram quantile is within one bin of the exact quantile, and forgets', () => {
  const h = createRollingHistogram(1000, 10, 0, 34, 8);
  const r = rng(5);
  const values: number[] = [];
  for (let k = 0; k < 5000; k++) {
    const v = Math.exp(r() * 12);
    values.push(v);
    pushRollingHistogram(h, 5000, v);
  }
  values.sort((a, b) => a - b);
  for (const q of [0.5, 0.9, 0.999]) {
    const exact = values[Math.ceil(q * values.length) - 1];
    const got = quantileRollingHistogram(h, q);
    assert.ok(got / exact < 1.13 && exact / got < 1.13, `q ${q}: ${got} vs ${exact}`);
  }
  pushRollingHistogram(h, 14_999, 3);
  assert.is(h.count, 5001, 'still inside the 10 slots');
  pushRollingHistogram(h, 15_000, 3);
  assert.is(h.count, 2, 'the slot of t = 5000 expired');
  assert.ok(Number.isNaN(quantileRollingHistogram(createRollingHistogram(1, 1, 0, 1, 1), 0.5)));
});

test('rolling histogram bins come from the bits: below min, sub-bins, octaves, the top', () => {
  const h = createRollingHistogram(1000, 1, 0, 4, 4);
  // bins: 0 below 1; 1..16 for [1, 16) at 4 per octave (1, 1.25, 1.5, 1.75, 2, 2.5, ...); 17 top
  const cases: [number, number][] = [[0, 0], [0.99, 0], [1, 1], [1.24, 1], [1.25, 2], [1.99, 4],
    [2, 5], [3.5, 8], [15.9, 16], [16, 17], [1e300, 17]];
  for (const [value, bin] of cases) {
    const before = h.totals[bin];
    pushRollingHistogram(h, 0, value);
    assert.is(h.totals[bin], before + 1, `${value} in bin ${bin}`);
    assert.is(h.edges[bin] <= value, true, `edge of ${value}`);
  }
  assert.throws(() => createRollingHistogram(1000, 1, 0, 4, 3), /binsPerOctave/);
});

test('the whale threshold follows the trailing quantile, never below the floor', () => {
  const s = createWhaleState({ ...defaultWhaleOptions, minSamples: 500, floorUsd: 10 });
  assert.is(s.thresholdUsd, 100_000, 'the fallback before enough prints');
  const r = rng(9);
  for (let k = 0; k < 3000; k++) updateWhale(s, 1_000_000 + k, 100, 0.5 + r(), 1);
  // notional uniform in [50, 150]: the 99.9 % quantile is near 150.
  assert.ok(s.thresholdUsd > 130 && s.thresholdUsd < 170, String(s.thresholdUsd));
});

test('absorption hand case and the classification rules', () => {
  assert.is(classifyWindow(100, 900, -1, 500, 0.3, 5), SELL_ABSORBED);
  assert.is(classifyWindow(100, 900, -6, 500, 0.3, 5), 0, 'price gave way: no absorption');
  assert.is(classifyWindow(900, 100, 4, 500, 0.3, 5), BUY_ABSORBED);
  assert.is(classifyWindow(600, 400, 0, 500, 0.3, 5), 0, 'imbalance 0.2 < 0.3');
  assert.is(classifyWindow(0, 0, 0, 0, 0.3, 5), 0);
  const s = createAbsorptionState({ ...defaultAbsorptionOptions, fallbackUsd: 500,
    minSamples: 1e9 });
  updateAbsorption(s, 0, 100, 1, 1);
  updateAbsorption(s, 10, 100, 9, -1);
  updateAbsorption(s, 20, 99.99, 1, -1); // -1 bps
  assert.is(updateAbsorption(s, 60_000, 100, 1, 1), true);
  const out = snapshotAbsorption(s, createAbsorptionSnapshot(5));
  assert.is(out.count, 1);
  assert.equal([out.openMs[0], out.kind[0], out.buyNotional[0]], [0, SELL_ABSORBED, 100]);
  assert.ok(close(out.sellNotional[0], 900 + 99.99) && close(out.moveBps[0], -1));
});

test('absorption on random streams and the real tape matches the plain windows', () => {
  for (const [t, w, nMin] of [[randomTrades(51, 40_000), 60_000, 20_000], [realBtcTrades(), 5000,
    200_000]] as const) {
    const s = createAbsorptionState({ ...defaultAbsorptionOptions, windowMs: w, fallbackUsd: nMin,
      minSamples: 1e9, listSize: 10_000 });
    for (let i = 0; i < t.tsMs.length; i++) updateAbsorption(s, t.tsMs[i], t.price[i], t.size[i],
      t.side[i]);
    const out = snapshotAbsorption(s, createAbsorptionSnapshot(10_000));
    const expected = plainAbsorption(t, w, nMin, 0.3, 5);
    assert.ok(expected.length > 0);
    assert.is(out.count, expected.length);
    for (let k = 0; k < out.count; k++) {
      const e = expected[expected.length - 1 - k];
      assert.equal([out.openMs[k], out.kind[k]], [e.openMs, e.kind]);
    }
  }
});

test.run();
