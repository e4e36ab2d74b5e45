// Writes events in the binary replay format (binary-format.ts) into a growing byte buffer that
// the writer flushes: trades, books and ctx as fixed-layout records, symbols and addresses
// defined on first use, any other event as its canonical JSON. Deterministic: the same events
// give the same bytes. Writing is not on a hot path: a DataView keeps it endian-explicit.
import type { AssetCtxEvent, BookEvent, MarketEvent, TradeEvent } from '../../../core/messages.js';
import { numericTradeId } from '../recent-trade-ids.js';
import * as f from './binary-format.js';
import {
  COMPACT_ADDRESSES_MAX, COMPACT_BOOK_LEVELS_MAX, COMPACT_SYMBOLS_MAX,
} from './compact-format.js';
import { encodeEvent } from './event-codec.js';
import { InternTable } from './intern-table.js';

export class BinaryEncoder {
  private readonly symbols: InternTable;
  private readonly addresses: InternTable;
  /** The encoded bytes are `bytes[0, length)`; the writer empties them with clear(). */
  bytes = Buffer.allocUnsafe(1 << 16);
  length = 0;
  private view = dataViewOf(this.bytes);

  constructor(symbolsMax = COMPACT_SYMBOLS_MAX, addressesMax = COMPACT_ADDRESSES_MAX) {
    this.symbols = new InternTable(symbolsMax, 'S');
    this.addresses = new InternTable(addressesMax, 'A');
  }

  /** Appends the record(s) of one event: definitions first, then the event. */
  encode(e: MarketEvent): void {
    if (e.type === 'trade' && tradeFits(e)) this.trade(e);
    else if (e.type === 'book' && bookFits(e)) this.book(e);
    else if (e.type === 'ctx') this.ctx(e);
    else this.text(f.KIND_JSON, 0, encodeEvent(e));
  }

  clear(): void {
    this.length = 0;
  }

  private trade(e: TradeEvent): void {
    const sym = this.ref(this.symbols, f.KIND_SYMBOL, e.symbol);
    const buyer = e.buyer === null ? -1 : this.ref(this.addresses, f.KIND_ADDRESS, e.buyer);
    // The seller's definition must not take the slot the buyer's reference points to.
    const seller = e.seller === null ? -1 :
      this.ref(this.addresses, f.KIND_ADDRESS, e.seller, buyer);
    const at = this.record(f.KIND_TRADE, sym, f.TRADE_BYTES);
    const v = this.view;
    v.setInt8(at + f.AT_FLAGS, e.side);
    v.setFloat64(at + f.AT_TS, e.tsMs, true);
    v.setFloat64(at + f.AT_PRICE, e.price, true);
    v.setFloat64(at + f.AT_SIZE, e.size, true);
    v.setFloat64(at + f.AT_TRADE_ID, numericTradeId(e.tradeId), true);
    v.setInt32(at + f.AT_BUYER, buyer, true);
    v.setInt32(at + f.AT_SELLER, seller, true);
  }

  private book(e: BookEvent): void {
    const sym = this.ref(this.symbols, f.KIND_SYMBOL, e.symbol);
    const bids = e.bids.length >> 1;
    const asks = e.asks.length >> 1;
    const at = this.record(f.KIND_BOOK, sym, f.AT_LEVELS + 16 * (bids + asks));
    const v = this.view;
    v.setFloat64(at + f.AT_TS, e.tsMs, true);
    v.setUint16(at + f.AT_BID_LEVELS, bids, true);
    v.setUint16(at + f.AT_ASK_LEVELS, asks, true);
    // Columns: bid prices, bid sizes, ask prices, ask sizes (the events' levels are pairs).
    let i = at + f.AT_LEVELS;
    for (const [levels, n] of [[e.bids, bids], [e.asks, asks]] as const) {
      for (let column = 0; column < 2; column++) {
        for (let k = 0; k < n; k++, i += 8) v.setFloat64(i, levels[2 * k + column], true);
      }
    }
  }

  private ctx(e: AssetCtxEvent): void {
    const sym = this.ref(this.symbols, f.KIND_SYMBOL, e.symbol);
    const at = this.record(f.KIND_CTX, sym, f.CTX_BYTES);
    const v = this.view;
    v.setUint8(at + f.AT_FLAGS,
      (e.oraclePx === null ? f.NULL_ORACLE : 0) | (e.midPx === null ? f.NULL_MID : 0));
    v.setFloat64(at + f.AT_TS, e.tsMs, true);
    const numbers = [e.markPx, e.prevDayPx, e.dayNtlVlm, e.openInterest, e.fundingRate,
      e.oraclePx ?? 0, e.midPx ?? 0];
    for (let k = 0; k < f.CTX_NUMBERS; k++) v.setFloat64(at + f.AT_CTX + 8 * k, numbers[k], true);
  }

  /** The index of `text` in `table`, its definition record written first when it is new. */
  private ref(table: InternTable, kind: number, text: string, keep = -1): number {
    const slot = table.ref(text, keep);
    if (table.defined) this.text(kind, slot, text);
    return slot;
  }

  /** A record of `kind` holding UTF-8 text after `index` (0 for a JSON record). */
  private text(kind: number, index: number, text: string): void {
    const at = this.record(kind, index, f.AT_TEXT + Buffer.byteLength(text));
    this.bytes.write(text, at + f.AT_TEXT, 'utf8');
  }

  /**
   * Room for a record of `bytes` (from its length field), zeroed up to the next multiple of 8:
   * writes the length, the kind and the u16 at AT_SYMBOL; returns the record's offset.
   */
  private record(kind: number, symbol: number, bytes: number): number {
    const at = this.length;
    const next = f.nextRecordAt(at, bytes - f.LENGTH_BYTES);
    if (next > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(next, this.bytes.length * 2));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
      this.view = dataViewOf(grown);
    }
    this.bytes.fill(0, at, next);
    this.view.setUint32(at, bytes - f.LENGTH_BYTES, true);
    this.bytes[at + f.AT_KIND] = kind;
    this.view.setUint16(at + f.AT_SYMBOL, symbol, true);
    this.length = next;
    return at;
  }
}

/** A trade the T record carries exactly: an integer trade id (the venue's `tid`). */
function tradeFits(e: TradeEvent): boolean {
  return Number.isFinite(numericTradeId(e.tradeId)) && (e.side === 1 || e.side === -1);
}

function bookFits(e: BookEvent): boolean {
  return e.bids.length % 2 === 0 && e.asks.length % 2 === 0 &&
    e.bids.length <= 2 * COMPACT_BOOK_LEVELS_MAX && e.asks.length <= 2 * COMPACT_BOOK_LEVELS_MAX;
}

function dataViewOf(buf: Buffer): DataView {
  return new DataView(buf.buffer, buf.byteOffset, buf.length);
}
