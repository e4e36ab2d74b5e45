// Evidence grades (docs/signals.md, "Evidence grades"): a setup's expectancy in R shrunk toward
// the pooled mean (empirical Bayes, weight n / (n + 30)), its lower bound, and the letter the
// lower bound earns. Pure arithmetic on sums; the walk-forward book (evidence-book.ts) supplies
// them.
import type { Grade } from '../../core/messages.js';
import { LOGIC_NAMES, type EntrySignal } from './types.js';

/** Prior weight of the pooled mean, in outcomes: a setup with n outcomes weighs n / (n + 30). */
export const EVIDENCE_PRIOR_N = 30;
/** Evaluated outcomes a setup needs before its evidence replaces the rule grade. */
export const EVIDENCE_MIN_N = 30;
/**
 * Outcomes count for 90 days of market time before the bar (the track record's longest window):
 * the store keeps 180, so what a restart reads back always covers it, and a store prune never
 * changes a grade.
 */
export const EVIDENCE_WINDOW_MS = 90 * 86_400_000;
/** Two-sided 95 %: the lower bound is the 2.5 % quantile of the shrunk estimate. */
export const EVIDENCE_Z = 1.96;
/** Lowest lower bound (R) of each letter, best first; below the last: D. */
export const EVIDENCE_THRESHOLDS_R: readonly (readonly [Grade, number])[] = Object.freeze([
  ['A+', 0.30], ['A', 0.15], ['B', 0.05], ['C', -0.05],
] as const);

/** Count, sum and sum of squares of results in R. */
export interface RSums {
  readonly n: number;
  readonly sum: number;
  readonly sumSq: number;
}

/** A signal's `grade_evidence`: its setup's outcomes before its bar, shrunk. */
export interface GradeEvidence {
  readonly n: number;
  /** Shrunk expectancy (R); null while nothing at all was evaluated. */
  readonly expectancy_r: number | null;
  /** Shrunk expectancy minus 1.96 posterior standard errors (R); null below 2 outcomes. */
  readonly lower_r: number | null;
}

/** Four decimals on the wire; the letter is read from the rounded figure a client sees. */
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * Normal-normal empirical Bayes with the prior worth EVIDENCE_PRIOR_N outcomes: the posterior
 * mean is w * setup mean + (1 - w) * pooled mean with w = n / (n + 30), and its variance
 * s^2 / (n + 30), s the setup's sample standard deviation.
 */
export function shrinkEvidence(setup: RSums, pooled: RSums): GradeEvidence {
  const { n } = setup;
  if (pooled.n === 0) return { n, expectancy_r: null, lower_r: null };
  const pooledMean = pooled.sum / pooled.n;
  const weight = n / (n + EVIDENCE_PRIOR_N);
  const setupMean = n === 0 ? 0 : setup.sum / n;
  const shrunk = weight * setupMean + (1 - weight) * pooledMean;
  if (n < 2) return { n, expectancy_r: round4(shrunk), lower_r: null };
  const variance = Math.max(0, (setup.sumSq - setup.sum * setupMean) / (n - 1));
  const lower = shrunk - EVIDENCE_Z * Math.sqrt(variance / (n + EVIDENCE_PRIOR_N));
  return { n, expectancy_r: round4(shrunk), lower_r: round4(lower) };
}

export function gradeFromLowerR(lowerR: number): Grade {
  if (!Number.isFinite(lowerR)) throw new RangeError(`lower bound must be finite (${lowerR})`);
  for (const [grade, minR] of EVIDENCE_THRESHOLDS_R) if (lowerR >= minR) return grade;
  return 'D';
}

/** The letter the evidence earns, or null while the setup keeps its rule grade. */
export function evidenceLetter(evidence: GradeEvidence): Grade | null {
  if (evidence.n < EVIDENCE_MIN_N || evidence.lower_r === null) return null;
  return gradeFromLowerR(evidence.lower_r);
}

/**
 * The setup a signal belongs to: timeframe, regime, the set of true logics and the sign of the
 * score seen from its side ('+', '-', or '0' for a score of exactly 0, also "none yet").
 */
export function setupKey(signal: Pick<EntrySignal, 'timeframe' | 'regime' | 'logics' | 'side'
  | 'score'>): string {
  const aligned = signal.side === 'long' ? signal.score : -signal.score;
  const sign = aligned > 0 ? '+' : aligned < 0 ? '-' : '0';
  let bits = 0;
  for (let i = 0; i < LOGIC_NAMES.length; i++) if (signal.logics[LOGIC_NAMES[i]]) bits |= 1 << i;
  return `${signal.timeframe}|${signal.regime}|${bits}|${sign}`;
}
