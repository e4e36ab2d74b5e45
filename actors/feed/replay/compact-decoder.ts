// Reads compact replay lines (T, B, C, S, A) from bytes against the file's symbol and address
// tables. Returns the event, null for a definition or an unwanted line, or a message that
// names the field, what was expected and what was found.
import type { AssetCtxEvent, BookEvent, TradeEvent } from '../../../core/messages.js';
import { tradeEventOf } from '../lanes.js';
import * as bytes from './byte-scan.js';
import { decodeBook, decodeBookFields, decodeCtx, emptyBook } from './compact-book-ctx.js';
import {
  COMPACT_ADDRESSES_MAX, COMPACT_BOOK_LEVELS_MAX, COMPACT_SYMBOLS_MAX,
} from './compact-format.js';
import * as fast from './compact-fast.js';
import * as fields from './compact-fields.js';
import type { DecodedBook, DecodedTrade } from './decoded-lines.js';

export type { DecodedBook, DecodedTrade } from './decoded-lines.js';

// Hot imports are bound to module-local names once: shard workers load TypeScript through tsx's
// CommonJS transform, where every use of an imported binding is a getter call (2-3x the cost).
const { latin1Text, scan } = bytes;
const { field, fieldWas, indexField, numberField, textField, tradeIdField } = fields;
const was = fields.fieldError;
const { readBookFast, readTradeFast } = fast;
const COMMA = 44;
const NEWLINE = 10;

export type Wants = (type: string, symbol: string | null) => boolean;

const T = 84;
const B = 66;
const C = 67;
const S = 83;
const A = 65;

export function emptyTrade(): DecodedTrade {
  return { symbol: '', symbolIndex: 0, tsMs: 0, price: 0, size: 0, side: 1, tradeId: 0,
    tradeIdText: null, buyer: null, seller: null };
}

export class CompactTables {
  readonly trade = emptyTrade();
  readonly book: DecodedBook = { ...emptyBook(), symbol: '', symbolIndex: 0 };
  readonly symbols: (string | undefined)[] = new Array(COMPACT_SYMBOLS_MAX);
  readonly addresses: (string | undefined)[] = new Array(COMPACT_ADDRESSES_MAX);

