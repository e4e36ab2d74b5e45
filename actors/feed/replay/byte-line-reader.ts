// Reads a file in large chunks and hands out each line as a byte span of one reused buffer: no
// string is made per line, and memory stays bounded however large the recording. The compact
// format's fused loop (compact-run.ts) also reads the buffered bytes directly.
import { closeSync, openSync, readSync } from 'node:fs';

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;

/**
 * After `next()` returns true, the line is `buf[start, end)` without its newline (and without a
 * trailing '\r'). The span is valid until the next call. Empty lines are skipped.
 *
 *   buf: [ consumed lines | line | unread bytes ... | free ]
 *                          ^start ^end  ^pos       ^filled
 *
 * A line longer than `lineBytesMax` is skipped (policy: drop it and count it in `tooLong`), so
 * a corrupt file without newlines cannot grow the buffer without bound.
 *
 * A newline always follows the data (`buf[filled]`, one byte kept spare for it): scanners may
 * read a field's digits without checking the line's end, since no line's bytes run into
 * stale ones.
 */
export class ByteLineReader {
  buf: Buffer;
  start = 0;
  end = 0;
  /** 1-based number of the current line in the file (empty lines counted). */
  lineNumber = 0;
  /** Lines skipped because they exceeded lineBytesMax, and the number of the last one. */
  tooLong = 0;
  tooLongLineNumber = 0;
  /** Start of the unread bytes, and their end (the sentinel newline sits at `filled`). */
  pos = 0;
  filled = 0;
  /** True once close() ran: a caller reading `buf` directly stops too. */
  closed = false;
  private readonly fd: number;
  private eof = false;
  private skipping = false;

  constructor(path: string, chunkBytes = 1 << 20, private readonly lineBytesMax = 64 << 20) {
    if (!(chunkBytes >= 16 && lineBytesMax >= chunkBytes)) {
      throw new RangeError(`chunkBytes was ${chunkBytes}, lineBytesMax was ${lineBytesMax}`);
    }
    this.fd = openSync(path, 'r');
    this.buf = Buffer.allocUnsafe(chunkBytes + 1);
    this.buf[0] = NEWLINE;
  }

  /** Advances to the next non-empty line; false at the end of the file. */
  next(): boolean {
    for (;;) {
      const newline = this.buf.indexOf(NEWLINE, this.pos);
      if (newline >= 0 && newline < this.filled) {
        const lineStart = this.pos;
        this.pos = newline + 1;
        this.lineNumber++;
        if (this.skipping) {
          this.skipping = false;
          continue;
        }
        if (this.span(lineStart, newline)) return true;
        continue;
      }
      if (this.eof) {
        const lineStart = this.pos;
        this.pos = this.filled;
        if (this.skipping || lineStart === this.filled) return false;
        this.lineNumber++;
        return this.span(lineStart, this.filled);
      }
      this.fill();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private span(lineStart: number, lineEnd: number): boolean {
    let end = lineEnd;
    if (end > lineStart && this.buf[end - 1] === CARRIAGE_RETURN) end--;
    this.start = lineStart;
    this.end = end;
    return end > lineStart;
  }

  /** Keeps the unread tail, grows the buffer for a long line (bounded), reads more. */
  private fill(): void {
    const rest = this.filled - this.pos;
    if (this.skipping) {
      this.pos = this.filled = 0;
    } else if (rest >= this.lineBytesMax) {
      this.tooLong++;
      this.tooLongLineNumber = this.lineNumber + 1;
      this.skipping = true;
      this.pos = this.filled = 0;
    } else {
      const capacity = this.buf.length - 1;
      if (rest === capacity) {
        const grown = Buffer.allocUnsafe(Math.min(capacity * 2, this.lineBytesMax) + 1);
        this.buf.copy(grown, 0, this.pos, this.filled);
        this.buf = grown;
      } else if (this.pos > 0) {
        this.buf.copyWithin(0, this.pos, this.filled);
      }
      this.filled = rest;
      this.pos = 0;
    }
    // Bytes past `filled` are stale; next() ignores any newline found there.
    const bytes = this.closed ? 0 :
      readSync(this.fd, this.buf, this.filled, this.buf.length - 1 - this.filled, null);
    this.filled += bytes;
    this.buf[this.filled] = NEWLINE;
    if (bytes === 0) this.eof = true;
  }
}
