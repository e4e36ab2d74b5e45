// Comma-separated fields of a compact replay line, read from bytes. Each reader returns the
// index of the delimiter after the field (a comma, or the line's end) and leaves the value in
// `scan.value` (numbers) or `field.text` (text); a bad field gives NaN, the caller names it.
import * as bytes from './byte-scan.js';

// Hot imports are bound to module-local names once: shard workers load TypeScript through tsx's
// CommonJS transform, where every use of an imported binding is a getter call (2-3x the cost).
const { indexOfByte, scan, scanDecimal, textOf } = bytes;
const COMMA = 44;

// JSON number syntax: the text a writer may have produced for a double.
const PLAIN_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** The end of the field starting at `at`: the next comma or the line's end. */
export function fieldEnd(buf: Buffer, at: number, end: number): number {
  const comma = indexOfByte(buf, COMMA, at, end);
  return comma < 0 ? end : comma;
}

/** A decimal field into scan.value (NaN when it is not a plain number). */
export function numberField(buf: Buffer, at: number, end: number): number {
  const stop = scanDecimal(buf, at, end);
  if (stop >= 0 && (stop === end || buf[stop] === COMMA)) return stop;
  // Exponents and long mantissas: exact through Number(), after a strict shape check.
  const close = fieldEnd(buf, at, end);
  const text = buf.toString('latin1', at, close);
  scan.value = PLAIN_NUMBER.test(text) ? Number(text) : NaN;
  return close;
}

/** A non-negative integer field below `max` into scan.value (NaN otherwise, -1 when empty). */
export function indexField(buf: Buffer, at: number, end: number, max: number): number {
  if (at === end || buf[at] === COMMA) {
    scan.value = -1;
    return at;
  }
  const stop = numberField(buf, at, end);
  const v = scan.value;
  if (!(Number.isInteger(v) && v >= 0 && v < max)) scan.value = NaN;
  return stop;
}

/** Output slot of textField. */
export const field = { text: '' };

/** A text field (any bytes but a comma) into field.text; UTF-8 when it is not ASCII. */
export function textField(buf: Buffer, at: number, end: number): number {
  let ascii = true;
  let i = at;
  for (; i < end; i++) {
    const c = buf[i];
    if (c === COMMA) break;
    if (c > 127) ascii = false;
  }
  field.text = textOf(buf, at, i, ascii);
  return i;
}

/** 2^53: integers below it are exact doubles. */
const EXACT_MAX = 9007199254740992;

/**
 * A trade id field. A canonical integer below 2^53 (the venue's tids: digits, no leading zero)
 * goes to scan.value with no string made; any other id gives NaN and its text in field.text.
 * Same rule as numericTradeId, so either path keys an id the same way.
 */
export function tradeIdField(buf: Buffer, at: number, end: number): number {
  let id = 0;
  let i = at;
  for (; i < end; i++) {
    const c = buf[i];
    if (c < 48 || c > 57) break;
    id = id * 10 + (c - 48);
  }
  const digits = i - at;
  if (digits > 0 && digits <= 16 && id < EXACT_MAX && (i === end || buf[i] === COMMA) &&
    (buf[at] !== 48 || digits === 1)) {
    scan.value = id;
    return i;
  }
  scan.value = NaN;
  return textField(buf, at, end);
}

/** The raw text of a field, for an error message ("was ..."). */
export function fieldWas(buf: Buffer, at: number, end: number): string {
  const close = fieldEnd(buf, at, end);
  return JSON.stringify(buf.toString('utf8', at, Math.min(close, at + 60)));
}

/** The message for a bad field: "compact trade: price: expected ... (was "...")". */
export function fieldError(kind: string, name: string, expected: string, buf: Buffer,
  at: number, end: number): string {
  return `compact ${kind}: ${name}: expected ${expected} (was ${fieldWas(buf, at, end)})`;
}
