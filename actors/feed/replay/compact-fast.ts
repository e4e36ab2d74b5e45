// Fused readers for the common shape of compact T and B lines: every number is read in a loop
// over the bytes into int32 locals. The general readers (compact-fields.ts) pass each value
// through a shared output slot and several calls per field, which cost 4-5x more per book. A
// line in any other shape (exponents, signs, leading zeros, text ids, bad fields) makes these
// answer "not handled", and the caller reads it again with the general readers, which give
// the same values and name the error.
//
// A line ends at `end` or at a newline, whichever comes first, and the byte at `end` must not
// be a digit or a dot (ByteLineReader keeps a newline there): digit loops then need no bounds
// check. The readers return where the line's last field stopped (`end` or its newline), so
// the fused loop (compact-run.ts) can pass its chunk's end and learn where the line ended.
//
// The number readers that are calls return where they stopped and leave the value in
// `value[0]`: a double returned from a call that the compiler does not inline is boxed, an
// allocation per number.
import type { DecodedBook, DecodedTrade } from './decoded-lines.js';

const COMMA = 44;
const DOT = 46;
const MINUS = 45;
const NEWLINE = 10;
/** Powers of ten exact as doubles: mantissa / POW10[k] is then correctly rounded. */
const POW10 = new Float64Array([1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]);
/** Below 2^53 every integer is exact, so a mantissa built digit by digit is exact too. */
const EXACT_MAX = 9007199254740992;
/** The value of the last integerAt or longDecimalAt that did not answer -1. */
const value = new Float64Array(1);

/**
 * A B line (`start` at its 'B') whose symbol index is defined, whose fields after it are
 * `tsMs,bids,asks` plain integers, and whose levels are positive plain decimals (read as
 * Number(text) reads them, like scanDecimal). Returns the stop, or -1 when the line is in any
 * other shape (`out` may then be partly written).
 */
export function readBookFast(buf: Uint8Array, start: number, end: number,
  symbols: readonly (string | undefined)[], levelsMax: number, out: DecodedBook): number {
  const symbol = symbolAt(buf, start + 2, end, symbols);
  if (symbol === undefined) return -1;
  out.symbol = symbol;
  out.symbolIndex = symbolIndex;
  let i = indexStop + 1;
  // tsMs, then the two level counts: plain integers (a book without levels: general reader).
  i = integerAt(buf, i);
  const tsMs = value[0];
  if (i < 0 || buf[i] !== COMMA) return -1;
  i = integerAt(buf, i + 1);
  const bids = value[0];
  if (i < 0 || buf[i] !== COMMA) return -1;
  i = integerAt(buf, i + 1);
  const asks = value[0];
  if (!(tsMs > 0 && bids > 0 && bids <= levelsMax && asks > 0 && asks <= levelsMax) || i < 0 ||
    i >= end || buf[i] !== COMMA) return -1;
  i = readSideFast(buf, i, bids, out.bidPx, out.bidSz);
  if (i < 0 || i >= end || buf[i] !== COMMA) return -1;
  i = readSideFast(buf, i, asks, out.askPx, out.askSz);
  if (i < 0 || (i !== end && buf[i] !== NEWLINE)) return -1;
  out.tsMs = tsMs;
  out.bidLevels = bids;
  out.askLevels = asks;
  return i;
}

/**
 * `levels` [px, sz] pairs of positive plain decimals after the comma at `i` into px and sz,
 * comma-separated. Returns the stop after the last size, or -1 for any other shape. The
 * numbers are read inline (digits, then optionally '.' and digits, no leading zero; exactly
 * Number(text)), 2 x 20 of them a venue book.
 */
