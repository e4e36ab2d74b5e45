// The track record a quant can check (docs/signals.md "Track record statistics"): the
// per-group rows of signalPerformance with intervals, baselines and edges, the information
// coefficient, the grades' calibration and the multiple-comparisons note. Pure: a function of
// the stored outcomes and the window, so recomputing it gives the same answer.
import { benjaminiHochberg } from '../../kernels/benjamini-hochberg.js';
import { spearman, type RankCorrelation } from '../../kernels/spearman.js';
import { calibration, type Calibration } from './calibration.js';
import { groupStatistics, type GroupStatistics } from './group-statistics.js';
import {
  groupsOf, signalPerformance, type PerformanceGroup, type PerformanceRow, type TrackedSignal,
} from './track-record.js';

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

function evaluatedByGroup(all: readonly TrackedSignal[], fromMs: number, toMs: number,
  by: PerformanceGroup): Map<string, TrackedSignal[]> {
  const out = new Map<string, TrackedSignal[]>();
  for (const item of all) {
    if (item.signalMs < fromMs || item.signalMs >= toMs || item.outcome === null) continue;
    for (const group of groupsOf(item.signal, by)) {
      const list = out.get(group);
      if (list === undefined) out.set(group, [item]);
      else list.push(item);
    }
  }
  return out;
}

function statisticsRows(all: readonly TrackedSignal[], fromMs: number, toMs: number,
  by: PerformanceGroup): (PerformanceRow & GroupStatistics)[] {
  const evaluated = evaluatedByGroup(all, fromMs, toMs, by);
  return signalPerformance(all, fromMs, toMs, by).map((row) => ({
    ...row, ...groupStatistics(`${by}:${row.group}`, evaluated.get(row.group) ?? [], row.t1Hits),
  }));
}

/** Spearman of the score seen from the side (score long, -score short) with the 4 h move. */
export function informationCoefficient(all: readonly TrackedSignal[], fromMs: number,
  toMs: number): InformationCoefficient {
  const scores: number[] = [];
  const moves: number[] = [];
  for (const { signal, signalMs, outcome } of all) {
    if (signalMs < fromMs || signalMs >= toMs || outcome === null) continue;
    scores.push(signal.side === 'long' ? signal.score : -signal.score);
    moves.push(outcome.move_pct);
  }
  const n = scores.length;
  const ic: RankCorrelation | null = spearman(Float64Array.from(scores), Float64Array.from(moves),
    n);
  return { n, rho: ic?.rho ?? null, low: ic?.low ?? null, high: ic?.high ?? null };
}

export function performanceReport(all: readonly TrackedSignal[], fromMs: number, toMs: number,
  by: PerformanceGroup): PerformanceReport {
  const rows = statisticsRows(all, fromMs, toMs, by);
  const compared = rows.filter((row) => row.edgePValue !== null);
  const discoveries = benjaminiHochberg(compared.map((row) => row.edgePValue as number),
    FALSE_DISCOVERY_RATE);
  const significant = new Map(compared.map((row, i) => [row.group, discoveries[i]]));
  const gradeRows = by === 'grade' ? rows : statisticsRows(all, fromMs, toMs, 'grade');
  return {
    rows: rows.map((row) => ({ ...row, edgeSignificant: significant.get(row.group) ?? null })),
    informationCoefficient: informationCoefficient(all, fromMs, toMs),
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
