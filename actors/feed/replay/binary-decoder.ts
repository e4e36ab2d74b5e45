// Reads the records of the binary replay format (binary-format.ts) against the file's symbol
// and address tables. Every record starts at a multiple of 8, so fields are typed array loads
// at fixed indexes (`pos` is the record's offset: its doubles are at f64[pos / 8 + k]).
// Trades and books go into the tables' reused structs (no object per record); the readers
// answer null when done, or a message naming the field, what was expected and what was found.
// Structure and values are checked as the compact format checks them: a record that passes
// gives the same event its compact line would.
import type { AssetCtxEvent } from '../../../core/messages.js';
import * as f from './binary-format.js';
import type { DecodedBook, DecodedTrade } from './compact-decoder.js';
import {
  COMPACT_ADDRESSES_MAX, COMPACT_BOOK_LEVELS_MAX, COMPACT_SYMBOLS_MAX,
} from './compact-format.js';

// Bound once to module-local names: shard workers load TypeScript through tsx's CommonJS
// transform, where every use of an imported binding is a getter call (2-3x the cost).
const {
  AT_ASK_LEVELS, AT_BID_LEVELS, AT_BUYER, AT_CTX, AT_FLAGS, AT_KIND, AT_LEVELS, AT_SELLER,
  AT_SYMBOL, AT_TEXT, CTX_BYTES, CTX_NUMBERS, KIND_SYMBOL, LENGTH_BYTES, NULL_MID, NULL_ORACLE,
  TRADE_BYTES,
} = f;
const EXACT_MAX = 9007199254740992;
const TRADE_LENGTH = TRADE_BYTES - LENGTH_BYTES;
const CTX_LENGTH = CTX_BYTES - LENGTH_BYTES;

const was = (kind: string, field: string, expected: string, value: unknown) =>
  `binary ${kind}: ${field}: expected ${expected} (was ${String(value)})`;

/** A T record at `pos` of `length` (its length field) into `t`; null, or the message. */
export function readTradeRecord(v: f.RecordViews, pos: number, length: number,
  symbols: readonly (string | undefined)[], addresses: readonly (string | undefined)[],
  t: DecodedTrade): string | null {
  if (length !== TRADE_LENGTH) return was('trade', 'length', `${TRADE_LENGTH} bytes`, length);
  const sym = v.u16[(pos + AT_SYMBOL) >> 1];
  const symbol = symbols[sym];
  if (symbol === undefined) return was('trade', 'symbol', 'a defined symbol index', sym);
  const d = pos >> 3;
  const tsMs = v.f64[d + 1];
  const price = v.f64[d + 2];
  const size = v.f64[d + 3];
  const tradeId = v.f64[d + 4];
  const side = (v.u8[pos + AT_FLAGS] << 24) >> 24;
  if (!(tsMs > 0 && tsMs < Infinity)) return was('trade', 'tsMs', 'epoch milliseconds', tsMs);
  if (!(price > 0 && price < Infinity)) return was('trade', 'price', 'a positive number', price);
  if (!(size > 0 && size < Infinity)) return was('trade', 'size', 'a positive number', size);
  if (side !== 1 && side !== -1) return was('trade', 'side', '1 or -1', side);
  if (!(tradeId >= 0 && tradeId < EXACT_MAX && Math.floor(tradeId) === tradeId)) {
    return was('trade', 'tradeId', 'an integer id', tradeId);
  }
  const buyer = v.i32[(pos + AT_BUYER) >> 2];
  const seller = v.i32[(pos + AT_SELLER) >> 2];
  const buyerAddress = buyer === -1 ? null : buyer >= 0 ? addresses[buyer] : undefined;
  if (buyerAddress === undefined) {
    return was('trade', 'buyer', 'a defined address index or -1', buyer);
  }
  const sellerAddress = seller === -1 ? null : seller >= 0 ? addresses[seller] : undefined;
  if (sellerAddress === undefined) {
    return was('trade', 'seller', 'a defined address index or -1', seller);
  }
  t.symbol = symbol;
  t.symbolIndex = sym;
  t.tsMs = tsMs;
  t.price = price;
  t.size = size;
  t.side = side;
  t.tradeId = tradeId;
  t.tradeIdText = null;
  t.buyer = buyerAddress;
  t.seller = sellerAddress;
  return null;
}

