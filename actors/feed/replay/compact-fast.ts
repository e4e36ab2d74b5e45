// Fused readers for the common shape of compact T and B lines: every number is read in one loop
// over the bytes into locals. The general readers (compact-fields.ts) pass each value through a
// shared output slot and several calls per field, which cost 4-5x more per book. A line in any
// other shape (exponents, signs, leading zeros, text ids, bad fields) makes these answer "not
// handled", and the caller reads it again with the general readers, which also name the error.
import type { DecodedBook, DecodedTrade } from './compact-decoder.js';

const COMMA = 44;
const DOT = 46;
const MINUS = 45;
/** Powers of ten exact as doubles: mantissa / POW10[k] is then correctly rounded. */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
  1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
/** Below 2^53 every integer is exact, so a mantissa built digit by digit is exact too. */
const EXACT_MAX = 9007199254740992;

/**
 * A B line (`start` at its 'B') whose symbol index is defined, whose fields after it are
 * `tsMs,bids,asks` plain integers, and whose levels are positive plain decimals (read as
 * Number(text) reads them, like scanDecimal). Returns false when the line is in any other
 * shape (`out` may then be partly written).
 */
export function readBookFast(buf: Uint8Array, start: number, end: number,
  symbols: readonly (string | undefined)[], levelsMax: number, out: DecodedBook): boolean {
  const symbol = symbolAt(buf, start + 2, end, symbols);
  if (symbol === undefined) return false;
  out.symbol = symbol;
  out.symbolIndex = symbolIndex;
  let i = indexStop + 1;
  let c = 0;
  // tsMs, then the two level counts: plain integers (a book without levels: general reader).
  let tsMs = 0;
  let bids = 0;
  let asks = 0;
  for (let f = 0; f < 3; f++) {
    const first = i;
    let n = 0;
    while (i < end && (c = buf[i]) >= 48 && c <= 57) {
      n = n * 10 + (c - 48);
      i++;
    }
    if (i === first || i === end || c !== COMMA || (buf[first] === 48 && i - first > 1)) {
      return false;
    }
    if (f === 0) tsMs = n;
    else if (f === 1) bids = n;
    else asks = n;
    i++;
  }
  if (!(tsMs > 0 && tsMs < EXACT_MAX && bids <= levelsMax && asks <= levelsMax)) return false;
  i = readSideFast(buf, i - 1, end, bids, out.bidPx, out.bidSz);
  if (i >= 0) i = readSideFast(buf, i, end, asks, out.askPx, out.askSz);
  if (i !== end) return false;
  out.tsMs = tsMs;
  out.bidLevels = bids;
  out.askLevels = asks;
  return true;
}

/**
 * `levels` [px, sz] pairs of positive plain decimals after the comma at `i` into px and sz.
 * Returns the stop, or -1 for any other shape.
 */
function readSideFast(buf: Uint8Array, i: number, end: number, levels: number,
  px: Float64Array, sz: Float64Array): number {
  for (let k = 0; k < levels; k++) {
    const p = decimalAt(buf, i + 1, end);
    i = decimalStop;
    if (!(p > 0) || i === end || buf[i] !== COMMA) return -1;
    const v = decimalAt(buf, i + 1, end);
    i = decimalStop;
    if (!(v > 0) || (i < end && buf[i] !== COMMA)) return -1;
    px[k] = p;
    sz[k] = v;
  }
  return i;
}

/**
 * A T line (`start` at its 'T') in the common shape: a defined symbol index, plain tsMs,
 * positive plain decimal price and size, side 1 or -1, a canonical integer trade id, and
 * address indexes that are defined or empty. Returns false for any other shape.
 */
