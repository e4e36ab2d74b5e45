// Regime labels on constructed 5-minute bars, and the composite score's formula by hand.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  classifyRegime, createRegimeState, defaultRegimeOptions, pushRegimeBar, regimeName,
  updateRegime, type RegimeState,
} from '../../kernels/regime.js';
import {
  compositeScore, defaultScoreOptions, directionOf, DIRECTION_NAMES, fundingComponent,
} from '../../kernels/score.js';

const options = { ...defaultRegimeOptions, rvHistory: 100, rvMinSamples: 20 };
const bar = (s: RegimeState, close: number, halfRange: number) =>
  updateRegime(s, close + halfRange, close - halfRange, close);
/** A V: down `n` steps then up `n` steps, repeated: no net move, so a low efficiency ratio. */
function vShape(s: RegimeState, start: number, step: number, bars: number) {
  for (let k = 0; k < bars; k++) {
    const phase = k % 20;
    bar(s, start - step * (phase < 10 ? phase : 20 - phase), step * 0.1);
  }
}

test('unknown (null) until N + 1 bars; trending on a steady climb', () => {
  const s = createRegimeState(options);
  for (let k = 0; k < 20; k++) bar(s, 100 + k, 0.1);
  assert.is(regimeName(s), null);
  for (let k = 20; k < 30; k++) bar(s, 100 + k, 0.1);
  assert.is(regimeName(s), 'trending');
  assert.ok(s.efficiencyRatio > 0.99);
});

test('squeeze: tight closes inside wide bars (Bollinger inside Keltner) comes first', () => {
  const s = createRegimeState(options);
  for (let k = 0; k < 40; k++) bar(s, 100 + (k % 2) * 0.01, 2);
  assert.is(regimeName(s), 'squeeze');
});

test('volatile after a quiet history, ranging after a wild one', () => {
  const loud = createRegimeState(options);
  vShape(loud, 100, 0.05, 120);
  vShape(loud, 100, 1, 21);
  assert.is(regimeName(loud), 'volatile');
  const calm = createRegimeState(options);
  vShape(calm, 100, 2, 120);
  vShape(calm, 100, 0.5, 21);
  assert.is(regimeName(calm), 'ranging');
});

test('score: weighted mean of the available components, damped by the VPIN level', () => {
  const o = defaultScoreOptions;
  // CVD 0.5 alone (whale flow unknown counts as neutral 0): 100 * 0.15 / 0.5 = 30.
  assert.is(compositeScore(o, 0.5, NaN, NaN, NaN, NaN, -1), 30);
  assert.is(DIRECTION_NAMES[directionOf(o, 30)], 'LONG');
  assert.is(compositeScore(o, 0.5, NaN, NaN, NaN, NaN, 3), 12, 'extreme VPIN damps by 0.4');
  assert.is(DIRECTION_NAMES[directionOf(o, 12)], 'NEUTRAL');
  // All in: cvd -1, ofi z -4 (clamped -1), obi -0.5, whale -1, funding +100 %/y (-1).
  const all = compositeScore(o, -1, -4, -0.5, -1, 100, 0);
  assert.is(all, Math.round((100 * (-0.3 - 0.2 - 0.075 - 0.2 - 0.15)) / 1));
  assert.is(DIRECTION_NAMES[directionOf(o, all)], 'SHORT');
  assert.ok(Number.isNaN(compositeScore(o, NaN, 1, 1, 1, 0, 0)), 'no CVD flow: no score');
  assert.is(Object.is(compositeScore(o, -0.001, NaN, NaN, NaN, NaN, -1), -0), false);
  assert.is(fundingComponent(o, 10), 0, 'inside the neutral band');
  assert.is(fundingComponent(o, -60), 0.5, 'negative funding leans long');
});

test('bars pushed in a batch then classified once: the same as one update each', () => {
  const each = createRegimeState();
  const batch = createRegimeState();
  let close = 100;
  for (let i = 0; i < 700; i++) {
    close *= 1 + 0.002 * Math.sin(i * 0.7) + (i % 50 < 10 ? 0.004 : 0);
    updateRegime(each, close * 1.001, close * 0.999, close);
    pushRegimeBar(batch, close * 1.001, close * 0.999, close);
    if (i % 12 === 11) {
      classifyRegime(batch);
      assert.equal({ ...batch, options: null }, { ...each, options: null }, `bar ${i}`);
    }
  }
  assert.throws(() => pushRegimeBar(batch, 1, 2, 1.5), /regime bar/);
});

test.run();
