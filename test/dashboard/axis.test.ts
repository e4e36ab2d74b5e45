// The Pair page's axis ticks (web/src/axis.ts): round steps, at least 3 ticks over any span,
// labels in the chart's units, and the UTC midnights of a range.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compactLabels, decimalsOf, niceRange, niceTicks, plainLabels, utcMidnights,
} from '../../web/src/axis.js';

const axis = suite('axis ticks');

axis('round steps, both ends included when they fall on one', () => {
  assert.equal(niceTicks(0, 1, 3), [0, 0.5, 1]);
  assert.equal(niceTicks(0, 1, 5), [0, 0.25, 0.5, 0.75, 1]);
  assert.equal(niceTicks(-620e6, 1.4e9, 4), [-500e6, 0, 500e6, 1e9]);
  assert.equal(niceTicks(96_812.4, 97_480.2, 6), [96_900, 97_000, 97_100, 97_200, 97_300,
    97_400]);
  assert.equal(niceTicks(0.1, 0.3, 3), [0.1, 0.2, 0.3]);
});

axis('at least 3 ticks on any span, none written with float noise', () => {
  for (const [min, max] of [[0.31, 0.3100004], [5e9, 5.2e9], [-3, 2], [1e-9, 7e-9],
    [0.070043, 0.07101], [64_250, 64_251], [0, 0.0000041685]]) {
    for (const count of [3, 4, 7]) {
      const ticks = niceTicks(min!, max!, count);
      assert.ok(ticks.length >= 3, `${min}..${max} by ${count}: ${ticks}`);
      assert.ok(ticks.every((t) => t >= min! - 1e-12 && t <= max! + 1e-12));
      assert.ok(ticks.every((t) => t === +t.toPrecision(8)), `${ticks}`);
    }
  }
  assert.equal(niceTicks(5, 5, 4), [5]);
  assert.equal(niceTicks(5, 4, 4), []);
});

axis('a range ends on ticks and holds the data with air', () => {
  const [low, high] = niceRange(-618e6, 1.402e9, 4);
  assert.ok(low < -618e6 && high > 1.402e9);
  const ticks = niceTicks(low, high, 4);
  assert.is(ticks[0], low);
  assert.is(ticks[ticks.length - 1], high);
  assert.equal(niceRange(0.5, 0.5, 3).length, 2);
  assert.ok(niceRange(0.5, 0.5, 3)[0] < 0.5);
});

axis('labels: one unit per USD axis, the decimals the step needs', () => {
  assert.equal(compactLabels([-500e6, 0, 500e6, 1e9]), ['-0.5B', '0', '0.5B', '1.0B']);
  assert.equal(compactLabels([2.25e9, 2.5e9, 2.75e9]), ['2.25B', '2.50B', '2.75B']);
  assert.equal(compactLabels([0, 20_000, 40_000]), ['0', '20K', '40K']);
  assert.equal(plainLabels([96_900, 97_000, 97_100]), ['96,900', '97,000', '97,100']);
  assert.equal(plainLabels([0.25, 0.5, 0.75]), ['0.25', '0.50', '0.75']);
  assert.is(decimalsOf(2.5e-3), 4);
  assert.is(decimalsOf(100), 0);
});

axis('the UTC midnights inside a range', () => {
  const day = 86_400;
  assert.equal(utcMidnights(10 * day + 3_600, 12 * day + 60), [11 * day, 12 * day]);
  assert.equal(utcMidnights(10 * day, 10 * day + 3_600), []);
});

axis.run();
