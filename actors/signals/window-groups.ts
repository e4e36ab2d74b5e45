// One grouping's rows over a window of the track record's columns: a counting pass, then a
// pass gathering each group's evaluated R and paired edges in time order, then the intervals
// (docs/signals.md "Track record statistics"). The sums run in the records' order, as a pass
// over the tracked signals would, so the figures are the same to the last bit.
import {
  groupStatistics, statisticsBlockOf, type GroupSample, type GroupStatistics,
} from './group-statistics.js';
import {
  firstAtOrAfter, HAS_BASELINE, HAS_TREND, HIT_STOP, HIT_T1, type TrackColumns,
} from './track-columns.js';
import type { PerformanceGroup, PerformanceRow } from './track-record.js';

/** Index bounds [lo, hi), then the window [fromMs, toMs) and the market-time now. */
export type Span = readonly [number, number, number, number, number];

/** The window [fromMs, toMs) of the columns as index bounds, with the test still needed. */
export function windowOf(c: TrackColumns, fromMs: number, toMs: number): [number, number] {
  return c.sorted ? [firstAtOrAfter(c, fromMs), firstAtOrAfter(c, toMs)] : [0, c.length];
}

/** Per group: counts, sums in time order, then each evaluated signal's R and edge. */
interface Tally {
  readonly count: Int32Array;
  readonly evaluated: Int32Array;
  readonly t1Hits: Int32Array;
  readonly stopHits: Int32Array;
  readonly withBaseline: Int32Array;
  readonly move: Float64Array;
  readonly favorable: Float64Array;
  readonly adverse: Float64Array;
  readonly r: Float64Array;
}

/** Writes signal i's groups into `out`, returns how many (a logic signal is in each logic). */
function groupCount(c: TrackColumns, by: PerformanceGroup, i: number, out: Int32Array): number {
  const value = c.groups[by][i];
  if (by !== 'logic') {
    out[0] = value;
    return 1;
  }
  let k = 0;
  for (let bits = value; bits !== 0; bits &= bits - 1) out[k++] = 31 - Math.clz32(bits & -bits);
  return k;
}

function tally(c: TrackColumns, span: Span,
  by: PerformanceGroup): Tally {
  const [lo, hi, fromMs, toMs, nowMs] = span;
  const size = c.labels[by].length;
  const ints = () => new Int32Array(size);
  const floats = () => new Float64Array(size);
  const t: Tally = { count: ints(), evaluated: ints(), t1Hits: ints(), stopHits: ints(),
    withBaseline: ints(), move: floats(), favorable: floats(), adverse: floats(),
    r: floats() };
  const members = new Int32Array(32);
  for (let i = lo; i < hi; i++) {
    if (c.signalMs[i] < fromMs || c.signalMs[i] >= toMs) continue;
    const known = c.knownMs[i] <= nowMs;
    for (let k = groupCount(c, by, i, members) - 1; k >= 0; k--) {
      const g = members[k];
      t.count[g] += 1;
      if (!known) continue;
      t.evaluated[g] += 1;
      if (c.hit[i] === HIT_T1) t.t1Hits[g] += 1;
      if (c.hit[i] === HIT_STOP) t.stopHits[g] += 1;
      t.move[g] += c.movePct[i];
      t.favorable[g] += c.favorablePct[i];
      t.adverse[g] += c.adversePct[i];
      t.r[g] += c.resultR[i];
      if ((c.flags[i] & HAS_BASELINE) !== 0) t.withBaseline[g] += 1;
    }
  }
  return t;
}

/** Each group's evaluated R and paired edges in time order, and its baseline sums. */
function samples(c: TrackColumns, span: Span,
  by: PerformanceGroup, t: Tally): GroupSample[] {
  const [lo, hi, fromMs, toMs, nowMs] = span;
  const size = c.labels[by].length;
  const own = Array.from({ length: size }, (_, g) => new Float64Array(t.evaluated[g]));
  const edge = Array.from({ length: size }, (_, g) => new Float64Array(t.withBaseline[g]));
  const ownBlocks = Array.from({ length: size }, (_, g) => new Int32Array(t.evaluated[g]));
  const edgeBlocks = Array.from({ length: size }, (_, g) => new Int32Array(t.withBaseline[g]));
  const ownAt = new Int32Array(size);
  const edgeAt = new Int32Array(size);
  const randomSum = new Float64Array(size);
  const trendSum = new Float64Array(size);
  const trendEvaluated = new Int32Array(size);
  const members = new Int32Array(32);
  for (let i = lo; i < hi; i++) {
    if (c.signalMs[i] < fromMs || c.signalMs[i] >= toMs || !(c.knownMs[i] <= nowMs)) continue;
    const r = c.resultR[i];
    const flags = c.flags[i];
    const block = statisticsBlockOf(c.signalMs[i]);
    for (let k = groupCount(c, by, i, members) - 1; k >= 0; k--) {
      const g = members[k];
      ownBlocks[g][ownAt[g]] = block;
      own[g][ownAt[g]++] = r;
      if ((flags & HAS_BASELINE) === 0) continue;
      edgeBlocks[g][edgeAt[g]] = block;
      edge[g][edgeAt[g]++] = r - c.randomR[i];
      randomSum[g] += c.randomR[i];
      if ((flags & HAS_TREND) === 0) continue;
      trendSum[g] += c.trendR[i];
      trendEvaluated[g] += 1;
    }
  }
  return own.map((values, g) => ({ own: values, ownBlocks: ownBlocks[g], edge: edge[g],
    edgeBlocks: edgeBlocks[g], randomSum: randomSum[g],
    trendSum: trendSum[g], trendEvaluated: trendEvaluated[g] }));
}

const mean = (sum: number, n: number) => (n === 0 ? null : sum / n);

export function statisticsRows(c: TrackColumns, span: Span,
  by: PerformanceGroup): (PerformanceRow & GroupStatistics)[] {
  const t = tally(c, span, by);
  const gathered = samples(c, span, by, t);
  const labels = c.labels[by];
  const present: number[] = [];
  for (let g = 0; g < labels.length; g++) if (t.count[g] > 0) present.push(g);
  present.sort((a, b) => (labels[a] < labels[b] ? -1 : labels[a] > labels[b] ? 1 : 0));
  return present.map((g) => {
    const evaluated = t.evaluated[g];
    const row: PerformanceRow = {
      group: labels[g], count: t.count[g], evaluated, t1Hits: t.t1Hits[g],
      stopHits: t.stopHits[g], hitRate: mean(t.t1Hits[g], evaluated),
      avgMovePct: mean(t.move[g], evaluated), avgMaxFavorablePct: mean(t.favorable[g], evaluated),
      avgMaxAdversePct: mean(t.adverse[g], evaluated), expectancyR: mean(t.r[g], evaluated),
    };
    return { ...row, ...groupStatistics(`${by}:${labels[g]}`, gathered[g], row.t1Hits) };
  });
}