function readSideFast(buf: Uint8Array, i: number, levels: number, px: Float64Array,
  sz: Float64Array): number {
  for (let k = 0; k < 2 * levels; k++) {
    if (buf[i] !== COMMA) return -1;
    const at = ++i;
    let c = buf[i];
    let mantissa = 0;
    while (c >= 48 && c <= 57) {
      mantissa = (mantissa * 10 + (c - 48)) | 0;
      c = buf[++i];
    }
    const whole = i - at;
    let fraction = 0;
    if (c === DOT) {
      const fractionAt = ++i;
      c = buf[i];
      while (c >= 48 && c <= 57) {
        mantissa = (mantissa * 10 + (c - 48)) | 0;
        c = buf[++i];
      }
      fraction = i - fractionAt;
      if (fraction === 0 || fraction > 22) return -1;
    }
    if (whole === 0 || (buf[at] === 48 && whole > 1)) return -1;
    let v = mantissa / POW10[fraction];
    if (whole + fraction > 9) {
      if (longDecimalAt(buf, at, whole, fraction, i) < 0) return -1;
      v = value[0];
    }
    if (!(v > 0)) return -1;
    if ((k & 1) === 0) px[k >> 1] = v;
    else sz[k >> 1] = v;
  }
  return i;
}

/**
 * A T line (`start` at its 'T') in the common shape: a defined symbol index, an integer tsMs,
 * positive plain decimal price and size of up to nine digits, side 1 or -1, a canonical integer
 * trade id, and address indexes that are defined or empty. Returns the stop, or -1 for any
 * other shape (`t` may then be partly written). Every field is read inline into int32 locals:
 * a call per field, and a double handed back through it, cost about half the line's time.
 */
export function readTradeFast(buf: Uint8Array, start: number, end: number,
  symbols: readonly (string | undefined)[], addresses: readonly (string | undefined)[],
  t: DecodedTrade): number {
  let i = start + 2;
  let at = i;
  let c = buf[i];
  let n = 0;
  while (c >= 48 && c <= 57) {
    n = (n * 10 + (c - 48)) | 0;
    c = buf[++i];
  }
  if (c !== COMMA || !canonical(buf, at, i, 9) || n >= symbols.length) return -1;
  const symbol = symbols[n];
  if (symbol === undefined) return -1;
  t.symbol = symbol;
  t.symbolIndex = n;
  // tsMs: nine digits, then the rest (a fraction: the general reader).
  at = ++i;
  c = buf[i];
  let high = 0;
  while (c >= 48 && c <= 57 && i - at < 9) {
    high = (high * 10 + (c - 48)) | 0;
    c = buf[++i];
  }
  const lowAt = i;
  let low = 0;
  while (c >= 48 && c <= 57) {
    low = (low * 10 + (c - 48)) | 0;
    c = buf[++i];
  }
  if (c !== COMMA || !canonical(buf, at, i, 16)) return -1;
  t.tsMs = high * POW10[i - lowAt] + low;
  if (!(t.tsMs > 0 && t.tsMs < EXACT_MAX)) return -1;
  for (let f = 0; f < 2; f++) {
    at = ++i;
    c = buf[i];
    n = 0;
    while (c >= 48 && c <= 57) {
      n = (n * 10 + (c - 48)) | 0;
      c = buf[++i];
    }
    const whole = i - at;
    let fraction = 0;
    if (c === DOT) {
      const fractionAt = ++i;
      c = buf[i];
      while (c >= 48 && c <= 57) {
        n = (n * 10 + (c - 48)) | 0;
        c = buf[++i];
      }
      fraction = i - fractionAt;
      if (fraction === 0) return -1;
    }
    // More than nine digits could wrap the int32: the general reader takes them.
    if (c !== COMMA || whole + fraction > 9 || !canonical(buf, at, at + whole, 9) || n === 0) {
      return -1;
    }
    if (f === 0) t.price = n / POW10[fraction];
    else t.size = n / POW10[fraction];
  }
  return readTradeTail(buf, i + 1, end, addresses, t);
}

/**
 * readTradeFast from the side (at `i`): side, trade id, buyer and seller into `t`. The stop,
 * or -1.
 */
