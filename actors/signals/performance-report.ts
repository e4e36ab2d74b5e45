// The track record a quant can check (docs/signals.md "Track record statistics"): the
// per-group rows of signalPerformance with intervals, baselines and edges, the information
// coefficient, the grades' calibration and the multiple-comparisons note. Pure: a function of
// the stored outcomes and the window, so recomputing it gives the same answer.
import { benjaminiHochberg } from '../../kernels/benjamini-hochberg.js';
import { blockSpearman } from '../../kernels/block-spearman.js';
import { seedOf } from '../../kernels/seeded-rng.js';
import { calibration, type Calibration } from './calibration.js';
import { statisticsBlockOf, type GroupStatistics } from './group-statistics.js';
import { trackColumns, type TrackColumns } from './track-columns.js';
import type { PerformanceGroup, PerformanceRow, TrackedSignal } from './track-record.js';
import { statisticsRows, windowOf, type Span } from './window-groups.js';

/** The false discovery rate of the Benjamini-Hochberg correction, and the test level. */
export const FALSE_DISCOVERY_RATE = 0.05;

export interface PerformanceReportRow extends PerformanceRow, GroupStatistics {
  /** The edge is a discovery after Benjamini-Hochberg over the groups; null when not compared. */
  readonly edgeSignificant: boolean | null;
}

export interface InformationCoefficient {
  readonly n: number;
  readonly rho: number | null;
  readonly low: number | null;
  readonly high: number | null;
}

export interface MultipleComparisons {
  readonly method: 'benjamini-hochberg';
  readonly falseDiscoveryRate: number;
  /** Groups with an edge interval (enough evaluated signals with a baseline). */
  readonly groupsCompared: number;
  /** Groups expected to show an edge at 95 % by chance alone: 0.05 x groupsCompared. */
  readonly expectedFalsePositives: number;
  readonly significantBeforeCorrection: number;
  readonly significantAfterCorrection: number;
}

export interface PerformanceReport {
  readonly rows: readonly PerformanceReportRow[];
  readonly informationCoefficient: InformationCoefficient;
  readonly calibration: Calibration;
  readonly multipleComparisons: MultipleComparisons;
}

const IC_SEED = seedOf('information-coefficient');

/** A "now" after every outcome of tracked signals (theirs is known or null already). */
const KNOWN_ALWAYS = Number.MAX_VALUE;

/**
 * Spearman of the score seen from the side (score long, -score short) with the 4 h move, its
 * interval resampling the same 4 h blocks as the expectancy's: signals whose windows overlap
 * move together, and an interval taking them for independent is too narrow.
 */
function informationCoefficientOf(c: TrackColumns,
  span: Span): InformationCoefficient {
  const [lo, hi, fromMs, toMs, nowMs] = span;
  const scores = new Float64Array(hi - lo);
  const moves = new Float64Array(hi - lo);
  const blocks = new Int32Array(hi - lo);
  let n = 0;
  for (let i = lo; i < hi; i++) {
    if (c.signalMs[i] < fromMs || c.signalMs[i] >= toMs || !(c.knownMs[i] <= nowMs)) continue;
    scores[n] = c.sideScore[i];
    moves[n] = c.movePct[i];
    blocks[n] = statisticsBlockOf(c.signalMs[i]);
    n += 1;
  }
  const ic = blockSpearman(scores, moves, n, IC_SEED, blocks);
  return { n, rho: ic?.rho ?? null, low: ic?.low ?? null, high: ic?.high ?? null };
}

/** informationCoefficient of tracked signals (outcome null: not evaluated). */
export function informationCoefficient(all: readonly TrackedSignal[], fromMs: number,
  toMs: number): InformationCoefficient {
  const c = trackColumns(all);
  const [lo, hi] = windowOf(c, fromMs, toMs);
  return informationCoefficientOf(c, [lo, hi, fromMs, toMs, KNOWN_ALWAYS]);
}

export function performanceReport(all: readonly TrackedSignal[], fromMs: number, toMs: number,
  by: PerformanceGroup): PerformanceReport {
  return columnsReport(trackColumns(all), fromMs, toMs, KNOWN_ALWAYS, by);
}

/** The report over the columns' window [fromMs, toMs), outcomes known from their knownMs. */
export function columnsReport(c: TrackColumns, fromMs: number, toMs: number, nowMs: number,
  by: PerformanceGroup): PerformanceReport {
  const [lo, hi] = windowOf(c, fromMs, toMs);
  const span: Span = [lo, hi, fromMs, toMs, nowMs];
  const rows = statisticsRows(c, span, by);
  const compared = rows.filter((row) => row.edgePValue !== null);
  const discoveries = benjaminiHochberg(compared.map((row) => row.edgePValue as number),
    FALSE_DISCOVERY_RATE);
  const significant = new Map(compared.map((row, i) => [row.group, discoveries[i]]));
  const gradeRows = by === 'grade' ? rows : statisticsRows(c, span, 'grade');
  return {
    rows: rows.map((row) => ({ ...row, edgeSignificant: significant.get(row.group) ?? null })),
    informationCoefficient: informationCoefficientOf(c, span),
    calibration: calibration(gradeRows),
    multipleComparisons: {
      method: 'benjamini-hochberg', falseDiscoveryRate: FALSE_DISCOVERY_RATE,
      groupsCompared: compared.length,
      expectedFalsePositives: FALSE_DISCOVERY_RATE * compared.length,
      significantBeforeCorrection: compared.filter((row) =>
        (row.edgePValue as number) < FALSE_DISCOVERY_RATE).length,
      significantAfterCorrection: discoveries.filter(Boolean).length,
    },
  };
}
