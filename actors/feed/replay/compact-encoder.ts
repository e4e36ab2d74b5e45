// Writes events in the compact replay format: trades and books as short lines, symbols and
// addresses defined on first use. Deterministic: the same events give the same text.
import type { AssetCtxEvent, BookEvent, MarketEvent, TradeEvent } from '../../messages.js';
import { encodeEvent } from './event-codec.js';
import {
  COMPACT_ADDRESSES_MAX, COMPACT_BOOK_LEVELS_MAX, COMPACT_SYMBOLS_MAX, isPlainField,
} from './compact-format.js';

/**
 * Text -> index, bounded. When full, the next new text takes the slot defined longest ago
 * (round robin) and the old text is forgotten: the file redefines the slot, so a reader's
 * table stays as small as the writer's.
 */
class InternTable {
  private readonly index = new Map<string, number>();
  private readonly slots: string[] = [];
  private next = 0;
  constructor(private readonly capacity: number, private readonly tag: string) {
    if (!(Number.isInteger(capacity) && capacity >= 2)) {
      throw new RangeError(`${tag} table capacity must be an integer >= 2 (was ${capacity})`);
    }
  }

  /**
   * The index of `text`, pushing its definition line to `out` when it is new. `keep` is a slot
   * the same line already refers to: it is never the one taken (needs capacity >= 2).
   */
  ref(text: string, out: string[], keep = -1): number {
    const known = this.index.get(text);
    if (known !== undefined) return known;
    if (this.next === keep) this.next = (this.next + 1) % this.capacity;
    const slot = this.next;
    this.next = (this.next + 1) % this.capacity;
    const evicted = this.slots[slot];
    if (evicted !== undefined) this.index.delete(evicted);
    this.slots[slot] = text;
    this.index.set(text, slot);
    out.push(`${this.tag},${slot},${text}`);
    return slot;
  }
}

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

  private trade(e: TradeEvent): string {
    const sym = this.symbols.ref(e.symbol, this.out);
    const buyer = e.buyer === null ? '' : this.addresses.ref(e.buyer, this.out);
    // The seller's definition must not take the slot the buyer's reference points to.
    const seller = e.seller === null ? '' :
      this.addresses.ref(e.seller, this.out, buyer === '' ? -1 : buyer);
    return `T,${sym},${e.tsMs},${e.price},${e.size},${e.side},${e.tradeId},${buyer},${seller}`;
  }

  private book(e: BookEvent): string {
    const sym = this.symbols.ref(e.symbol, this.out);
    const head = `B,${sym},${e.tsMs},${e.bids.length >> 1},${e.asks.length >> 1}`;
    const levels = e.bids.length + e.asks.length;
    return levels === 0 ? head : `${head},${e.bids.concat(e.asks).join(',')}`;
  }

  private ctx(e: AssetCtxEvent): string {
    const sym = this.symbols.ref(e.symbol, this.out);
    return `C,${sym},${e.tsMs},${e.markPx},${e.prevDayPx},${e.dayNtlVlm},${e.openInterest},${
      e.fundingRate},${e.oraclePx ?? ''},${e.midPx ?? ''}`;
  }
}
