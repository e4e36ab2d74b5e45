// Decodes replay lines of either format from bytes: canonical JSON lines (what `record` writes)
// and compact lines after a compact header. One decoder per file: it holds the compact tables.
import type { MarketEvent } from '../../../core/messages.js';
import {
  CompactTables, emptyTrade, type DecodedBook, type DecodedTrade, type Wants,
} from './compact-decoder.js';
import { COMPACT_HEADER, COMPACT_HEADER_PREFIX } from './compact-format.js';
import { decodeLine } from './event-codec.js';
import * as jsonBytes from './json-bytes.js';

// Hot imports are bound to module-local names once: shard workers load TypeScript through tsx's
// CommonJS transform, where every use of an imported binding is a getter call (2-3x the cost).
const { peekJson, peeked } = jsonBytes;

export type { DecodedBook, DecodedTrade, Wants } from './compact-decoder.js';

/** decodeFast's answer for a compact trade line: the trade is in `decoder.trade`. */
export const TRADE: unique symbol = Symbol('trade');
/** decodeFast's answer for a compact book line: the book is in `decoder.book`. */
export const BOOK: unique symbol = Symbol('book');
/** A source read its budget of lines without finding a wanted event: try again next turn. */
export const OUT_OF_LINES = 'out-of-lines';

const OPEN_BRACE = 123;
const T = 84;
const B = 66;
const COMMA = 44;
const HASH = 35;

export class ReplayDecoder {
  private tables: CompactTables | null = null;
  /** The trade of the last decodeFast that answered TRADE (overwritten by the next). */
  trade: DecodedTrade = emptyTrade();
  /** The book of the last decodeFast that answered BOOK (set by the compact header). */
  book: DecodedBook | null = null;
  private headerError: string | null = null;
  /** After decode: true when `wants` already accepted the returned event's type and symbol. */
  filtered = false;

  /**
   * The event on `buf[start, end)`; null when the line carries no event for the caller (a
   * header, comment or definition, or a line `wants` rejects by its type and symbol); a string
   * saying what is wrong with a bad line. With `wants` null every event is decoded.
   */
  decode(buf: Buffer, start: number, end: number, wants: Wants | null):
    MarketEvent | string | null {
    this.filtered = false;
    const first = buf[start];
    if (first === OPEN_BRACE) return this.json(buf, start, end, wants);
    if (first === HASH) return this.header(buf.toString('utf8', start, end));
    if (first >= 65 && first <= 90 && end - start > 1 && buf[start + 1] === 44) {
      // Compact T, B and C lines always pass their type and symbol through `wants`.
      this.filtered = wants !== null;
      if (this.tables) return this.tables.decode(buf, start, end, wants);
      return this.headerError ??
        `compact line before a "${COMPACT_HEADER}" header (was ${quoted(buf, start, end)})`;
    }
    return decodeLine(buf.toString('utf8', start, end));
  }

  /** The compact tables once a compact header was read (the fused loop reads with them). */
  get compactTables(): CompactTables | null {
    return this.tables;
  }

  /**
   * decode(), except that compact trade and book lines make no object: they answer TRADE or
   * BOOK and leave the fields in `this.trade` or `this.book`, unfiltered (the caller routes
   * them by their symbol index).
   */
  decodeFast(buf: Buffer, start: number, end: number, wants: Wants | null):
    MarketEvent | string | null | typeof TRADE | typeof BOOK {
    const tables = this.tables;
    if (tables !== null && end - start > 1 && buf[start + 1] === COMMA) {
      const first = buf[start];
      this.filtered = false;
      if (first === T) return tables.decodeTrade(buf, start, end) ?? TRADE;
      if (first === B) return tables.decodeBookFast(buf, start, end) ?? BOOK;
    }
    return this.decode(buf, start, end, wants);
  }

  /**
   * A JSON line: the type and symbol are peeked from the bytes, so an unwanted line costs no
   * string; a wanted one goes through decodeLine (its trade fast path works on the string,
   * whose slices V8 shares rather than copies: faster than byte-by-byte scanning here).
   */
  private json(buf: Buffer, start: number, end: number, wants: Wants | null):
    MarketEvent | string | null {
    if (wants && peekJson(buf, start, end) && !wants(peeked.type, peeked.symbol)) return null;
    return decodeLine(buf.toString('utf8', start, end));
  }

  /** A compact header switches compact lines on; another version is refused; '#' else: comment. */
  private header(line: string): string | null {
    if (!line.startsWith(COMPACT_HEADER_PREFIX)) return null;
    if (line === COMPACT_HEADER) {
      if (!this.tables) {
        this.tables = new CompactTables();
        this.trade = this.tables.trade;
        this.book = this.tables.book;
      }
      this.headerError = null;
      return null;
    }
    this.tables = null;
    this.headerError = `header: expected "${COMPACT_HEADER}" (was ${JSON.stringify(
      line.slice(0, 60))}); compact lines are skipped`;
    return this.headerError;
  }
}

function quoted(buf: Buffer, start: number, end: number): string {
  return JSON.stringify(buf.toString('utf8', start, Math.min(end, start + 40)));
}
