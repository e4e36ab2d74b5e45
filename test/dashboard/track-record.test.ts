// The Signals page's track record rows (web/src/track-record.ts): grades best first, and no
// rate where nothing was evaluated yet.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { at, scaleOf } from '../../web/src/interval-scale.js';
import {
  byGrade, comparisonsNote, expectancy, gradeRows, hitRate, interval, lettersInOrder, percent,
  signedR, tooFew,
} from '../../web/src/track-record.js';

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

test('R with its sign and 2 decimals, shares in %, intervals in brackets', () => {
  assert.equal([0.125, -0.125, 0.004, -0.004, 0, null].map(signedR),
    ['+0.13', '-0.13', '0.00', '0.00', '0.00', '—']);
  assert.is(percent(0.18561), '18.6');
  assert.is(interval(0.149, 0.229, percent), '[14.9, 22.9]');
  assert.is(interval(-0.16, null, signedR), '—');
});

test('every letter A+ first, joined with its group; too few says how many of how many', () => {
  const rows = gradeRows({
    groups: [{ group: 'B', count: 375, evaluated: 361, edgeR: 0.1, edgeSignificant: true },
      { group: 'A+', count: 4, evaluated: 3 }],
    calibration: { grades: [{ grade: 'B', evaluated: 361, expectancyR: -0.05, enough: true },
      { grade: 'A+', evaluated: 3, expectancyR: -0.02, enough: false }], lettersInOrder: null,
    gradesCompared: 1, tooFew: ['A+', 'A', 'C', 'D'], evaluatedMin: 30 },
  });
  assert.equal(rows.map((r) => [r.grade, r.count, r.evaluated, r.enough]), [['A+', 4, 3, false],
    ['A', 0, 0, false], ['B', 375, 361, true], ['C', 0, 0, false], ['D', 0, 0, false]]);
  assert.is(rows[2].edgeSignificant, true);
  assert.is(rows[2].expectancyR, -0.05);
  assert.is(tooFew(rows[0], 30), 'too few: 3 of 30');
  assert.is(tooFew(rows[1], 30), 'no outcomes yet');
});

test('letters in order and the comparisons note, in words', () => {
  const c = { grades: [], gradesCompared: 4, tooFew: ['A+'], evaluatedMin: 30 };
  assert.is(lettersInOrder({ ...c, lettersInOrder: true }).text, 'yes, over 4 grades');
  assert.is(lettersInOrder({ ...c, lettersInOrder: false }).sign, -1);
  assert.match(lettersInOrder({ ...c, lettersInOrder: null }).text, /fewer than 2 grades/);
  assert.is(comparisonsNote({ groupsCompared: 20, expectedFalsePositives: 1,
    significantBeforeCorrection: 2, significantAfterCorrection: 0, falseDiscoveryRate: 0.05 })
    .replace(/\u00a0/g, ' '), '20 groups compared with the random baseline: 2 at p < 0.05 ' +
    '(1.00 expected by chance alone), 0 after Benjamini-Hochberg at a 5 % false discovery rate.');
  assert.match(comparisonsNote(undefined), /No group/);
});

test('one scale holds every interval, the baseline and 0, in whole tenths', () => {
  const scale = scaleOf([-0.31, 0.63, -0.22, null]);
  assert.equal(scale, { min: -0.4, max: 0.7 });
  assert.ok(Math.abs(at(scale, 0) - 100 * 0.4 / 1.1) < 1e-9);
  assert.is(at(scale, 5), 100);
  assert.equal(scaleOf([0.2, 0.3]), { min: -0.1, max: 0.4 });
});

test.run();
