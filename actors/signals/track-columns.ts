// The track record as columns: each stored signal's figures worked out once (its result in R,
// the baselines', its groups) into typed arrays in the records' order, so an answer is a pass
// over numbers instead of over decoded records (docs/signals.md "Track record statistics").
import { mirroredResultR, signalKeepsSide } from './baseline.js';
import {
  PERFORMANCE_GROUPS, resultR, type PerformanceGroup, type TrackedSignal,
} from './track-record.js';
import { LOGIC_NAMES } from './types.js';

/** The `hit` codes: t1 first, the stop first (or both in one bar), neither. */
export const HIT_T1 = 1;
export const HIT_STOP = 2;
/** The `flags` bits: a stored baseline, and a trend side in it. */
export const HAS_BASELINE = 1;
export const HAS_TREND = 2;

export interface TrackColumns {
  readonly length: number;
  readonly signalMs: Float64Array;
  /** Market time from which the outcome is known; Infinity without one. */
  readonly knownMs: Float64Array;
  /** Oldest first (ascending signalMs): a window is a slice found by bisection. */
  readonly sorted: boolean;
  readonly hit: Uint8Array;
  readonly flags: Uint8Array;
  readonly resultR: Float64Array;
  /** The random-direction entry's R (with HAS_BASELINE). */
  readonly randomR: Float64Array;
  /** The trend-direction entry's R (with HAS_TREND). */
  readonly trendR: Float64Array;
  readonly movePct: Float64Array;
  readonly favorablePct: Float64Array;
  readonly adversePct: Float64Array;
  /** The score seen from the side: score long, -score short. */
  readonly sideScore: Float64Array;
  /** Per grouping, each signal's index in `labels`; for logic a bit mask over LOGIC_NAMES. */
  readonly groups: Readonly<Record<PerformanceGroup, Int32Array>>;
  readonly labels: Readonly<Record<PerformanceGroup, readonly string[]>>;
}

/** A tracked signal, with the market time its outcome is known from when that is not now. */
export type ColumnSource = TrackedSignal & { readonly evaluatedMs?: number };

const SINGLE_GROUPS = PERFORMANCE_GROUPS.filter((by) => by !== 'logic');

function labelOf(item: ColumnSource, by: PerformanceGroup): string {
  const { signal } = item;
  switch (by) {
    case 'grade': return signal.grade;
    case 'timeframe': return signal.timeframe;
    case 'regime': return signal.regime;
    case 'symbol': return signal.symbol;
    case 'side': return signal.side;
    case 'grade_timeframe': return `${signal.grade}/${signal.timeframe}`;
    case 'logic': throw new Error('logic groups are a mask');
  }
}

function logicMask(item: ColumnSource): number {
  let mask = 0;
  for (let k = 0; k < LOGIC_NAMES.length; k++) {
    if (item.signal.logics[LOGIC_NAMES[k]]) mask |= 1 << k;
  }
  return mask;
}

/** Group labels by grouping, each numbered once: the same numbers for every build. */
export interface ColumnLabels {
  readonly labels: Readonly<Record<PerformanceGroup, string[]>>;
  readonly indexes: ReadonlyMap<PerformanceGroup, Map<string, number>>;
}

export function createColumnLabels(): ColumnLabels {
  const labels = Object.fromEntries(PERFORMANCE_GROUPS.map((by) => [by, [] as string[]])) as
    Record<PerformanceGroup, string[]>;
  labels.logic.push(...LOGIC_NAMES);
  return { labels, indexes: new Map(SINGLE_GROUPS.map((by) => [by, new Map()])) };
}

/** One signal's figures and group numbers, worked out once and copied into each build. */
export interface ColumnRow {
  readonly signalMs: number;
  readonly knownMs: number;
  readonly hit: number;
  readonly flags: number;
  readonly resultR: number;
  readonly randomR: number;
  readonly trendR: number;
  readonly movePct: number;
  readonly favorablePct: number;
  readonly adversePct: number;
  readonly sideScore: number;
  /** In PERFORMANCE_GROUPS order. */
  readonly groups: Int32Array;
}

