// Writes events in the compact replay format: trades and books as short lines, symbols and
// addresses defined on first use. Deterministic: the same events give the same text.
import type { AssetCtxEvent, BookEvent, MarketEvent, TradeEvent } from '../../../core/messages.js';
import { encodeEvent } from './event-codec.js';
import {
  COMPACT_ADDRESSES_MAX, COMPACT_BOOK_LEVELS_MAX, COMPACT_SYMBOLS_MAX, isPlainField,
} from './compact-format.js';
import { InternTable } from './intern-table.js';

export class CompactEncoder {
  private readonly symbols: InternTable;
  private readonly addresses: InternTable;
  private readonly out: string[] = [];

  constructor(symbolsMax = COMPACT_SYMBOLS_MAX, addressesMax = COMPACT_ADDRESSES_MAX) {
    this.symbols = new InternTable(symbolsMax, 'S');
    this.addresses = new InternTable(addressesMax, 'A');
  }

  /**
   * The line(s) for one event, joined by '\n' without a trailing newline: definitions first,
   * then the event. An event the compact lines cannot carry exactly (a comma in a field, a
   * deep book) is written as its canonical JSON line.
   */
  encode(e: MarketEvent): string {
    this.out.length = 0;
    if (e.type === 'trade' && this.tradeFits(e)) this.out.push(this.trade(e));
    else if (e.type === 'book' && this.bookFits(e)) this.out.push(this.book(e));
    else if (e.type === 'ctx' && isPlainField(e.symbol)) this.out.push(this.ctx(e));
    else this.out.push(encodeEvent(e));
    return this.out.length === 1 ? this.out[0] : this.out.join('\n');
  }

  private tradeFits(e: TradeEvent): boolean {
    return isPlainField(e.symbol) && isPlainField(e.tradeId) &&
      (e.buyer === null || isPlainField(e.buyer)) && (e.seller === null || isPlainField(e.seller));
  }

  private bookFits(e: BookEvent): boolean {
    return isPlainField(e.symbol) && e.bids.length % 2 === 0 && e.asks.length % 2 === 0 &&
      e.bids.length <= 2 * COMPACT_BOOK_LEVELS_MAX && e.asks.length <= 2 * COMPACT_BOOK_LEVELS_MAX;
  }

  /** The index of `text` in `table`, its definition line pushed first when it is new. */
  private ref(table: InternTable, text: string, keep = -1): number {
    const slot = table.ref(text, keep);
    if (table.defined) this.out.push(`${table === this.symbols ? 'S' : 'A'},${slot},${text}`);
    return slot;
  }

  private trade(e: TradeEvent): string {
    const sym = this.ref(this.symbols, e.symbol);
    const buyer = e.buyer === null ? '' : this.ref(this.addresses, e.buyer);
    // The seller's definition must not take the slot the buyer's reference points to.
    const seller = e.seller === null ? '' :
      this.ref(this.addresses, e.seller, buyer === '' ? -1 : buyer);
    return `T,${sym},${e.tsMs},${e.price},${e.size},${e.side},${e.tradeId},${buyer},${seller}`;
  }

  private book(e: BookEvent): string {
    const sym = this.ref(this.symbols, e.symbol);
    const head = `B,${sym},${e.tsMs},${e.bids.length >> 1},${e.asks.length >> 1}`;
    const levels = e.bids.length + e.asks.length;
    return levels === 0 ? head : `${head},${e.bids.concat(e.asks).join(',')}`;
  }

  private ctx(e: AssetCtxEvent): string {
    const sym = this.ref(this.symbols, e.symbol);
    return `C,${sym},${e.tsMs},${e.markPx},${e.prevDayPx},${e.dayNtlVlm},${e.openInterest},${
      e.fundingRate},${e.oraclePx ?? ''},${e.midPx ?? ''}`;
  }
}
