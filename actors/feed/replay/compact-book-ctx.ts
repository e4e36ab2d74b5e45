// The B (book) and C (ctx) lines of the compact replay format, read from bytes once the symbol
// is known. `at` is the comma after the symbol field. Returns the event or a message naming
// the field, what was expected and what was found.
import type { AssetCtxEvent, BookEvent } from '../../../core/messages.js';
import type { BookFields } from '../feed-types.js';
import { bookEventOf } from '../lanes.js';
import * as bytes from './byte-scan.js';
import { COMPACT_BOOK_LEVELS_MAX } from './compact-format.js';
import * as fields from './compact-fields.js';

// Hot imports are bound to module-local names once: shard workers load TypeScript through tsx's
// CommonJS transform, where every use of an imported binding is a getter call (2-3x the cost).
const { scan, scanDecimal } = bytes;
const { indexField, numberField } = fields;
const was = fields.fieldError;
const COMMA = 44;

/** A book struct with room for the most levels a B line may carry (one per decoder). */
export function emptyBook(): BookFields {
  const levels = () => new Float64Array(COMPACT_BOOK_LEVELS_MAX);
  return { tsMs: 0, bidPx: levels(), bidSz: levels(), askPx: levels(), askSz: levels(),
    bidLevels: 0, askLevels: 0 };
}

const scratch = emptyBook();

/** B,<sym>,<tsMs>,<bidLevels>,<askLevels>,<px>,<sz>,... (bids then asks, best first). */
export function decodeBook(buf: Buffer, at: number, end: number, symbol: string):
  BookEvent | string {
  return decodeBookFields(buf, at, end, scratch) ?? bookEventOf(symbol, scratch);
}

/**
 * decodeBook into `out`, no object made (an array and an object per book cost more than its
 * ~80 numbers). The fast path tries compact-fast.ts first. null when done, else the message.
 */
export function decodeBookFields(buf: Buffer, at: number, end: number, out: BookFields):
  string | null {
  let i = numberField(buf, at + 1, end);
  const tsMs = scan.value;
  if (!(tsMs > 0)) return was('book', 'tsMs', 'epoch milliseconds', buf, at + 1, end);
  i = indexField(buf, i + 1, end, COMPACT_BOOK_LEVELS_MAX + 1);
  const bidLevels = scan.value;
  const countsAt = i;
  i = indexField(buf, i + 1, end, COMPACT_BOOK_LEVELS_MAX + 1);
  const askLevels = scan.value;
  if (!(bidLevels >= 0 && askLevels >= 0)) {
    return was('book', 'bidLevels/askLevels', `0..${COMPACT_BOOK_LEVELS_MAX}`, buf, countsAt,
      end);
  }
  out.tsMs = tsMs;
  out.bidLevels = bidLevels;
  out.askLevels = askLevels;
  i = readLevels(buf, i, end, bidLevels, out.bidPx, out.bidSz);
  if (i >= 0) i = readLevels(buf, i, end, askLevels, out.askPx, out.askSz);
  if (i < 0) return levelsError;
  if (i !== end) return was('book', 'levels', 'no more fields', buf, i, end);
  return null;
}

let levelsError = '';

/**
 * `levels` [px, sz] pairs after the comma at `i` into px and sz: positive numbers. Returns the
 * stop, or -1 with the message in levelsError.
 */
function readLevels(buf: Buffer, i: number, end: number, levels: number, px: Float64Array,
  sz: Float64Array): number {
  for (let k = 0; k < 2 * levels; k++) {
    if (i >= end) {
      levelsError = was('book', 'levels', `${levels} levels a side`, buf, i, end);
      return -1;
    }
    const at = i + 1;
    // The plain decimal directly; exponents and odd text through numberField.
    i = scanDecimal(buf, at, end);
    if (i < 0 || (i !== end && buf[i] !== COMMA)) i = numberField(buf, at, end);
    const v = scan.value;
    if (!(v > 0 && v < Infinity)) {
      levelsError = was('book', 'levels', 'positive numbers', buf, at, end);
      return -1;
    }
    if ((k & 1) === 0) px[k >> 1] = v;
    else sz[k >> 1] = v;
  }
  return i;
}

const CTX_FIELDS = ['markPx', 'prevDayPx', 'dayNtlVlm', 'openInterest', 'fundingRate',
  'oraclePx', 'midPx'] as const;
const ctxValues: (number | null)[] = [0, 0, 0, 0, 0, null, null];

/** C,<sym>,<tsMs>,<markPx>,<prevDayPx>,<dayNtlVlm>,<openInterest>,<fundingRate>,<oracle>,<mid> */
export function decodeCtx(buf: Buffer, at: number, end: number, symbol: string):
  AssetCtxEvent | string {
  let i = numberField(buf, at + 1, end);
  const tsMs = scan.value;
  if (!(tsMs > 0)) return was('ctx', 'tsMs', 'epoch milliseconds', buf, at + 1, end);
  for (let k = 0; k < CTX_FIELDS.length; k++) {
    const fieldAt = i + 1;
    if (i >= end) return was('ctx', CTX_FIELDS[k], 'a number', buf, fieldAt, end);
    const nullable = k >= 5;
    if (nullable && (fieldAt === end || buf[fieldAt] === COMMA)) {
      ctxValues[k] = null;
      i = fieldAt;
      continue;
    }
    i = numberField(buf, fieldAt, end);
    const v = scan.value;
    const ok = k === 0 ? v > 0 && v < Infinity : k <= 3 ? v >= 0 && v < Infinity :
      Number.isFinite(v);
    if (!ok) return was('ctx', CTX_FIELDS[k], ctxExpected(k), buf, fieldAt, end);
    ctxValues[k] = v;
  }
  if (i !== end) return was('ctx', 'midPx', 'the last field', buf, i, end);
  const [markPx, prevDayPx, dayNtlVlm, openInterest, fundingRate, oraclePx, midPx] = ctxValues;
  return { type: 'ctx', symbol, tsMs, markPx: markPx!, prevDayPx: prevDayPx!,
    dayNtlVlm: dayNtlVlm!, openInterest: openInterest!, fundingRate: fundingRate!, oraclePx,
    midPx };
}

function ctxExpected(k: number): string {
  return k === 0 ? 'a positive number' : k <= 3 ? 'a number >= 0' :
    k === 4 ? 'a number' : 'a number or empty';
}
