// Grade calibration: each letter's realised hit rate and expectancy with their intervals, and
// whether the letters are in order (A+ >= A >= B >= C >= D in expectancy) over the grades with
// enough outcomes to say.
import { GRADES } from '../../core/messages.js';
import type { GroupStatistics } from './group-statistics.js';
import type { PerformanceRow } from './track-record.js';

/** Grades with fewer evaluated outcomes are left out of the order (and named in tooFew). */
export const CALIBRATION_EVALUATED_MIN = 30;

export interface GradeCalibration {
  readonly grade: string;
  readonly evaluated: number;
  readonly hitRate: number | null;
  readonly hitRateLow: number | null;
  readonly hitRateHigh: number | null;
  readonly expectancyR: number | null;
  readonly expectancyRLow: number | null;
  readonly expectancyRHigh: number | null;
  readonly baselineRandomR: number | null;
  /** At least CALIBRATION_EVALUATED_MIN evaluated: it takes part in lettersInOrder. */
  readonly enough: boolean;
}

export interface Calibration {
  readonly grades: readonly GradeCalibration[];
  /** Expectancy non-increasing from A+ to D over the grades with enough; null below two. */
  readonly lettersInOrder: boolean | null;
  readonly gradesCompared: number;
  readonly tooFew: readonly string[];
  readonly evaluatedMin: number;
}

export function calibration(gradeRows: readonly (PerformanceRow & GroupStatistics)[]):
  Calibration {
  const byGrade = new Map(gradeRows.map((row) => [row.group, row]));
  const grades = GRADES.map((grade): GradeCalibration => {
    const row = byGrade.get(grade);
    const evaluated = row?.evaluated ?? 0;
    return {
      grade, evaluated, hitRate: row?.hitRate ?? null, hitRateLow: row?.hitRateLow ?? null,
      hitRateHigh: row?.hitRateHigh ?? null, expectancyR: row?.expectancyR ?? null,
      expectancyRLow: row?.expectancyRLow ?? null, expectancyRHigh: row?.expectancyRHigh ?? null,
      baselineRandomR: row?.baselineRandomR ?? null,
      enough: evaluated >= CALIBRATION_EVALUATED_MIN,
    };
  });
  const compared = grades.filter((g) => g.enough);
  let inOrder = true;
  for (let i = 1; i < compared.length; i++) {
    if ((compared[i].expectancyR as number) > (compared[i - 1].expectancyR as number)) {
      inOrder = false;
    }
  }
  return {
    grades, lettersInOrder: compared.length < 2 ? null : inOrder,
    gradesCompared: compared.length, tooFew: grades.filter((g) => !g.enough).map((g) => g.grade),
    evaluatedMin: CALIBRATION_EVALUATED_MIN,
  };
}
