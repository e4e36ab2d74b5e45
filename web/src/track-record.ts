// The Signals page's track record: the answer of /signals/performance?groupBy=grade read into
// one row per grade (best first), and the words and numbers the panel shows. A grade none of
// whose signals has been evaluated yet (outcomes come 4 h after a signal) shows no rate, not 0 %.
import { num } from './format.js';

export interface TrackGroup {
  group?: string; key?: string; count: number; evaluated?: number;
  hitRate?: number | null; expectancyR?: number | null;
  hitRateLow?: number | null; hitRateHigh?: number | null;
  expectancyRLow?: number | null; expectancyRHigh?: number | null;
  baselineRandomR?: number | null; baselineTrendR?: number | null;
  edgeR?: number | null; edgeRLow?: number | null; edgeRHigh?: number | null;
  edgeSignificant?: boolean | null;
}

export interface Calibration {
  grades: (Omit<TrackGroup, 'count'> & { grade: string; enough: boolean })[];
  lettersInOrder: boolean | null; gradesCompared: number; tooFew: string[];
  evaluatedMin: number;
}

export interface Performance {
  groups: TrackGroup[];
  informationCoefficient?: { n: number; rho: number | null; low: number | null;
    high: number | null };
  calibration?: Calibration;
  multipleComparisons?: { groupsCompared: number; expectedFalsePositives: number;
    significantBeforeCorrection: number; significantAfterCorrection: number;
    falseDiscoveryRate: number };
  computing?: boolean;
}

/** One grade's row: its group's figures, and whether it has enough outcomes to be read. */
export interface GradeRow extends TrackGroup { grade: string; enough: boolean }

const GRADE_ORDER = ['A+', 'A', 'B', 'C', 'D'];
const EVALUATED_MIN = 30;

/** Best grade first (the API lists groups in text order: A before A+); others after. */
export function byGrade<T extends TrackGroup>(groups: readonly T[]): T[] {
  const rank = (g: TrackGroup) => {
    const i = GRADE_ORDER.indexOf(String(g.group ?? g.key));
    return i < 0 ? GRADE_ORDER.length : i;
  };
  return [...groups].sort((a, b) => rank(a) - rank(b));
}

/** Every letter, A+ first: the calibration's figures joined with its group's edge and count. */
export function gradeRows(answer: Performance): GradeRow[] {
  const min = answer.calibration?.evaluatedMin ?? EVALUATED_MIN;
  const groups = new Map(answer.groups.map((g) => [String(g.group ?? g.key), g]));
  return GRADE_ORDER.map((grade) => {
    const group = groups.get(grade);
    const calibrated = answer.calibration?.grades.find((g) => g.grade === grade);
    const evaluated = calibrated?.evaluated ?? group?.evaluated ?? 0;
    return { ...group, ...calibrated, grade, count: group?.count ?? 0, evaluated,
      enough: calibrated?.enough ?? evaluated >= min };
  });
}

/** No evaluated outcome in the window: nothing to show but the wait. */
export function noOutcomes(answer: Performance): boolean {
  return answer.groups.every((g) => !g.evaluated);
}

/** R with its sign and 2 decimals ("+0.12", "-0.05", "0.00"); '—' for none. */
export function signedR(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const text = num(value, 2);
  if (text === '0.00' || text === '-0.00') return '0.00';
  return value > 0 ? `+${text}` : text;
}

/** A share as a percentage with one decimal, no unit (the column says %). */
export function percent(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—'
    : (value * 100).toFixed(1);
}

/** "[low, high]" in the value's own format; '—' without an interval. */
export function interval(low: number | null | undefined, high: number | null | undefined,
  format: (value: number) => string): string {
  return low === null || low === undefined || high === null || high === undefined ? '—'
    : `[${format(low)}, ${format(high)}]`;
}

export function hitRate(g: TrackGroup): string {
  return g.hitRate === null || g.hitRate === undefined ? '—' : `${percent(g.hitRate)} %`;
}

export function expectancy(g: TrackGroup): string {
  return g.expectancyR === null || g.expectancyR === undefined ? '—'
    : `${signedR(g.expectancyR)} R`;
}

/** What a grade without enough outcomes shows instead of its figures. */
export function tooFew(row: GradeRow, min = EVALUATED_MIN): string {
  return row.evaluated === 0 ? 'no outcomes yet'
    : `too few: ${num(row.evaluated ?? 0, 0)} of ${min}`;
}

export function lettersInOrder(c: Calibration | undefined): { text: string; sign: number } {
  if (c === undefined || c.lettersInOrder === null) {
    return { text: `not yet: fewer than 2 grades have ${c?.evaluatedMin ?? EVALUATED_MIN} ` +
      'outcomes', sign: 0 };
  }
  return c.lettersInOrder
    ? { text: `yes, over ${c.gradesCompared} grades`, sign: 1 }
    : { text: `no: a lower letter did better (${c.gradesCompared} grades)`, sign: -1 };
}

/** The multiple-comparisons note, in words. */
export function comparisonsNote(m: Performance['multipleComparisons']): string {
  if (m === undefined || m.groupsCompared === 0) return 'No group has enough outcomes to compare.';
  const groups = m.groupsCompared === 1 ? '1 group' : `${m.groupsCompared} groups`;
  // No-break spaces keep "p < 0.05" and "5 %" on one line on a phone.
  return `${groups} compared with the random baseline: ${m.significantBeforeCorrection} ` +
    `at p\u00a0<\u00a00.05 (${num(m.expectedFalsePositives, 2)} expected by chance alone), ` +
    `${m.significantAfterCorrection} after Benjamini-Hochberg at a ` +
    `${Math.round(m.falseDiscoveryRate * 100)}\u00a0% false discovery rate.`;
}
