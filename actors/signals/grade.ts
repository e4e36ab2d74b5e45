// Grades: A+ best to D worst. Index 0 is A+; "lowered one step" moves one place right.
import { GRADES, type Grade } from '../../core/messages.js';

/** 0 for A+ through 4 for D; -1 when the text is not a grade. */
export function gradeIndex(grade: string): number {
  return (GRADES as readonly string[]).indexOf(grade);
}

export function isGrade(value: unknown): value is Grade {
  return typeof value === 'string' && gradeIndex(value) >= 0;
}

/** One place right; D stays D (there is no grade below it). */
export function lowerGrade(grade: Grade): Grade {
  return GRADES[Math.min(GRADES.length - 1, gradeIndex(grade) + 1)];
}

/** True when `grade` is `minimum` or better (A+ meets every minimum). */
export function gradeMeets(grade: Grade, minimum: Grade): boolean {
  return gradeIndex(grade) <= gradeIndex(minimum);
}

/**
 * The best letter the rule gives. B and better promise an edge (a lower bound of at least
 * 0.05 R, docs/signals.md "Evidence grades") that only a setup's outcomes can show: the count of
 * agreeing logics showed none, so a setup without enough outcomes is at best C ("no edge shown").
 */
export const RULE_GRADE_BEST: Grade = 'C';

/**
 * The grade of a signal from how many logics agree on its side and the pair's composite score
 * seen from that side (`alignedScore` = score for long, -score for short; null when unknown).
 * Four or more logics: A+; three: A; two: B; one: C. An aligned score at or above
 * `scoreBoostMin` raises one place, a score against the side (below 0) lowers one place. The
 * result is then capped at RULE_GRADE_BEST: what is left of the count is whether a score against
 * the side lowers a setup to D.
 */
export function gradeFromLogics(logicCount: number, alignedScore: number | null,
  scoreBoostMin: number): Grade {
  if (!(logicCount >= 1)) throw new RangeError(`logicCount must be >= 1 (was ${logicCount})`);
  let index = logicCount >= 4 ? 0 : 4 - logicCount;
  if (alignedScore !== null && alignedScore >= scoreBoostMin) index -= 1;
  else if (alignedScore !== null && alignedScore < 0) index += 1;
  return GRADES[Math.max(gradeIndex(RULE_GRADE_BEST), Math.min(GRADES.length - 1, index))];
}