  /** One compact line (its first byte is T, B, C, S or A and its second a comma). */
  decode(buf: Buffer, start: number, end: number, wants: Wants | null):
    TradeEvent | BookEvent | AssetCtxEvent | string | null {
    if (end - start < 2 || buf[start + 1] !== COMMA) return 'compact line: expected "X,..."';
    switch (buf[start]) {
      case T: return this.tradeEvent(buf, start + 2, end, wants);
      case B: return this.withSymbol(buf, start + 2, end, wants, 'book', decodeBook);
      case C: return this.withSymbol(buf, start + 2, end, wants, 'ctx', decodeCtx);
      case S: return this.define(buf, start + 2, end, this.symbols, 'symbol');
      case A: return this.define(buf, start + 2, end, this.addresses, 'address');
      default: return 'compact line: expected T, B, C, S or A first';
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

  /**
   * For the fused loop: an A line (`start` at its 'A') ended by a newline before `end`, with a
   * canonical index and a printable ASCII name, is defined as define() would. Returns the
   * newline's index, or -1 (nothing defined) for any other line.
   */
  defineAddressFast(buf: Buffer, start: number, end: number): number {
    const at = start + 2;
    let i = at;
    let c = buf[i];
    let slot = 0;
    while (c >= 48 && c <= 57) {
      slot = slot * 10 + (c - 48);
      c = buf[++i];
    }
    if (i === at || c !== COMMA || (buf[at] === 48 && i > at + 1) ||
      slot >= this.addresses.length) return -1;
    const nameAt = ++i;
    c = buf[i];
    while (c >= 32 && c < 127 && c !== COMMA) c = buf[++i];
    if (i === nameAt || i >= end || c !== NEWLINE) return -1;
    this.addresses[slot] = latin1Text(buf, nameAt, i);
    return i;
  }

  /** The symbol index at `at`, resolved into `symbolSlot` (undefined when bad); the stop. */
  private symbolAt(buf: Buffer, at: number, end: number): number {
    const stop = indexField(buf, at, end, this.symbols.length);
    symbolSlot = scan.value >= 0 ? this.symbols[scan.value] : undefined;
    return stop;
  }

  /**
   * The fast path for a T line (`start` at its 'T'): the trade goes into `this.trade`, whatever
   * its symbol (the caller routes by `trade.symbolIndex`). null when done, else the message.
   */
  decodeTrade(buf: Buffer, start: number, end: number): string | null {
    if (readTradeFast(buf, start, end, this.symbols, this.addresses, this.trade) === end) {
      return null;
    }
    const stop = this.symbolInto(this.trade, 'trade', buf, start + 2, end);
    return typeof stop === 'string' ? stop : this.tradeFields(buf, stop, end);
  }

  /** decodeTrade for a B line: the book goes into `this.book`, whatever its symbol. */
  decodeBookFast(buf: Buffer, start: number, end: number): string | null {
    const book = this.book;
    if (readBookFast(buf, start, end, this.symbols, COMPACT_BOOK_LEVELS_MAX, book) === end) {
      return null;
    }
    const stop = this.symbolInto(book, 'book', buf, start + 2, end);
    return typeof stop === 'string' ? stop : decodeBookFields(buf, stop, end, book);
  }

  /**
   * Where the fast readers refused a line, the general reader starts: the symbol index at `at`
   * into `into`; the stop after it, or the message for an undefined one.
   */
  private symbolInto(into: { symbol: string; symbolIndex: number }, kind: 'trade' | 'book',
    buf: Buffer, at: number, end: number): number | string {
    const stop = this.symbolAt(buf, at, end);
    if (symbolSlot === undefined) {
      return was(kind, 'symbol', 'a defined symbol index', buf, at, end);
    }
    into.symbol = symbolSlot;
    into.symbolIndex = scan.value;
    return stop;
  }

  private tradeEvent(buf: Buffer, at: number, end: number, wants: Wants | null):
    TradeEvent | string | null {
    const symStop = this.symbolAt(buf, at, end);
    const symbol = symbolSlot;
    if (symbol === undefined) return was('trade', 'symbol', 'a defined symbol index', buf, at, end);
    if (wants && !wants('trade', symbol)) return null;
    const why = this.tradeFields(buf, symStop, end);
    return why ?? tradeEventOf(symbol, this.trade);
  }

  /** The fields after the symbol (`symStop` is the comma before tsMs) into `this.trade`. */
  private tradeFields(buf: Buffer, symStop: number, end: number): string | null {
    const t = this.trade;
    let i = numberField(buf, symStop + 1, end);
    t.tsMs = scan.value;
    if (!(t.tsMs > 0)) return was('trade', 'tsMs', 'epoch milliseconds', buf, symStop + 1, end);
    const priceAt = i + 1;
    i = numberField(buf, priceAt, end);
    t.price = scan.value;
    if (!(t.price > 0 && t.price < Infinity)) {
      return was('trade', 'price', 'a positive number', buf, priceAt, end);
    }
    const sizeAt = i + 1;
    i = numberField(buf, sizeAt, end);
    t.size = scan.value;
    if (!(t.size > 0 && t.size < Infinity)) {
      return was('trade', 'size', 'a positive number', buf, sizeAt, end);
    }
    const sideAt = i + 1;
    i = numberField(buf, sideAt, end);
    const side = scan.value;
    if (side !== 1 && side !== -1) return was('trade', 'side', '1 or -1', buf, sideAt, end);
    t.side = side;
    const idAt = i + 1;
    i = tradeIdField(buf, idAt, end);
    t.tradeId = scan.value;
    t.tradeIdText = t.tradeId === t.tradeId ? null : field.text;
    if (t.tradeIdText === '' || i === end) {
      return was('trade', 'tradeId', 'a non-empty id', buf, idAt, end);
    }
    const buyerAt = i + 1;
    i = this.addressAt(buf, buyerAt, end);
    t.buyer = addressSlot!;
    if (addressSlot === undefined || i === end) {
      return was('trade', 'buyer', 'a defined address index or empty', buf, buyerAt, end);
    }
    const sellerAt = i + 1;
    i = this.addressAt(buf, sellerAt, end);
    t.seller = addressSlot!;
    if (addressSlot === undefined || i !== end) {
      return was('trade', 'seller', 'a defined address index or empty, last', buf, sellerAt, end);
    }
    return null;
  }

  /** An address reference into addressSlot: null when empty, undefined when bad. */
  private addressAt(buf: Buffer, at: number, end: number): number {
    const stop = indexField(buf, at, end, this.addresses.length);
    const v = scan.value;
    addressSlot = v === -1 ? null : v >= 0 ? this.addresses[v] : undefined;
    return stop;
  }

  /** A B or C line: the symbol, the caller's filter, then the line's own reader. */
  private withSymbol(buf: Buffer, at: number, end: number, wants: Wants | null, type: string,
    read: typeof decodeBook | typeof decodeCtx): BookEvent | AssetCtxEvent | string | null {
    const stop = this.symbolAt(buf, at, end);
    const symbol = symbolSlot;
    if (symbol === undefined) return was(type, 'symbol', 'a defined symbol index', buf, at, end);
    if (wants && !wants(type, symbol)) return null;
    return read(buf, stop, end, symbol);
  }
}

let symbolSlot: string | undefined;
let addressSlot: string | null | undefined;
