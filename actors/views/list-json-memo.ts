// The JSON text of a list held in typed-array columns (a pair's CVD history), kept between
// publishes: the history gains a point only when an interval closes (a minute for 1m, an hour
// for 1h), yet every publish (one a second per pair) serialized all of its points again, ISO
// times included: most of a shard's serialization time
// (bench/log/2026-11-27-view-encoding-and-state-saves.md).
// Comparing the columns with the last call's copy costs a few hundred number comparisons; the
// text is rebuilt only when they differ, so the bytes are always those of the points given.

import { jsonNumberRounded } from '../../core/json-numbers.js';

/** One element's JSON text from row `i` of the columns. */
export type RowJson = (columns: readonly Float64Array[], i: number) => string;

/**
 * A number as the views' JSON writes it (10 significant digits, core/json-numbers.ts): null for
 * NaN and the infinities.
 */
export const jsonNumber = jsonNumberRounded;

const same = (a: number, b: number) => a === b || (a !== a && b !== b);

export class ListJsonMemo {
  private seen: Float64Array[] = [];
  private count = -1;
  private text = '[]';

  constructor(private readonly row: RowJson) {}

  /** `[row 0,row 1,...]` over the first `count` rows of `columns`. */
  json(columns: readonly Float64Array[], count: number): string {
    if (count === this.count && this.holds(columns, count)) return this.text;
    const parts = new Array<string>(count);
    for (let i = 0; i < count; i++) parts[i] = this.row(columns, i);
    this.text = `[${parts.join(',')}]`;
    this.count = count;
    this.seen = columns.map((column, c) => {
      const copy = this.seen[c] !== undefined && this.seen[c]!.length >= count ? this.seen[c]!
        : new Float64Array(column.length);
      copy.set(column.subarray(0, count));
      return copy;
    });
    return this.text;
  }

  private holds(columns: readonly Float64Array[], count: number): boolean {
    if (columns.length !== this.seen.length) return false;
    for (let c = 0; c < columns.length; c++) {
      const now = columns[c]!;
      const before = this.seen[c]!;
      for (let i = 0; i < count; i++) if (!same(now[i]!, before[i]!)) return false;
    }
    return true;
  }
}
