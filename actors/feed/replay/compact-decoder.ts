// Reads compact replay lines (T, B, S, A) from bytes against the file's symbol and address
// tables. Returns the event, null for a definition or an unwanted line, or a message that
// names the field, what was expected and what was found.
import type { BookEvent, TradeEvent } from '../../messages.js';
import { COMMA, scan } from './byte-scan.js';
import {
  COMPACT_ADDRESSES_MAX, COMPACT_BOOK_LEVELS_MAX, COMPACT_SYMBOLS_MAX,
} from './compact-format.js';
import { field, fieldWas, indexField, numberField, textField } from './compact-fields.js';

export type Wants = (type: string, symbol: string | null) => boolean;

const T = 84;
const B = 66;
const S = 83;
const A = 65;

export class CompactTables {
  readonly symbols: (string | undefined)[] = new Array(COMPACT_SYMBOLS_MAX);
  readonly addresses: (string | undefined)[] = new Array(COMPACT_ADDRESSES_MAX);

  /** One compact line (its first byte is T, B, S or A and its second a comma). */
  decode(buf: Buffer, start: number, end: number, wants: Wants | null):
    TradeEvent | BookEvent | string | null {
    if (end - start < 2 || buf[start + 1] !== COMMA) return 'compact line: expected "X,..."';
    switch (buf[start]) {
      case T: return this.trade(buf, start + 2, end, wants);
      case B: return this.book(buf, start + 2, end, wants);
      case S: return this.define(buf, start + 2, end, this.symbols, 'symbol');
      case A: return this.define(buf, start + 2, end, this.addresses, 'address');
      default: return 'compact line: expected T, B, S or A first';
    }
  }

  private define(buf: Buffer, at: number, end: number, table: (string | undefined)[],
    what: string): string | null {
    const stop = indexField(buf, at, end, table.length);
    const slot = scan.value;
    if (!(slot >= 0) || buf[stop] !== COMMA) {
      return `${what} definition: index: expected 0..${table.length - 1} (was ${
        fieldWas(buf, at, end)})`;
    }
    if (textField(buf, stop + 1, end) !== end || field.text.length === 0) {
      return `${what} definition: expected a non-empty name without commas`;
    }
    table[slot] = field.text;
    return null;
  }

  /** The symbol at `at` into `symbolSlot`; an error message or null. */
  private symbolAt(buf: Buffer, at: number, end: number): number {
    const stop = indexField(buf, at, end, this.symbols.length);
    symbolSlot = scan.value >= 0 ? this.symbols[scan.value] : undefined;
    return stop;
  }

  private trade(buf: Buffer, at: number, end: number, wants: Wants | null):
    TradeEvent | string | null {
    const symStop = this.symbolAt(buf, at, end);
    const symbol = symbolSlot;
    if (symbol === undefined) return was('trade', 'symbol', 'a defined symbol index', buf, at, end);
    if (wants && !wants('trade', symbol)) return null;
    let i = numberField(buf, symStop + 1, end);
    const tsMs = scan.value;
    if (!(tsMs > 0)) return was('trade', 'tsMs', 'epoch milliseconds', buf, symStop + 1, end);
    const priceAt = i + 1;
    i = numberField(buf, priceAt, end);
    const price = scan.value;
    if (!(price > 0 && price < Infinity)) {
      return was('trade', 'price', 'a positive number', buf, priceAt, end);
    }
    const sizeAt = i + 1;
    i = numberField(buf, sizeAt, end);
    const size = scan.value;
    if (!(size > 0 && size < Infinity)) {
      return was('trade', 'size', 'a positive number', buf, sizeAt, end);
    }
    const sideAt = i + 1;
    i = numberField(buf, sideAt, end);
    const side = scan.value;
    if (side !== 1 && side !== -1) return was('trade', 'side', '1 or -1', buf, sideAt, end);
    const idAt = i + 1;
    i = textField(buf, idAt, end);
    const tradeId = field.text;
    if (tradeId.length === 0 || i === end) {
      return was('trade', 'tradeId', 'a non-empty id', buf, idAt, end);
    }
    const buyerAt = i + 1;
    i = this.addressAt(buf, buyerAt, end);
    const buyer = addressSlot;
    if (buyer === undefined || i === end) {
      return was('trade', 'buyer', 'a defined address index or empty', buf, buyerAt, end);
    }
    const sellerAt = i + 1;
    i = this.addressAt(buf, sellerAt, end);
    if (addressSlot === undefined || i !== end) {
      return was('trade', 'seller', 'a defined address index or empty, last', buf, sellerAt, end);
    }
    return { type: 'trade', symbol, tsMs, price, size, side, tradeId, buyer,
      seller: addressSlot };
  }

  /** An address reference into addressSlot: null when empty, undefined when bad. */
  private addressAt(buf: Buffer, at: number, end: number): number {
    const stop = indexField(buf, at, end, this.addresses.length);
    const v = scan.value;
    addressSlot = v === -1 ? null : v >= 0 ? this.addresses[v] : undefined;
    return stop;
  }

  private book(buf: Buffer, at: number, end: number, wants: Wants | null):
    BookEvent | string | null {
    let i = this.symbolAt(buf, at, end);
    const symbol = symbolSlot;
    if (symbol === undefined) return was('book', 'symbol', 'a defined symbol index', buf, at, end);
    if (wants && !wants('book', symbol)) return null;
    const tsAt = i + 1;
    i = numberField(buf, tsAt, end);
    const tsMs = scan.value;
    if (!(tsMs > 0)) return was('book', 'tsMs', 'epoch milliseconds', buf, tsAt, end);
    const counts = [0, 0];
    for (let k = 0; k < 2; k++) {
      const countAt = i + 1;
      i = indexField(buf, countAt, end, COMPACT_BOOK_LEVELS_MAX + 1);
      if (!(scan.value >= 0)) {
        return was('book', k === 0 ? 'bidLevels' : 'askLevels',
          `0..${COMPACT_BOOK_LEVELS_MAX}`, buf, countAt, end);
      }
      counts[k] = scan.value;
    }
    const bids = readLevels(buf, i, end, counts[0]);
    if (typeof bids === 'string') return bids;
    const asks = readLevels(buf, levelsStop, end, counts[1]);
    if (typeof asks === 'string') return asks;
    if (levelsStop !== end) return was('book', 'levels', 'no more fields', buf, levelsStop, end);
    return { type: 'book', symbol, tsMs, bids, asks };
  }
}

let symbolSlot: string | undefined;
let addressSlot: string | null | undefined;
let levelsStop = 0;

/** `levels` [px, sz] pairs after the comma at `i`, positive numbers; end index in levelsStop. */
function readLevels(buf: Buffer, i: number, end: number, levels: number): number[] | string {
  const out = new Array<number>(2 * levels);
  for (let k = 0; k < 2 * levels; k++) {
    if (i === end) return was('book', 'levels', `${levels} levels`, buf, i, end);
    const at = i + 1;
    i = numberField(buf, at, end);
    const v = scan.value;
    if (!(v > 0 && v < Infinity)) return was('book', 'levels', 'positive numbers', buf, at, end);
    out[k] = v;
  }
  levelsStop = i;
  return out;
}

function was(kind: string, name: string, expected: string, buf: Buffer, at: number,
  end: number): string {
  return `compact ${kind}: ${name}: expected ${expected} (was ${fieldWas(buf, at, end)})`;
}