export function columnRow(item: ColumnSource, names: ColumnLabels): ColumnRow {
  const groups = new Int32Array(PERFORMANCE_GROUPS.length);
  PERFORMANCE_GROUPS.forEach((by, k) => {
    if (by === 'logic') {
      groups[k] = logicMask(item);
      return;
    }
    const label = labelOf(item, by);
    const index = names.indexes.get(by) as Map<string, number>;
    let g = index.get(label);
    if (g === undefined) {
      g = names.labels[by].length;
      index.set(label, g);
      names.labels[by].push(label);
    }
    groups[k] = g;
  });
  return { signalMs: item.signalMs, groups, ...outcomeFigures(item) };
}

/** The columns of `items` (rows by `rowOf`); an outcome counts from `evaluatedMs`. */
export function trackColumns(items: readonly ColumnSource[],
  names: ColumnLabels = createColumnLabels(),
  rowOf: (item: ColumnSource) => ColumnRow = (item) => columnRow(item, names)): TrackColumns {
  const n = items.length;
  const f64 = () => new Float64Array(n);
  const c = {
    length: n, signalMs: f64(), knownMs: f64(), sorted: true, hit: new Uint8Array(n),
    flags: new Uint8Array(n), resultR: f64(), randomR: f64(), trendR: f64(), movePct: f64(),
    favorablePct: f64(), adversePct: f64(), sideScore: f64(),
    groups: Object.fromEntries(PERFORMANCE_GROUPS.map((by) => [by, new Int32Array(n)])) as
      Record<PerformanceGroup, Int32Array>,
    labels: names.labels,
  };
  const groupColumns = PERFORMANCE_GROUPS.map((by) => c.groups[by]);
  for (let i = 0; i < n; i++) {
    const row = rowOf(items[i]);
    c.signalMs[i] = row.signalMs;
    if (i > 0 && row.signalMs < c.signalMs[i - 1]) c.sorted = false;
    c.knownMs[i] = row.knownMs;
    c.hit[i] = row.hit;
    c.flags[i] = row.flags;
    c.resultR[i] = row.resultR;
    c.randomR[i] = row.randomR;
    c.trendR[i] = row.trendR;
    c.movePct[i] = row.movePct;
    c.favorablePct[i] = row.favorablePct;
    c.adversePct[i] = row.adversePct;
    c.sideScore[i] = row.sideScore;
    for (let k = 0; k < groupColumns.length; k++) groupColumns[k][i] = row.groups[k];
  }
  return c;
}

type Figures = Omit<ColumnRow, 'signalMs' | 'groups'>;

function outcomeFigures(item: ColumnSource): Figures {
  const { signal, outcome, baseline } = item;
  const sideScore = signal.side === 'long' ? signal.score : -signal.score;
  if (outcome === null) {
    return { knownMs: Infinity, hit: 0, flags: 0, resultR: 0, randomR: 0, trendR: 0,
      movePct: 0, favorablePct: 0, adversePct: 0, sideScore };
  }
  const first = outcome.first_level_hit;
  const hit = first === 't1' ? HIT_T1 : first === 'stop' || first === 'both_same_bar'
    ? HIT_STOP : 0;
  const r = resultR(signal, outcome);
  const mirrored = baseline === null ? 0
    : mirroredResultR(signal, outcome, baseline);
  const trend = baseline?.trend_side ?? null;
  return {
    knownMs: item.evaluatedMs ?? -Infinity, hit,
    flags: baseline === null ? 0 : trend === null ? HAS_BASELINE : HAS_BASELINE | HAS_TREND,
    resultR: r, randomR: baseline !== null && !signalKeepsSide(signal) ? mirrored : r,
    trendR: trend === signal.side ? r : mirrored, movePct: outcome.move_pct,
    favorablePct: outcome.max_favorable_pct, adversePct: outcome.max_adverse_pct, sideScore,
  };
}

/** The first index in [0, length) whose signalMs is at least `ms` (columns sorted). */
export function firstAtOrAfter(c: TrackColumns, ms: number): number {
  let low = 0;
  let high = c.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (c.signalMs[mid] < ms) low = mid + 1;
    else high = mid;
  }
  return low;
}
