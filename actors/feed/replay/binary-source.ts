// The wanted events of a binary replay file (binary-format.ts), in order: the binary twin of
// ReplaySource, with the same answers (events, TRADE/BOOK with the fields in `trade`/`book`,
// OUT_OF_LINES, null at the end) and the same fused loop for runs of trades and books.
import type { MarketEvent } from '../../../core/messages.js';
import { tradeEventOf, bookEventOf } from '../lanes.js';
import * as decoder from './binary-decoder.js';
import * as f from './binary-format.js';
import { ByteRecordReader } from './byte-record-reader.js';
import { emptyBook } from './compact-book-ctx.js';
import { emptyTrade, type DecodedBook, type DecodedTrade, type Wants } from './compact-decoder.js';
import type { FastLines } from './compact-run.js';
import { decodeLine } from './event-codec.js';
import { BOOK, OUT_OF_LINES, TRADE } from './replay-decoder.js';

// Hot imports are bound to module-local names once: shard workers load TypeScript through tsx's
// CommonJS transform, where every use of an imported binding is a getter call (2-3x the cost).
const { readBookRecord, readTradeRecord, defineRecord, readCtxRecord, textOf } = decoder;
const { KIND_ADDRESS, KIND_BOOK, KIND_TRADE, LENGTH_BYTES } = f;
const ALIGN_MASK = -f.ALIGN_BYTES;

export class BinaryReplaySource {
  /** Market time of the file's first event (wanted or not): every thread agrees on it. */
  originMs = NaN;
  /** Records next() and runFast() may still read; the caller refills it once per turn. */
  linesLeft = 0;
  private readonly reader: ByteRecordReader;
  /** The file's symbol and address tables, grown as the file defines slots. */
  private readonly symbols: (string | undefined)[] = [];
  private readonly addresses: (string | undefined)[] = [];
  readonly trade: DecodedTrade = emptyTrade();
  readonly book: DecodedBook = { ...emptyBook(), symbol: '', symbolIndex: 0 };

  /**
   * As ReplaySource. `headerError`: the file's header names another version; next() reports
   * it once and the file ends there.
   */
  constructor(file: string, private readonly wants: Wants,
    private readonly bad: (reason: string) => void, private readonly fastLines = false,
    chunkBytes?: number, private headerError: string | null = null) {
    if (!f.HOST_LITTLE_ENDIAN) {
      throw new Error('the binary replay format needs a little-endian host (x64, arm64)');
    }
    this.reader = new ByteRecordReader(file, f.HEADER_BYTES, chunkBytes);
  }

  /** The 1-based number of the last record read (the header not counted). */
  get recordNumber(): number {
    return this.reader.recordNumber;
  }

  /** The next wanted event (or TRADE, BOOK), null at the end of the file, or OUT_OF_LINES. */
  next(): MarketEvent | null | typeof OUT_OF_LINES | typeof TRADE | typeof BOOK {
    if (this.headerError !== null) {
      this.bad(this.headerError);
      this.headerError = null;
      this.reader.close();
    }
    const r = this.reader;
    for (; this.linesLeft > 0; this.linesLeft--) {
      if (r.closed || !r.next()) {
        if (r.broken !== null) this.bad(r.broken);
        r.broken = null;
        return null;
      }
      const event = this.decode(r.views, r.start, r.length);
      if (event === null) continue;
      if (typeof event === 'string') {
        this.bad(event);
        continue;
      }
      const tsMs = event === TRADE ? this.trade.tsMs : event === BOOK ? this.book.tsMs :
        event.tsMs;
      if (Number.isNaN(this.originMs)) this.originMs = tsMs;
      if (event === TRADE || event === BOOK || this.wanted(event)) {
        this.linesLeft--;
        return event;
      }
    }
    return OUT_OF_LINES;
  }

  /**
   * With fastLines, after the origin is known: trade and book records straight to `lines`,
   * until a record needs next() (another kind, a bad one, one not whole in the buffer), one is
   * stamped after `untilMs`, `eventsMax` events were handed or the turn's records are spent.
   * Returns the events handed.
   */
  runFast(lines: FastLines, untilMs: number, eventsMax: number): number {
    if (!this.fastLines || Number.isNaN(this.originMs)) return 0;
    const r = this.reader;
    const v = r.views;
    const { u8, u32 } = v;
    const filled = r.filled;
    const { symbols, addresses, trade, book } = this;
    let pos = r.pos;
    let events = 0;
    let records = 0;
    while (events < eventsMax && records < this.linesLeft && !r.closed) {
      if (pos + LENGTH_BYTES > filled) break;
      const length = u32[pos >> 2];
      // Not whole in the buffer (or a length no buffer holds): next() reads or reports it.
      if (length > filled - pos) break;
      const next = (pos + LENGTH_BYTES + length + 7) & ALIGN_MASK;
      if (next > filled) break;
      const kind = u8[pos + 4];
      if (kind === KIND_TRADE) {
        if (readTradeRecord(v, pos, length, symbols, addresses, trade) !== null ||
          trade.tsMs > untilMs) break;
        lines.trade(trade);
        events++;
      } else if (kind === KIND_BOOK) {
        if (readBookRecord(v, pos, length, symbols, book) !== null || book.tsMs > untilMs) break;
        lines.book(book);
        events++;
      } else if (kind === KIND_ADDRESS) {
        if (defineRecord(v, pos, length, symbols, addresses) !== null) break;
      } else {
        break;
      }
      pos = next;
      records++;
    }
    r.pos = pos;
    r.recordNumber += records;
    this.linesLeft -= records;
    return events;
  }

  close(): void {
    this.reader.close();
  }

  /** One record: an event, TRADE/BOOK (fastLines), null for a definition, or the message. */
  private decode(v: f.RecordViews, pos: number, length: number):
    MarketEvent | typeof TRADE | typeof BOOK | string | null {
    const { symbols, addresses, trade, book } = this;
    switch (v.u8[pos + f.AT_KIND]) {
      case KIND_TRADE: {
        const why = readTradeRecord(v, pos, length, symbols, addresses, trade);
        return why ?? (this.fastLines ? TRADE : tradeEventOf(trade.symbol, trade));
      }
      case KIND_BOOK: {
        const why = readBookRecord(v, pos, length, symbols, book);
        return why ?? (this.fastLines ? BOOK : bookEventOf(book.symbol, book));
      }
      case f.KIND_CTX: return readCtxRecord(v, pos, length, symbols);
      case f.KIND_SYMBOL:
      case KIND_ADDRESS: return defineRecord(v, pos, length, symbols, addresses);
      case f.KIND_JSON: return decodeLine(textOf(v, pos, length));
      default: return `binary record: unknown kind ${v.u8[pos + f.AT_KIND]}`;
    }
  }

  private wanted(event: MarketEvent): boolean {
    return this.wants(event.type, 'symbol' in event ? event.symbol : null);
  }
}
