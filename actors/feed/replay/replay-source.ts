// The wanted events of a replay file, in order: reads lines as bytes, decodes either format,
// skips what the caller does not want, and reports bad lines. Fixes the data clock's origin.
import type { MarketEvent } from '../../messages.js';
import { ByteLineReader } from './byte-line-reader.js';
import {
  BOOK, ReplayDecoder, TRADE, type DecodedBook, type DecodedTrade, type Wants,
} from './replay-decoder.js';

export { BOOK, TRADE } from './replay-decoder.js';

/** next() read its budget of lines without finding a wanted event: try again next turn. */
export const OUT_OF_LINES = 'out-of-lines';

export class ReplaySource {
  /** Market time of the file's first event (wanted or not): every thread agrees on it. */
  originMs = NaN;
  /** Lines next() may still read; the caller refills it once per event-loop turn. */
  linesLeft = 0;
  private readonly reader: ByteLineReader;
  private readonly decoder = new ReplayDecoder();
  private tooLongReported = 0;

  /**
   * fastLines: compact trade and book lines are not made into objects nor filtered by `wants`:
   * next() answers TRADE or BOOK and the fields are in `trade` or `book` (the caller routes and
   * filters them).
   */
  constructor(file: string, private readonly wants: Wants,
    private readonly bad: (reason: string) => void, private readonly fastLines = false) {
    this.reader = new ByteLineReader(file);
  }

  /** The trade of the last next() that answered TRADE. */
  get trade(): DecodedTrade {
    return this.decoder.trade;
  }

  /** The book of the last next() that answered BOOK. */
  get book(): DecodedBook {
    return this.decoder.book!;
  }

  /** The next wanted event (or TRADE, BOOK), null at the end of the file, or OUT_OF_LINES. */
  next(): MarketEvent | null | typeof OUT_OF_LINES | typeof TRADE | typeof BOOK {
    const r = this.reader;
    for (; this.linesLeft > 0; this.linesLeft--) {
      if (!r.next()) {
        this.reportTooLong();
        return null;
      }
      // Every line may set the origin, wanted or not, so read the first event whole.
      const originSet = !Number.isNaN(this.originMs);
      const event = originSet && this.fastLines
        ? this.decoder.decodeFast(r.buf, r.start, r.end, this.wants)
        : this.decoder.decode(r.buf, r.start, r.end, originSet ? this.wants : null);
      if (r.tooLong !== this.tooLongReported) this.reportTooLong();
      if (event === null) continue;
      if (event === TRADE || event === BOOK) {
        this.linesLeft--;
        return event;
      }
      if (typeof event === 'string') {
        this.bad(event);
        continue;
      }
      if (!originSet) this.originMs = event.tsMs;
      // Compact lines were filtered by the decoder; JSON lines are checked here.
      if (this.decoder.filtered ||
        this.wants(event.type, 'symbol' in event ? event.symbol : null)) {
        this.linesLeft--;
        return event;
      }
    }
    return OUT_OF_LINES;
  }

  close(): void {
    this.reader.close();
  }

  private reportTooLong(): void {
    for (; this.tooLongReported < this.reader.tooLong; this.tooLongReported++) {
      this.bad('line: too long, skipped');
    }
  }
}
