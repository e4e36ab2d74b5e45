// History points packed into columns: one Float64Array of every point's values (a minute slot's
// layout: the fields, then the regime code) and one of their times, the symbols interned.
//
// Why: a warm-up's first message carries ~65,000 points a shard, which waited as objects
// (~350-500 bytes each with their numbers and their own copy of the symbol string) in the
// store's queue for seconds, long enough to reach the old generation: ~60 MB of the main
// thread's heap at ready (bench/README.md, Memory, third pass). Packed on arrival they are
// ~130 bytes a point off the heap, and the objects die young.
import { HISTORY_FIELDS, regimeCode, regimeOfCode, type HistoryPoint } from
  '../core/history-point.js';

const fieldCount = HISTORY_FIELDS.length;
/** Values per point: the fields, then the regime code (the same as a stored minute slot). */
export const POINT_VALUES = fieldCount + 1;

export interface HistoryColumns {
  readonly length: number;
  /** Each point's symbol: one string per distinct symbol, shared. */
  readonly symbols: readonly string[];
  readonly times: Float64Array;
  /** POINT_VALUES per point; NaN for a null field. */
  readonly values: Float64Array;
}

export function packHistoryPoints(points: readonly HistoryPoint[]): HistoryColumns {
  const count = points.length;
  const symbols = new Array<string>(count);
  const times = new Float64Array(count);
  const values = new Float64Array(count * POINT_VALUES);
  const interned = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const point = points[i];
    let symbol = interned.get(point.symbol);
    if (symbol === undefined) interned.set(point.symbol, symbol = point.symbol);
    symbols[i] = symbol;
    times[i] = point.tMs;
    writeValues(values, i * POINT_VALUES, point);
  }
  return { length: count, symbols, times, values };
}

/**
 * A point's values from `at`, field by field in HISTORY_FIELDS order (checked in
 * history-minutes.ts): a loop over the field names was ~1.7 us a point (keyed loads), 0.1 s for
 * a warm-up's batch in one turn of the main thread.
 */
function writeValues(v: Float64Array, at: number, p: HistoryPoint): void {
  v[at] = p.open ?? NaN;
  v[at + 1] = p.high ?? NaN;
  v[at + 2] = p.low ?? NaN;
  v[at + 3] = p.close ?? NaN;
  v[at + 4] = p.volume;
  v[at + 5] = p.openInterest ?? NaN;
  v[at + 6] = p.fundingRate ?? NaN;
  v[at + 7] = p.fundingAnnualized ?? NaN;
  v[at + 8] = p.cvd ?? NaN;
  v[at + 9] = p.vpin ?? NaN;
  v[at + 10] = p.obi ?? NaN;
  v[at + 11] = p.ofi ?? NaN;
  v[at + 12] = p.kyleLambda ?? NaN;
  v[at + 13] = p.signalScore ?? NaN;
  v[at + fieldCount] = regimeCode(p.regime);
}

const orNull = (value: number) => (Number.isNaN(value) ? null : value);

/** Point `i` as an object again (what readers and the scale-out publisher take). */
export function historyPointAt(c: HistoryColumns, i: number): HistoryPoint {
  return pointOfValues(c.symbols[i], c.times[i], c.values, i * POINT_VALUES);
}

/** The point whose values start at `at` (a packed point or a stored minute slot). */
export function pointOfValues(symbol: string, tMs: number, v: Float64Array, at: number):
  HistoryPoint {
  // One literal in HISTORY_FIELDS order (checked in history-minutes.ts): one shape for all.
  return {
    symbol, tMs, open: orNull(v[at]), high: orNull(v[at + 1]), low: orNull(v[at + 2]),
    close: orNull(v[at + 3]), volume: v[at + 4], openInterest: orNull(v[at + 5]),
    fundingRate: orNull(v[at + 6]), fundingAnnualized: orNull(v[at + 7]), cvd: orNull(v[at + 8]),
    vpin: orNull(v[at + 9]), obi: orNull(v[at + 10]), ofi: orNull(v[at + 11]),
    kyleLambda: orNull(v[at + 12]), signalScore: orNull(v[at + 13]),
    regime: regimeOfCode(v[at + fieldCount]),
  };
}

/** Points [from, to) as objects. */
export function historyPointsOf(c: HistoryColumns, from = 0, to = c.length): HistoryPoint[] {
  const out: HistoryPoint[] = [];
  for (let i = from; i < to; i++) out.push(historyPointAt(c, i));
  return out;
}

/** Points [from, to) of one batch: what the store's writer takes. */
export interface HistorySegment {
  readonly columns: HistoryColumns;
  readonly from: number;
  readonly to: number;
}

/** 0 .. length-1: the store's queue takes a list, and counts a point as one item. */
export function historyIndices(c: HistoryColumns): number[] {
  const out = new Array<number>(c.length);
  for (let i = 0; i < c.length; i++) out[i] = i;
  return out;
}
