// The walk-forward book of evaluated outcomes: per key (a setup, or the pool), results in R
// ordered by their evaluation time (market time) with prefix sums, so "every outcome evaluated
// before t" is one binary search. Sums run in one canonical order (time, then result), so a
// book filled live and one rebuilt from the store at start give the same bits.
import type { RSums } from './evidence.js';

interface Column {
  readonly timesMs: number[];
  readonly results: number[];
  /** prefix[i]: sum of the first i results (prefix[0] = 0); the same for squares. */
  readonly prefix: number[];
  readonly prefixSq: number[];
}

export interface EvidenceBook {
  readonly columns: Map<string, Column>;
}

export function createEvidenceBook(): EvidenceBook {
  return { columns: new Map() };
}

export function clearEvidenceBook(book: EvidenceBook): void {
  book.columns.clear();
}

/** Outcomes are recorded in evaluation order, so the insert is almost always at the end. */
export function recordEvidence(book: EvidenceBook, key: string, evaluatedMs: number,
  resultR: number): void {
  if (!Number.isFinite(evaluatedMs) || !Number.isFinite(resultR)) {
    throw new RangeError(`evidence needs finite time and result (${evaluatedMs}, ${resultR})`);
  }
  let column = book.columns.get(key);
  if (column === undefined) {
    column = { timesMs: [], results: [], prefix: [0], prefixSq: [0] };
    book.columns.set(key, column);
  }
  const at = upperBound(column, evaluatedMs, resultR);
  if (at === column.timesMs.length) {
    column.timesMs.push(evaluatedMs);
    column.results.push(resultR);
    column.prefix.push(column.prefix[at] + resultR);
    column.prefixSq.push(column.prefixSq[at] + resultR * resultR);
    return;
  }
  column.timesMs.splice(at, 0, evaluatedMs);
  column.results.splice(at, 0, resultR);
  column.prefix.length = at + 1;
  column.prefixSq.length = at + 1;
  for (let i = at; i < column.results.length; i++) {
    const r = column.results[i];
    column.prefix.push(column.prefix[i] + r);
    column.prefixSq.push(column.prefixSq[i] + r * r);
  }
}

/** Sums of the key's outcomes evaluated in [fromMs, beforeMs). */
export function evidenceBetween(book: EvidenceBook, key: string, fromMs: number,
  beforeMs: number): RSums {
  const column = book.columns.get(key);
  if (column === undefined) return { n: 0, sum: 0, sumSq: 0 };
  const lo = countBefore(column.timesMs, fromMs);
  const hi = countBefore(column.timesMs, beforeMs);
  if (hi <= lo) return { n: 0, sum: 0, sumSq: 0 };
  return { n: hi - lo, sum: column.prefix[hi] - column.prefix[lo],
    sumSq: column.prefixSq[hi] - column.prefixSq[lo] };
}

/** How many times are strictly below `timeMs` (the array is sorted). */
function countBefore(timesMs: readonly number[], timeMs: number): number {
  let lo = 0;
  let hi = timesMs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timesMs[mid] < timeMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose (time, result) is greater than the given one. */
function upperBound(column: Column, timeMs: number, result: number): number {
  const { timesMs, results } = column;
  const last = timesMs.length - 1;
  if (last < 0 || timesMs[last] < timeMs ||
    (timesMs[last] === timeMs && results[last] <= result)) return last + 1;
  let lo = 0;
  let hi = timesMs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timesMs[mid] < timeMs || (timesMs[mid] === timeMs && results[mid] <= result)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