/** A B record into `b`; null, or the message. */
export function readBookRecord(v: f.RecordViews, pos: number, length: number,
  symbols: readonly (string | undefined)[], b: DecodedBook): string | null {
  const head = AT_LEVELS - LENGTH_BYTES;
  if (length < head) return was('book', 'length', `>= ${head} bytes`, length);
  const sym = v.u16[(pos + AT_SYMBOL) >> 1];
  const symbol = symbols[sym];
  if (symbol === undefined) return was('book', 'symbol', 'a defined symbol index', sym);
  const f64 = v.f64;
  const tsMs = f64[(pos >> 3) + 1];
  if (!(tsMs > 0 && tsMs < Infinity)) return was('book', 'tsMs', 'epoch milliseconds', tsMs);
  const bids = v.u16[(pos + AT_BID_LEVELS) >> 1];
  const asks = v.u16[(pos + AT_ASK_LEVELS) >> 1];
  if (bids > COMPACT_BOOK_LEVELS_MAX || asks > COMPACT_BOOK_LEVELS_MAX) {
    return was('book', 'bidLevels/askLevels', `0..${COMPACT_BOOK_LEVELS_MAX}`, `${bids}/${asks}`);
  }
  const expected = head + 16 * (bids + asks);
  if (length !== expected) return was('book', 'length', `${expected} bytes for its levels`, length);
  // Four columns: bid prices, bid sizes, ask prices, ask sizes.
  let i = (pos + AT_LEVELS) >> 3;
  let bad = copyPositive(f64, i, b.bidPx, bids) | copyPositive(f64, i + bids, b.bidSz, bids);
  i += 2 * bids;
  bad |= copyPositive(f64, i, b.askPx, asks) | copyPositive(f64, i + asks, b.askSz, asks);
  if (bad !== 0) {
    return was('book', 'levels', 'positive numbers', firstBad(f64, (pos + AT_LEVELS) >> 3,
      2 * (bids + asks)));
  }
  b.symbol = symbol;
  b.symbolIndex = sym;
  b.tsMs = tsMs;
  b.bidLevels = bids;
  b.askLevels = asks;
  return null;
}

/** Copies n values from `from[at..]` to `to`; 1 when any is not a positive finite number. */
function copyPositive(from: Float64Array, at: number, to: Float64Array, n: number): number {
  let ok = true;
  for (let k = 0; k < n; k++) {
    const x = from[at + k];
    to[k] = x;
    // A NaN fails the comparisons too.
    ok = ok && x > 0 && x < Infinity;
  }
  return ok ? 0 : 1;
}

function firstBad(f64: Float64Array, at: number, n: number): number {
  for (let k = at; k < at + n; k++) if (!(f64[k] > 0 && f64[k] < Infinity)) return f64[k];
  return NaN;
}

const CTX_FIELDS = ['markPx', 'prevDayPx', 'dayNtlVlm', 'openInterest', 'fundingRate',
  'oraclePx', 'midPx'] as const;

/** A C record: the event, or the message (same checks as the compact C line). */
export function readCtxRecord(v: f.RecordViews, pos: number, length: number,
  symbols: readonly (string | undefined)[]): AssetCtxEvent | string {
  if (length !== CTX_LENGTH) return was('ctx', 'length', `${CTX_LENGTH} bytes`, length);
  const sym = v.u16[(pos + AT_SYMBOL) >> 1];
  const symbol = symbols[sym];
  if (symbol === undefined) return was('ctx', 'symbol', 'a defined symbol index', sym);
  const d = pos >> 3;
  const tsMs = v.f64[d + 1];
  if (!(tsMs > 0 && tsMs < Infinity)) return was('ctx', 'tsMs', 'epoch milliseconds', tsMs);
  const nulls = v.u8[pos + AT_FLAGS];
  const at = d + AT_CTX / 8;
  const f64 = v.f64;
  for (let k = 0; k < CTX_NUMBERS; k++) {
    if ((k === 5 && nulls & NULL_ORACLE) || (k === 6 && nulls & NULL_MID)) continue;
    const x = f64[at + k];
    const ok = k === 0 ? x > 0 && x < Infinity : k <= 3 ? x >= 0 && x < Infinity :
      Number.isFinite(x);
    if (!ok) return was('ctx', CTX_FIELDS[k], ctxExpected(k), x);
  }
  return { type: 'ctx', symbol, tsMs, markPx: f64[at], prevDayPx: f64[at + 1],
    dayNtlVlm: f64[at + 2], openInterest: f64[at + 3], fundingRate: f64[at + 4],
    oraclePx: nulls & NULL_ORACLE ? null : f64[at + 5],
    midPx: nulls & NULL_MID ? null : f64[at + 6] };
}

function ctxExpected(k: number): string {
  return k === 0 ? 'a positive number' : k <= 3 ? 'a number >= 0' : 'a number';
}

/**
 * An S or A record: defines its index in `symbols` or `addresses` (grown on demand up to the
 * format's bounds: a file defines few of the 65,536 address slots); null, or the message.
 */
export function defineRecord(v: f.RecordViews, pos: number, length: number,
  symbols: (string | undefined)[], addresses: (string | undefined)[]): string | null {
  const isSymbol = v.u8[pos + AT_KIND] === KIND_SYMBOL;
  const what = isSymbol ? 'symbol' : 'address';
  const table = isSymbol ? symbols : addresses;
  const capacity = isSymbol ? COMPACT_SYMBOLS_MAX : COMPACT_ADDRESSES_MAX;
  const textAt = AT_TEXT - LENGTH_BYTES;
  if (length <= textAt) return `binary ${what} definition: expected an index and a name`;
  const slot = v.u16[(pos + AT_SYMBOL) >> 1];
  if (slot >= capacity) return was(`${what} definition`, 'index', `0..${capacity - 1}`, slot);
  // Grown one slot at a time: the array keeps fast elements (a write far past its end would not).
  while (table.length <= slot) table.push(undefined);
  table[slot] = textOf(v, pos, length);
  return null;
}

/** The UTF-8 text of an S, A or J record. */
export function textOf(v: f.RecordViews, pos: number, length: number): string {
  return v.u8.toString('utf8', pos + AT_TEXT, pos + LENGTH_BYTES + length);
}
