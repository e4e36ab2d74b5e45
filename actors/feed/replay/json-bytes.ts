// Canonical JSON replay lines read from bytes: the type and symbol without parsing, and trade
// lines decoded by index arithmetic. Anything unexpected returns null: the caller then takes
// the full JSON.parse path, which gives the precise error message.
import type { TradeEvent } from '../../messages.js';
import * as bytes from './byte-scan.js';

// Hot imports are bound to module-local names once: shard workers load TypeScript through tsx's
// CommonJS transform, where every use of an imported binding is a getter call (2-3x the cost).
const { asciiBytes, bytesAt, scan, scanDecimal, scanJsonString, textOf } = bytes;
const QUOTE = 34;

const TYPE_PREFIX = asciiBytes('{"type":"');
const SYMBOL_KEY = asciiBytes(',"symbol":"');
const TRADE_PREFIX = asciiBytes('{"type":"trade","symbol":"');
const NUMBER_KEYS = ['","tsMs":', ',"price":', ',"size":', ',"side":'].map(asciiBytes);
const TRADE_ID_KEY = asciiBytes(',"tradeId":"');
const BUYER_KEY = asciiBytes(',"buyer":');
const SELLER_KEY = asciiBytes(',"seller":');
const NULL = asciiBytes('null');
const EVENT_TYPES = ['trade', 'book', 'ctx', 'gap', 'funding', 'universe', 'wallet'];
const TYPE_BYTES = EVENT_TYPES.map(asciiBytes);

/** What peekJson found: the event type (a shared constant string) and the symbol or null. */
export const peeked = { type: '', symbol: null as string | null };

/**
 * The type and symbol of a canonical JSON line into `peeked`; false when the line is not
 * canonical (another key order, an unknown type, an escaped symbol).
 */
export function peekJson(buf: Buffer, start: number, end: number): boolean {
  if (!bytesAt(buf, start, end, TYPE_PREFIX)) return false;
  const typeStart = start + TYPE_PREFIX.length;
  let kind = -1;
  for (let k = 0; k < TYPE_BYTES.length && kind < 0; k++) {
    const t = TYPE_BYTES[k];
    if (bytesAt(buf, typeStart, end, t) && buf[typeStart + t.length] === QUOTE) kind = k;
  }
  if (kind < 0) return false;
  peeked.type = EVENT_TYPES[kind];
  const after = typeStart + TYPE_BYTES[kind].length + 1;
  if (!bytesAt(buf, after, end, SYMBOL_KEY)) {
    peeked.symbol = null;
    return true;
  }
  const symbolStart = after + SYMBOL_KEY.length;
  const symbolEnd = scanJsonString(buf, symbolStart, end);
  if (symbolEnd < 0) return false;
  peeked.symbol = textOf(buf, symbolStart, symbolEnd, scan.ascii);
  return true;
}

const numbers = new Float64Array(4);

/** A canonical trade line, or null (use the slow path). `symbol` from peekJson if known. */
export function decodeJsonTrade(buf: Buffer, start: number, end: number,
  symbol: string | null): TradeEvent | null {
  if (!bytesAt(buf, start, end, TRADE_PREFIX)) return null;
  const symbolStart = start + TRADE_PREFIX.length;
  let at = scanJsonString(buf, symbolStart, end);
  if (at < 0) return null;
  const sym = symbol ?? textOf(buf, symbolStart, at, scan.ascii);
  for (let k = 0; k < 4; k++) {
    const key = NUMBER_KEYS[k];
    if (!bytesAt(buf, at, end, key)) return null;
    at = scanDecimal(buf, at + key.length, end);
    if (at < 0) return null;
    numbers[k] = scan.value;
  }
  if (!bytesAt(buf, at, end, TRADE_ID_KEY)) return null;
  const idStart = at + TRADE_ID_KEY.length;
  const idEnd = scanJsonString(buf, idStart, end);
  if (idEnd <= idStart) return null;
  const tradeId = textOf(buf, idStart, idEnd, scan.ascii);
  at = nullableString(buf, idEnd + 1, end, BUYER_KEY);
  if (at < 0) return null;
  const buyer = stringSlot;
  at = nullableString(buf, at, end, SELLER_KEY);
  if (at < 0 || at !== end - 1 || buf[at] !== 125) return null;
  const tsMs = numbers[0];
  const price = numbers[1];
  const size = numbers[2];
  const side = numbers[3];
  // The same checks as the slow path; anything odd falls back to it for the precise message.
  if (!(tsMs > 0 && price > 0 && size > 0 && price < Infinity && size < Infinity)) return null;
  if (side !== 1 && side !== -1) return null;
  return { type: 'trade', symbol: sym, tsMs, price, size, side, tradeId, buyer,
    seller: stringSlot };
}

let stringSlot: string | null = null;

/** `key` then null or a non-empty plain string into `stringSlot`; the index past it or -1. */
function nullableString(buf: Buffer, at: number, end: number, key: Uint8Array): number {
  if (!bytesAt(buf, at, end, key)) return -1;
  const valueStart = at + key.length;
  if (bytesAt(buf, valueStart, end, NULL)) {
    stringSlot = null;
    return valueStart + NULL.length;
  }
  if (buf[valueStart] !== QUOTE) return -1;
  const close = scanJsonString(buf, valueStart + 1, end);
  if (close <= valueStart + 1) return -1;
  stringSlot = textOf(buf, valueStart + 1, close, scan.ascii);
  return close + 1;
}
