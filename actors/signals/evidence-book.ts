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

/** Sums of the key's outcomes evaluated strictly before `beforeMs`. */
export function evidenceBefore(book: EvidenceBook, key: string, beforeMs: number): RSums {
  const column = book.columns.get(key);
  if (column === undefined) return { n: 0, sum: 0, sumSq: 0 };
  let lo = 0;
  let hi = column.timesMs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (column.timesMs[mid] < beforeMs) lo = mid + 1;
    else hi = mid;
  }
  return { n: lo, sum: column.prefix[lo], sumSq: column.prefixSq[lo] };
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