export function readTradeFast(buf: Uint8Array, start: number, end: number,
  symbols: readonly (string | undefined)[], addresses: readonly (string | undefined)[],
  t: DecodedTrade): boolean {
  const symbol = symbolAt(buf, start + 2, end, symbols);
  if (symbol === undefined) return false;
  let i = indexStop + 1;
  const tsMs = decimalAt(buf, i, end);
  i = decimalStop;
  if (!(tsMs > 0) || i === end || buf[i] !== COMMA) return false;
  const price = decimalAt(buf, i + 1, end);
  i = decimalStop;
  if (!(price > 0) || i === end || buf[i] !== COMMA) return false;
  const size = decimalAt(buf, i + 1, end);
  i = decimalStop + 1;
  if (!(size > 0) || i >= end || buf[i - 1] !== COMMA) return false;
  let side: 1 | -1 = 1;
  if (buf[i] === MINUS) {
    side = -1;
    i++;
  }
  if (buf[i] !== 49 || i + 1 >= end || buf[i + 1] !== COMMA) return false;
  i += 2;
  const id = decimalAt(buf, i, end);
  i = decimalStop;
  if (!(id >= 0) || decimalFractionDigits !== 0 || i === end || buf[i] !== COMMA) return false;
  const buyer = indexAt(buf, i + 1, end, addresses);
  if (buyer === undefined || indexStop === end) return false;
  const seller = indexAt(buf, indexStop + 1, end, addresses);
  if (seller === undefined || indexStop !== end) return false;
  t.symbol = symbol;
  t.symbolIndex = symbolIndex;
  t.tsMs = tsMs;
  t.price = price;
  t.size = size;
  t.side = side;
  t.tradeId = id;
  t.tradeIdText = null;
  t.buyer = buyer;
  t.seller = seller;
  return true;
}

/** Where decimalAt stopped, and the digits after its point. Integers: nothing is boxed. */
let decimalStop = 0;
let decimalFractionDigits = 0;

/**
 * A plain decimal at `at` (digits, then optionally '.' and digits, no leading zero) whose
 * digits make an integer below 2^53: its value, exactly Number(text) (the mantissa and 10^k
 * are exact, so one division rounds correctly). -1 for any other text. (Accumulating nine
 * digits at a time in an int32 measured slower than this double multiply-add.)
 */
function decimalAt(buf: Uint8Array, at: number, end: number): number {
  let i = at;
  let c = 0;
  let mantissa = 0;
  while (i < end && (c = buf[i]) >= 48 && c <= 57) {
    mantissa = mantissa * 10 + (c - 48);
    i++;
  }
  if (i === at || (buf[at] === 48 && i - at > 1)) return -1;
  let fraction = 0;
  if (i < end && c === DOT) {
    const fractionAt = ++i;
    while (i < end && (c = buf[i]) >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      i++;
    }
    fraction = i - fractionAt;
    if (fraction === 0 || fraction > 22) return -1;
  }
  decimalStop = i;
  decimalFractionDigits = fraction;
  return mantissa < EXACT_MAX ? mantissa / POW10[fraction] : -1;
}

/** Where indexAt stopped (a comma or the line's end), and the index it read. Integers. */
let indexStop = 0;
let symbolIndex = 0;

/** A defined symbol index followed by a comma: its symbol; anything else: undefined. */
function symbolAt(buf: Uint8Array, at: number, end: number,
  symbols: readonly (string | undefined)[]): string | undefined {
  const symbol = indexAt(buf, at, end, symbols);
  return symbol === null || indexStop === end ? undefined : symbol;
}

/** A defined index into `table` (its entry), empty (null), or anything else (undefined). */
function indexAt<T>(buf: Uint8Array, at: number, end: number,
  table: readonly (T | undefined)[]): T | null | undefined {
  let i = at;
  let n = 0;
  let c = 0;
  while (i < end && (c = buf[i]) >= 48 && c <= 57) {
    n = n * 10 + (c - 48);
    i++;
  }
  indexStop = i;
  symbolIndex = n;
  if (i < end && buf[i] !== COMMA) return undefined;
  if (i === at) return null;
  if ((buf[at] === 48 && i - at > 1) || n >= table.length) return undefined;
  return table[n];
}
