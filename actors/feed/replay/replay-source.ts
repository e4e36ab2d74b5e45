// The wanted events of a text replay file (JSON or compact lines), in order: reads lines as
// bytes, decodes either format, skips what the caller does not want, and reports bad lines.
// Fixes the data clock's origin. (Binary files: binary-source.ts; either: replay-input.ts.)
import type { MarketEvent } from '../../../core/messages.js';
import { ByteLineReader } from './byte-line-reader.js';
import * as run from './compact-run.js';
import {
  BOOK, OUT_OF_LINES, ReplayDecoder, TRADE, type DecodedBook, type DecodedTrade, type Wants,
} from './replay-decoder.js';

export { BOOK, OUT_OF_LINES, TRADE } from './replay-decoder.js';
export type { FastLines } from './compact-run.js';

// Bound once to a module-local name: tsx's CommonJS transform makes each use of an imported
// binding a getter call.
const { runCompactLines } = run;

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
   * filters them), and runFast() applies. chunkBytes: the reader's (tests use small ones).
   */
  constructor(file: string, private readonly wants: Wants,
    private readonly bad: (reason: string) => void, private readonly fastLines = false,
    chunkBytes?: number) {
    this.reader = new ByteLineReader(file, chunkBytes);
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

  /**
   * With fastLines, after the origin is known: common compact T and B lines straight to
   * `lines` through the fused loop (compact-run.ts), until a line needs next(), one is stamped
   * after `untilMs`, `eventsMax` events were handed or the turn's lines are spent. Returns the
   * events handed (0 when the fused loop does not apply: call next()).
   */
  runFast(lines: run.FastLines, untilMs: number, eventsMax: number): number {
    const tables = this.decoder.compactTables;
    if (tables === null || !this.fastLines || Number.isNaN(this.originMs)) return 0;
    const r = this.reader;
    const before = r.lineNumber;
    const events = runCompactLines(r, tables, lines, untilMs, eventsMax, this.linesLeft);
    this.linesLeft -= r.lineNumber - before;
    return events;
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
