// Reading numbers and strings straight from the bytes of a line, without making a string per
// line: the primitives the replay decoders share. Results of scans go to `scan`, not objects.

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
  1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/** Output slot of the scanners (one per thread): no object is allocated per scan. */
export const scan = { value: 0, ascii: true };

const QUOTE = 34;
const BACKSLASH = 92;

/** Below 2^53 every integer is exact, so the mantissa built digit by digit is exact too. */
const MANTISSA_EXACT_MAX = 9007199254740992;

/**
 * Reads a plain decimal at `start` (optional '-', digits, optional '.' and digits) into
 * `scan.value` and returns the index just past it. Returns -1 when the text is not such a
 * number or needs Number() for exactness: an exponent follows, a leading zero, a mantissa of
 * 2^53 or more, or more than 22 fraction digits. With the mantissa below 2^53 and 10^k exact,
 * mantissa / 10^k is correctly rounded, so the value equals Number(text).
 */
export function scanDecimal(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  const negative = i < end && buf[i] === 45;
  if (negative) i++;
  const first = i;
  let mantissa = 0;
  let c = 0;
  while (i < end && (c = buf[i]) >= 48 && c <= 57) {
    mantissa = mantissa * 10 + (c - 48);
    i++;
  }
  if (i === first) return -1;
  // JSON forbids "01"; a leading zero must be the whole integer part.
  if (buf[first] === 48 && i - first > 1) return -1;
  let value = mantissa;
  if (i < end && c === 46) {
    const fractionStart = ++i;
    while (i < end && (c = buf[i]) >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      i++;
    }
    const fraction = i - fractionStart;
    if (fraction === 0 || fraction > 22) return -1;
    value = mantissa / POW10[fraction];
  }
  if (mantissa >= MANTISSA_EXACT_MAX) return -1;
  if (i < end && (c === 101 || c === 69)) return -1;
  scan.value = negative ? -value : value;
  return i;
}

/** Index of the first `byte` in [start, end), or -1. */
export function indexOfByte(buf: Uint8Array, byte: number, start: number, end: number): number {
  for (let i = start; i < end; i++) if (buf[i] === byte) return i;
  return -1;
}

/**
 * Index of the closing quote of a JSON string whose text starts at `start`, or -1 when the
 * string has an escape or a control character (the caller falls back to JSON.parse). Sets
 * `scan.ascii` to false when a byte above 0x7f is seen (decode as UTF-8 then).
 */
export function scanJsonString(buf: Uint8Array, start: number, end: number): number {
  let ascii = true;
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c === QUOTE) {
      scan.ascii = ascii;
      return i;
    }
    if (c === BACKSLASH || c < 32) return -1;
    if (c > 127) ascii = false;
  }
  return -1;
}

/** The text of [start, end): latin1 (fast) when known to be ASCII, else UTF-8. */
export function textOf(buf: Buffer, start: number, end: number, ascii: boolean): string {
  return ascii ? latin1Text(buf, start, end) : buf.toString('utf8', start, end);
}

/**
 * Bytes as latin1 text. Short strings (ids, symbols) are built by String.fromCharCode with
 * fixed arguments: several times cheaper than Buffer#toString's native call, which costs more
 * than the rest of a trade line's decoding.
 */
export function latin1Text(b: Buffer, s: number, e: number): string {
  const f = String.fromCharCode;
  switch (e - s) {
    case 0: return '';
    case 1: return f(b[s]);
    case 2: return f(b[s], b[s + 1]);
    case 3: return f(b[s], b[s + 1], b[s + 2]);
    case 4: return f(b[s], b[s + 1], b[s + 2], b[s + 3]);
    case 5: return f(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4]);
    case 6: return f(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5]);
    case 7: return f(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6]);
    case 8: return f(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7]);
    default: return e - s <= 16 ? latin1Long(b, s, e) : b.toString('latin1', s, e);
  }
}

/** 9..16 bytes: two halves of fixed width (8 + the rest). */
function latin1Long(b: Buffer, s: number, e: number): string {
  return latin1Text(b, s, s + 8) + latin1Text(b, s + 8, e);
}

/** True when the bytes at `at` equal `pattern`. */
export function bytesAt(buf: Uint8Array, at: number, end: number, pattern: Uint8Array): boolean {
  if (at + pattern.length > end) return false;
  for (let k = 0; k < pattern.length; k++) if (buf[at + k] !== pattern[k]) return false;
  return true;
}

/** ASCII bytes of a constant pattern. */
export function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}
