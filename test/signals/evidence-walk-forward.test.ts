// No look-ahead (issue 35, item 4): a signal's grade and grade_evidence come from outcomes
// evaluated before its bar opened. Changing or removing outcomes evaluated after it changes
// neither; changing ones evaluated before it can.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EvidenceGrader, type GradedRecord } from '../../actors/signals/evidence-grader.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { HOUR, longSignal, outcomeOf, seededResults, T0 } from './evidence-fixtures.js';

/** The graded signal: its bar opens 3 days after T0, after 40 outcomes of its setup. */
const BAR_MS = T0 + 72 * HOUR;
const subject = longSignal(BAR_MS, { grade: 'C' });

interface Row {
  readonly signal: EntrySignal;
  readonly r: number;
  readonly evaluatedMs: number;
}

/** 40 outcomes of the subject's setup before its bar (+0.6 R on average), 40 after it. */
function history(): Row[] {
  const before = seededResults(40, 5, 0.6).map((r, i) => ({
    signal: longSignal(T0 + i * HOUR), r, evaluatedMs: T0 + i * HOUR + 4 * HOUR,
  }));
  const after = seededResults(40, 9, -0.8).map((r, i) => ({
    signal: longSignal(BAR_MS + i * HOUR), r, evaluatedMs: BAR_MS + i * HOUR + 4 * HOUR,
  }));
  // One evaluated exactly at the bar's open: not before it, so it does not count.
  after.push({ signal: longSignal(BAR_MS - 4 * HOUR), r: -1, evaluatedMs: BAR_MS });
  return [...before, ...after];
}

const records = (rows: readonly Row[]): GradedRecord[] => rows.map((row) => ({
  signal: row.signal, outcomeDone: true,
  result: outcomeOf(row.signal, row.r, row.evaluatedMs) as unknown as Record<string, unknown>,
}));

function gradeWith(rows: readonly Row[]): EntrySignal {
  const grader = new EvidenceGrader();
  grader.rebuild(records(rows));
  return grader.grade(subject);
}

/** The same, fed live one outcome at a time in evaluation order (as the pipeline does). */
function gradeLive(rows: readonly Row[]): EntrySignal {
  const grader = new EvidenceGrader();
  for (const row of [...rows].sort((a, b) => a.evaluatedMs - b.evaluatedMs)) {
    grader.record(row.signal, outcomeOf(row.signal, row.r, row.evaluatedMs));
  }
  return grader.grade(subject);
}

const pick = (s: EntrySignal) => ({ grade: s.grade, basis: s.grade_basis,
  evidence: s.grade_evidence });

test('the subject earns its letter from the 40 outcomes before its bar', () => {
  const graded = gradeWith(history());
  assert.is(graded.grade_basis, 'evidence');
  assert.is(graded.grade_evidence!.n, 40);
  assert.is(graded.grade_rules, 'C');
  assert.ok(graded.grade_evidence!.lower_r! > 0.05, JSON.stringify(graded.grade_evidence));
  assert.equal(pick(gradeLive(history())), pick(graded));
});

test('changing or removing outcomes evaluated after the bar changes nothing', () => {
  const base = pick(gradeWith(history()));
  const changed = history().map((row) => (row.evaluatedMs >= BAR_MS ? { ...row, r: 5 } : row));
  assert.equal(pick(gradeWith(changed)), base);
  const removed = history().filter((row) => row.evaluatedMs < BAR_MS);
  assert.equal(pick(gradeWith(removed)), base);
  // Many more of them, far better ones, in the same setup: still the same.
  const more = [...history(), ...seededResults(500, 13, 3).map((r, i) => ({
    signal: longSignal(BAR_MS + i * 60_000), r, evaluatedMs: BAR_MS + 4 * HOUR + i * 60_000 }))];
  assert.equal(pick(gradeLive(more)), base);
});

test('changing outcomes evaluated before the bar can change the grade and evidence', () => {
  const base = pick(gradeWith(history()));
  const worse = history().map((row) => (row.evaluatedMs < BAR_MS ? { ...row, r: -1 } : row));
  const graded = pick(gradeWith(worse));
  assert.is.not(graded.grade, base.grade);
  assert.is(graded.grade, 'D');
  assert.is.not(graded.evidence!.expectancy_r, base.evidence!.expectancy_r);
  // Outcomes more than 90 days before the bar have aged out of the evidence.
  const aged = history().map((row) => (row.evaluatedMs < BAR_MS
    ? { ...row, evaluatedMs: row.evaluatedMs - 90 * 24 * HOUR } : row));
  assert.is(pick(gradeWith(aged)).evidence!.n, 0);
  // Removing 11 of the 40 leaves 29: the rule grade stands again.
  const fewer = history().filter((row, i) => row.evaluatedMs >= BAR_MS || i >= 11);
  const rules = pick(gradeWith(fewer));
  assert.is(rules.basis, 'rules');
  assert.is(rules.grade, 'C');
  assert.is(rules.evidence!.n, 29);
});

test.run();
