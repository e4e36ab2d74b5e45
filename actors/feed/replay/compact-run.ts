// The compact format's fused loop: one pass over the reader's buffered bytes that reads each
// common T, B or A line in place and hands trades and books to the feed, with no per-line span,
// object, or call through the reader, source and decoder layers (those cost about as much as
// decoding a trade). It stops at the first line it does not handle (C lines, JSON lines, any
// other shape, a CRLF line, a line cut at the chunk's end) and leaves it to ReplaySource.next(),
// which reads it whole, decodes it or names what is wrong with it.
import type { ByteLineReader } from './byte-line-reader.js';
import type { CompactTables, DecodedBook, DecodedTrade } from './compact-decoder.js';
import { COMPACT_BOOK_LEVELS_MAX } from './compact-format.js';
import * as fast from './compact-fast.js';

// Hot imports are bound to module-local names once: shard workers load TypeScript through tsx's
// CommonJS transform, where every use of an imported binding is a getter call (2-3x the cost).
const { readBookFast, readTradeFast } = fast;

const COMMA = 44;
const T = 84;
const B = 66;
const A = 65;

/** Where the fused loop hands the trades and books it read (the feed routes them). */
export interface FastLines {
  trade(trade: DecodedTrade): void;
  book(book: DecodedBook): void;
}

/**
 * Reads lines from `r.pos` until one needs the general path, one is stamped after `untilMs`
 * (left unread: the data clock has not reached it), `eventsMax` events were handed or
 * `linesMax` lines read, or the reader was closed meanwhile. Advances the reader past the lines
 * it read; returns the events handed.
 */
export function runCompactLines(r: ByteLineReader, tables: CompactTables, lanes: FastLines,
  untilMs: number, eventsMax: number, linesMax: number): number {
  const buf = r.buf;
  // The sentinel newline at `filled` stops every field; a stop there means a cut line.
  const filled = r.filled;
  const { symbols, addresses, trade, book } = tables;
  let i = r.pos;
  let events = 0;
  let lines = 0;
  while (events < eventsMax && lines < linesMax && !r.closed) {
    const first = buf[i];
    if (buf[i + 1] !== COMMA) break;
    let stop = -1;
    if (first === T) {
      stop = readTradeFast(buf, i, filled, symbols, addresses, trade);
      if (stop < 0 || stop === filled || trade.tsMs > untilMs) break;
      lanes.trade(trade);
      events++;
    } else if (first === B) {
      stop = readBookFast(buf, i, filled, symbols, COMPACT_BOOK_LEVELS_MAX, book);
      if (stop < 0 || stop === filled || book.tsMs > untilMs) break;
      lanes.book(book);
      events++;
    } else if (first === A) {
      stop = tables.defineAddressFast(buf, i, filled);
      if (stop < 0 || stop === filled) break;
    } else {
      break;
    }
    i = stop + 1;
    lines++;
  }
  r.pos = i;
  r.lineNumber += lines;
  return events;
}
