// The Pair page's axis ticks (web/src/axis.ts): round steps, at least 3 ticks over any span,
// labels in the chart's units, and the UTC midnights of a range.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compactLabels, decimalsOf, niceTicks, paddedRange, plainLabels, utcMidnights,
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

axis('a range holds the data with air, and 3 or more ticks of its own', () => {
  const [low, high] = paddedRange(-618e6, 1.402e9);
  assert.ok(low < -618e6 && high > 1.402e9);
  // No round step gives 3 or 4 here: the fewest above (5) rather than 2.
  assert.equal(niceTicks(low, high, 4), [-500e6, 0, 500e6, 1e9, 1.5e9]);
  const [flatLow, flatHigh] = paddedRange(0.5, 0.5);
  assert.ok(flatLow < 0.5 && flatHigh > 0.5);
  assert.ok(niceTicks(flatLow, flatHigh, 3).length >= 3);
  assert.equal(paddedRange(NaN, 1), [0, 1]);
});

axis('no more ticks than asked for where a round step allows', () => {
  assert.equal(niceTicks(5.0840e9, 5.0908e9, 3), [5.085e9, 5.0875e9, 5.09e9]);
  assert.equal(niceTicks(41_140, 55_660, 7), [42_000, 44_000, 46_000, 48_000, 50_000, 52_000,
    54_000]);
  assert.equal(niceTicks(-2.88e9, 3.28e9, 4), [-2e9, 0, 2e9]);
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