function readTradeTail(buf: Uint8Array, i: number, end: number,
  addresses: readonly (string | undefined)[], t: DecodedTrade): number {
  let c = buf[i];
  t.side = 1;
  if (c === MINUS) {
    t.side = -1;
    c = buf[++i];
  }
  if (c !== 49 || buf[i + 1] !== COMMA) return -1;
  i = integerAt(buf, i + 2);
  if (i < 0 || buf[i] !== COMMA) return -1;
  t.tradeId = value[0];
  t.tradeIdText = null;
  for (let p = 0; p < 2; p++) {
    const at = ++i;
    c = buf[i];
    let n = 0;
    while (c >= 48 && c <= 57) {
      n = (n * 10 + (c - 48)) | 0;
      c = buf[++i];
    }
    // The buyer ends at a comma, the seller at the line's end.
    if (p === 0 ? c !== COMMA : i !== end && c !== NEWLINE) return -1;
    const address = i === at ? null :
      canonical(buf, at, i, 9) && n < addresses.length ? addresses[n] : undefined;
    if (address === undefined) return -1;
    if (p === 0) t.buyer = address;
    else t.seller = address;
  }
  return i;
}

/** True when [at, stop) is a canonical integer of 1..maxDigits digits (no leading zero). */
function canonical(buf: Uint8Array, at: number, stop: number, maxDigits: number): boolean {
  return stop > at && stop - at <= maxDigits && (buf[at] !== 48 || stop === at + 1);
}

/**
 * A plain decimal of more than nine digits (`integerDigits`, then `fraction` after a dot) at
 * `at`, its digits accumulated in a double (exact below 2^53) into value[0], exactly
 * Number(text): the mantissa and 10^k are exact, so one division rounds correctly. Returns
 * `stop`, or -1 when the mantissa reaches 2^53.
 */
function longDecimalAt(buf: Uint8Array, at: number, integerDigits: number, fraction: number,
  stop: number): number {
  let mantissa = 0;
  for (let i = at; i < at + integerDigits; i++) mantissa = mantissa * 10 + (buf[i] - 48);
  const fractionAt = at + integerDigits + 1;
  for (let i = fractionAt; i < fractionAt + fraction; i++) {
    mantissa = mantissa * 10 + (buf[i] - 48);
  }
  if (!(mantissa < EXACT_MAX)) return -1;
  value[0] = mantissa / POW10[fraction];
  return stop;
}

/**
 * A canonical integer (no fraction) below 2^53 at `at` into value[0]; the stop, or -1. Digits
 * accumulate nine at a time in an int32 (timestamps and trade ids have 12-16): a double
 * multiply-add per digit is a chain of dependent floating-point operations, and slower.
 */
function integerAt(buf: Uint8Array, at: number): number {
  let i = at;
  let c = buf[i];
  let n = 0;
  let part = 0;
  let partAt = i;
  while (c >= 48 && c <= 57) {
    part = (part * 10 + (c - 48)) | 0;
    c = buf[++i];
    if (i - partAt === 9) {
      n = n * 1e9 + part;
      part = 0;
      partAt = i;
    }
  }
  if (i === at || (buf[at] === 48 && i - at > 1) || c === DOT) return -1;
  n = n * POW10[i - partAt] + part;
  if (!(n < EXACT_MAX)) return -1;
  value[0] = n;
  return i;
}

/** Where indexAt stopped (a comma, a newline or the line's end), and the index it read. */
let indexStop = 0;
let symbolIndex = 0;

/** A defined symbol index followed by a comma: its symbol; anything else: undefined. */
function symbolAt(buf: Uint8Array, at: number, end: number,
  symbols: readonly (string | undefined)[]): string | undefined {
  const symbol = indexAt(buf, at, symbols);
  return symbol === null || indexStop >= end || buf[indexStop] !== COMMA ? undefined : symbol;
}

/**
 * A defined index into `table` (its entry), empty (null), or anything else (undefined). The
 * caller checks the byte it stopped at.
 */
function indexAt<T>(buf: Uint8Array, at: number, table: readonly (T | undefined)[]):
  T | null | undefined {
  let i = at;
  let c = buf[i];
  let n = 0;
  while (c >= 48 && c <= 57) {
    n = n * 10 + (c - 48);
    c = buf[++i];
  }
  indexStop = i;
  symbolIndex = n;
  if (i === at) return null;
  if ((buf[at] === 48 && i - at > 1) || n >= table.length) return undefined;
  return table[n];
}
