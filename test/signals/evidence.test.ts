// Evidence grades: the shrinkage and its lower bound by formula, the letter thresholds, the
// 30-outcome rule, the setup key, the session step, and the walk-forward book.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  evidenceLetter, gradeFromLowerR, setupKey, shrinkEvidence, type RSums,
} from '../../actors/signals/evidence.js';
import {
  createEvidenceBook, evidenceBetween, recordEvidence,
} from '../../actors/signals/evidence-book.js';
import { applyEvidence } from '../../actors/signals/evidence-grader.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { longSignal, seededResults, T0 } from './evidence-fixtures.js';

function sums(values: readonly number[]): RSums {
  let sum = 0;
  let sumSq = 0;
  for (const v of values) {
    sum += v;
    sumSq += v * v;
  }
  return { n: values.length, sum, sumSq };
}

test('shrinkage: weight n / (n + 30) toward the pooled mean, bound 1.96 s / sqrt(n + 30)', () => {
  const setup = seededResults(45, 7, 0.4);
  const others = seededResults(300, 11, -0.1);
  const pooled = [...setup, ...others];
  // Independently: two-pass mean and sample variance.
  const mean = setup.reduce((a, b) => a + b, 0) / setup.length;
  const pooledMean = pooled.reduce((a, b) => a + b, 0) / pooled.length;
  const variance = setup.reduce((a, b) => a + (b - mean) ** 2, 0) / (setup.length - 1);
  const w = 45 / 75;
  const shrunk = w * mean + (1 - w) * pooledMean;
  const lower = shrunk - 1.96 * Math.sqrt(variance / 75);
  const evidence = shrinkEvidence(sums(setup), sums(pooled));
  assert.is(evidence.n, 45);
  assert.ok(Math.abs(evidence.expectancy_r! - shrunk) <= 0.00005, `${evidence.expectancy_r}`);
  assert.ok(Math.abs(evidence.lower_r! - lower) <= 0.00005, `${evidence.lower_r} vs ${lower}`);
  // Four decimals on the wire.
  assert.is(evidence.lower_r, Math.round(evidence.lower_r! * 10_000) / 10_000);
});

test('shrinkage: no outcome of the setup is the pooled mean, none at all is null', () => {
  const pooled = sums([0.5, -0.5, 0.3]);
  assert.equal(shrinkEvidence(sums([]), pooled), { n: 0, expectancy_r: 0.1, lower_r: null });
  assert.equal(shrinkEvidence(sums([]), sums([])), { n: 0, expectancy_r: null, lower_r: null });
  // A single outcome has no spread: a mean, no bound.
  assert.is(shrinkEvidence(sums([1]), sums([1, 0.5, -0.5, 0.3])).lower_r, null);
});

test('letters by the lower bound: A+ >= 0.30, A >= 0.15, B >= 0.05, C >= -0.05, else D', () => {
  const cases: [number, string][] = [[0.9, 'A+'], [0.30, 'A+'], [0.2999, 'A'], [0.15, 'A'],
    [0.1499, 'B'], [0.05, 'B'], [0.0499, 'C'], [-0.05, 'C'], [-0.0501, 'D'], [-3, 'D']];
  for (const [lower, grade] of cases) assert.is(gradeFromLowerR(lower), grade, `${lower}`);
  assert.throws(() => gradeFromLowerR(Number.NaN), /finite/);
});

test('fewer than 30 outcomes keep the rule grade; 30 earn a letter', () => {
  const signal = longSignal(T0, { grade: 'A' });
  const short = applyEvidence(signal, { n: 29, expectancy_r: -0.5, lower_r: -0.9 });
  assert.is(evidenceLetter({ n: 29, expectancy_r: -0.5, lower_r: -0.9 }), null);
  assert.is(short.grade, 'A');
  assert.is(short.grade_basis, 'rules');
  assert.is(short.grade_rules, 'A');
  assert.equal(short.grade_evidence, { n: 29, expectancy_r: -0.5, lower_r: -0.9 });
  const enough = applyEvidence(signal, { n: 30, expectancy_r: -0.5, lower_r: -0.9 });
  assert.is(enough.grade, 'D');
  assert.is(enough.grade_basis, 'evidence');
  assert.is(enough.grade_rules, 'A');
});

test('outside its session the earned letter is lowered one step, as the rule grade was', () => {
  // The detector lowered the rule grade A to B and kept A in grade_before_session.
  const closed = longSignal(T0, { grade: 'B', session: 'closed', grade_before_session: 'A' });
  const earned = applyEvidence(closed, { n: 40, expectancy_r: 0.4, lower_r: 0.31 });
  assert.is(earned.grade, 'A');
  assert.is(earned.grade_before_session, 'A+');
  assert.is(earned.grade_rules, 'A');
  const kept = applyEvidence(closed, { n: 3, expectancy_r: 0.4, lower_r: 0.31 });
  assert.is(kept.grade, 'B');
  assert.is(kept.grade_before_session, 'A');
  // Graded twice (the same signal seen again): the same answer.
  assert.equal(applyEvidence(earned, earned.grade_evidence!), earned);
});

test('setup: timeframe, regime, true logics and the score sign seen from the side', () => {
  const long = longSignal(T0, { score: 20 });
  assert.is(setupKey(long), '5m|trending|1|+');
  assert.is(setupKey({ ...long, side: 'short' }), '5m|trending|1|-');
  assert.is(setupKey({ ...long, score: 0 }), '5m|trending|1|0');
  assert.is.not(setupKey({ ...long, logics: { ...long.logics, level_confluence: true } }),
    setupKey(long));
  assert.is.not(setupKey({ ...long, timeframe: '1h' }), setupKey(long));
  assert.is.not(setupKey({ ...long, regime: 'ranging' }), setupKey(long));
  // The grade and the symbol are not part of the setup.
  const other: EntrySignal = { ...long, grade: 'A+', symbol: 'ETH' };
  assert.is(setupKey(other), setupKey(long));
});

test('book: from a time, strictly before another; any insertion order gives the same bits', () => {
  const results = seededResults(200, 3, 0.1);
  const times = results.map((_, i) => T0 + Math.floor(i / 3) * 300_000);
  const inOrder = createEvidenceBook();
  results.forEach((r, i) => recordEvidence(inOrder, 'k', times[i], r));
  const shuffled = createEvidenceBook();
  for (let i = results.length - 1; i >= 0; i--) recordEvidence(shuffled, 'k', times[i], results[i]);
  for (const atMs of [T0, T0 + 300_000, times[100], times[199], times[199] + 1]) {
    assert.equal(evidenceBetween(shuffled, 'k', T0, atMs), evidenceBetween(inOrder, 'k', T0, atMs));
  }
  assert.is(evidenceBetween(inOrder, 'k', -Infinity, T0).n, 0);
  assert.is(evidenceBetween(inOrder, 'k', -Infinity, T0 + 1).n, 3);
  assert.is(evidenceBetween(inOrder, 'k', -Infinity, times[199] + 1).n, 200);
  // A window [from, before): the three at T0 are left out, the sums are the rest's.
  const rest = evidenceBetween(inOrder, 'k', T0 + 1, times[199] + 1);
  assert.is(rest.n, 197);
  assert.ok(Math.abs(rest.sum - results.slice(3).reduce((a, b) => a + b, 0)) < 1e-9);
  assert.equal(evidenceBetween(inOrder, 'other', T0, T0 + 1), { n: 0, sum: 0, sumSq: 0 });
  assert.throws(() => recordEvidence(inOrder, 'k', Number.NaN, 1), /finite/);
});

test.run();
