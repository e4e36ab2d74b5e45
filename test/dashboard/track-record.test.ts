// The Signals page's track record rows (web/src/track-record.ts): grades best first, and no
// rate where nothing was evaluated yet.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { byGrade, expectancy, hitRate } from '../../web/src/track-record.js';

test('grades best first, A+ before A; an unknown group last', () => {
  const groups = ['A', 'D', 'x', 'A+', 'C', 'B'].map((group) => ({ group, count: 1 }));
  assert.equal(byGrade(groups).map((g) => g.group), ['A+', 'A', 'B', 'C', 'D', 'x']);
});

test('nothing evaluated: no rate and no expectancy, not 0 %', () => {
  const fresh = { group: 'C', count: 3_028, evaluated: 0, hitRate: null, expectancyR: null };
  assert.is(hitRate(fresh), '—');
  assert.is(expectancy(fresh), '—');
  const done = { group: 'A', count: 40, evaluated: 32, hitRate: 0.5625, expectancyR: -0.125 };
  assert.is(hitRate(done), '56.3 %');
  assert.is(expectancy(done), '-0.13 R');
  assert.is(hitRate({ ...done, hitRate: 0 }), '0.0 %');
});

test.run();
