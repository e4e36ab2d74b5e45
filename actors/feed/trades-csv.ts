// Reads a trades CSV into typed columns: the analyze format `time_ms,price,size,side` (side
// B/S) and the derived Binance CSV of test/fixtures/venue
// (`trade_time_ms,...,taker_side` buy/sell).
// Bad input is a value naming the line, the column, what was expected and what was found.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface TradeColumns {
  count: number;
  tsMs: Float64Array;
  price: Float64Array;
  size: Float64Array;
  /** Aggressor: +1 buy, -1 sell. */
  side: Int8Array;
  /** Which header was recognized. */
  format: 'time_ms,price,size,side' | 'binance';
}

export type ReadResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly line: number; readonly message: string };

/** Rows kept at most; a longer file is refused rather than read without bound. */
export const tradesCsvRowsMax = 20_000_000;

const SIDES: Record<string, 1 | -1> = { b: 1, s: -1, buy: 1, sell: -1 };

interface Layout { time: number; price: number; size: number; side: number; columns: number }

function layoutOf(header: string): Layout | string {
  const names = header.split(',').map((n) => n.trim().toLowerCase());
  const find = (...candidates: string[]) => names.findIndex((n) => candidates.includes(n));
  const layout = {
    time: find('time_ms', 'trade_time_ms'), price: find('price'), size: find('size'),
    side: find('side', 'taker_side'), columns: names.length,
  };
  const missing = Object.entries(layout).filter(([, i]) => i < 0).map(([k]) => k);
  if (missing.length > 0) {
    return `header must name time_ms (or trade_time_ms), price, size and side (or taker_side) ` +
      `(was "${header.slice(0, 80)}")`;
  }
  return layout;
}

function grow(t: TradeColumns): void {
  const n = t.tsMs.length * 2;
  const widen = <A extends Float64Array | Int8Array>(a: A, make: (n: number) => A) => {
    const b = make(n);
    b.set(a);
    return b;
  };
  t.tsMs = widen(t.tsMs, (k) => new Float64Array(k));
  t.price = widen(t.price, (k) => new Float64Array(k));
  t.size = widen(t.size, (k) => new Float64Array(k));
  t.side = widen(t.side, (k) => new Int8Array(k));
}

/** Parses one data row into the columns; returns an error message or null. */
function pushRow(t: TradeColumns, layout: Layout, line: string): string | null {
  const cells = line.split(',');
  if (cells.length !== layout.columns) {
    return `expected ${layout.columns} columns (was ${cells.length})`;
  }
  const tsMs = Number(cells[layout.time]);
  const price = Number(cells[layout.price]);
  const size = Number(cells[layout.size]);
  const side = SIDES[cells[layout.side].trim().toLowerCase()];
  const shown = (i: number) => JSON.stringify(cells[i]);
  if (!Number.isInteger(tsMs) ||
    tsMs < 0) return `time must be epoch milliseconds (was ${shown(layout.time)})`;
  if (t.count > 0 && tsMs < t.tsMs[t.count - 1]) {
    return `time must not decrease (was ${tsMs} after ${t.tsMs[t.count - 1]})`;
  }
  if (!(price > 0 &&
    price < Infinity)) return `price must be a positive number (was ${shown(layout.price)})`;
  if (!(size > 0 &&
    size < Infinity)) return `size must be a positive number (was ${shown(layout.size)})`;
  if (side === undefined) return `side must be B or S (or buy or sell) (was ${shown(layout.side)})`;
  if (t.count === tradesCsvRowsMax) return `more than ${tradesCsvRowsMax} trades`;
  if (t.count === t.tsMs.length) grow(t);
  t.tsMs[t.count] = tsMs;
  t.price[t.count] = price;
  t.size[t.count] = size;
  t.side[t.count] = side;
  t.count += 1;
  return null;
}

function emptyColumns(format: TradeColumns['format']): TradeColumns {
  const n = 1024;
  return {
    count: 0, tsMs: new Float64Array(n), price: new Float64Array(n), size: new Float64Array(n),
    side: new Int8Array(n), format,
  };
}

/** A line-by-line parser: feed lines in order, then take the result. */
export function createTradesCsvParser() {
  let lineNo = 0;
  let layout: Layout | null = null;
  let columns: TradeColumns | null = null;
  let error: { line: number; message: string } | null = null;
  return {
    push(raw: string): boolean {
      lineNo += 1;
      if (error) return false;
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.trim() === '') return true;
      if (layout === null) {
        const found = layoutOf(line);
        if (typeof found === 'string') error = { line: lineNo, message: found };
        else {
          layout = found;
          const binance = /trade_time_ms/i.test(line);
          columns = emptyColumns(binance ? 'binance' : 'time_ms,price,size,side');
        }
        return error === null;
      }
      const message = pushRow(columns!, layout, line);
      if (message) error = { line: lineNo, message };
      return message === null;
    },
    result(): ReadResult<TradeColumns> {
      if (error) return { ok: false, ...error };
      if (!columns) return { ok: false, line: 1,
        message: 'missing header line (was an empty file)' };
      return { ok: true, value: columns };
    },
  };
}

export function parseTradesCsv(text: string): ReadResult<TradeColumns> {
  const parser = createTradesCsvParser();
  for (const line of text.split('\n')) if (!parser.push(line)) break;
  return parser.result();
}

/** Reads a file line by line; I/O errors are reported as line 0. */
export async function readTradesCsv(path: string): Promise<ReadResult<TradeColumns>> {
  const parser = createTradesCsvParser();
  try {
    const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!parser.push(line)) {
        lines.close();
        break;
      }
    }
  } catch (e) {
    return { ok: false, line: 0, message: `cannot read the file (${(e as Error).message})` };
  }
  return parser.result();
}
