// Reads book snapshots, one JSON object per line: {"tsMs","bids":[px,sz,...],"asks":[...]}
// (the BookEvent shape of core/messages.ts); in a replay file, lines of another `type` are
// skipped. Bad input is a value naming the line and the field.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ReadResult } from './trades-csv.js';

export interface BookRow {
  readonly tsMs: number;
  readonly bidPx: Float64Array;
  readonly bidSz: Float64Array;
  readonly askPx: Float64Array;
  readonly askSz: Float64Array;
}

/** Books and levels per side kept at most; more is refused, not read without bound. */
export const bookNdjsonRowsMax = 2_000_000;
export const bookLevelsMax = 1000;

function side(name: string, value: unknown, descending: boolean):
  { px: Float64Array; sz: Float64Array } | string {
  if (!Array.isArray(value) || value.length % 2 !== 0) {
    return `${name} must be a flat array [px, sz, ...] of even length`;
  }
  const n = value.length / 2;
  if (n > bookLevelsMax) return `${name} must have at most ${bookLevelsMax} levels (was ${n})`;
  const px = new Float64Array(n);
  const sz = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const p = value[2 * k];
    const s = value[2 * k + 1];
    if (typeof p !== 'number' || !(p > 0 && p < Infinity)) {
      return `${name}[${2 * k}] must be a positive price (was ${JSON.stringify(p)})`;
    }
    if (typeof s !== 'number' || !(s >= 0 && s < Infinity)) {
      return `${name}[${2 * k + 1}] must be a size >= 0 (was ${JSON.stringify(s)})`;
    }
    if (k > 0 && (descending ? p >= px[k - 1] : p <= px[k - 1])) {
      return `${name} must be best first (${descending ? 'descending' : 'ascending'} prices) ` +
        `(was ${p} after ${px[k - 1]})`;
    }
    px[k] = p;
    sz[k] = s;
  }
  return { px, sz };
}

/** Parses one line: a book, null for a line to skip, or an error message. */
export function parseBookLine(line: string, previousTsMs: number): BookRow | null | string {
  if (line.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return `must be one JSON object (was ${JSON.stringify(line.slice(0, 40))})`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return 'must be a JSON object';
  }
  const o = value as Record<string, unknown>;
  if (o.type !== undefined && o.type !== 'book') return null;
  const tsMs = o.tsMs;
  if (typeof tsMs !== 'number' || !Number.isFinite(tsMs)) {
    return `tsMs must be epoch milliseconds (was ${JSON.stringify(tsMs)})`;
  }
  if (tsMs < previousTsMs) return `tsMs must not decrease (was ${tsMs} after ${previousTsMs})`;
  const bids = side('bids', o.bids, true);
  if (typeof bids === 'string') return bids;
  const asks = side('asks', o.asks, false);
  if (typeof asks === 'string') return asks;
  return { tsMs, bidPx: bids.px, bidSz: bids.sz, askPx: asks.px, askSz: asks.sz };
}

export async function readBookNdjson(path: string): Promise<ReadResult<BookRow[]>> {
  const books: BookRow[] = [];
  let lineNo = 0;
  try {
    const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
    for await (const line of lines) {
      lineNo += 1;
      const previous = books.length > 0 ? books[books.length - 1].tsMs : -Infinity;
      const row = parseBookLine(line, previous);
      if (typeof row === 'string' || books.length === bookNdjsonRowsMax) {
        lines.close();
        const message = typeof row === 'string' ? row : `more than ${bookNdjsonRowsMax} books`;
        return { ok: false, line: lineNo, message };
      }
      if (row !== null) books.push(row);
    }
  } catch (e) {
    return { ok: false, line: 0, message: `cannot read the file (${(e as Error).message})` };
  }
  return { ok: true, value: books };
}
