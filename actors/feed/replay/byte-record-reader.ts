// Reads the records of a binary replay file (binary-format.ts) in large chunks and hands out
// each one as an offset into one reused buffer, read through typed views. Memory stays bounded
// however large the file. The binary source's fused loop (binary-source.ts) also reads the
// buffered records directly.
import { closeSync, openSync, readSync } from 'node:fs';
import * as f from './binary-format.js';

/**
 *   buffer: [ consumed records | record | unread records ... | free ]
 *                               ^start   ^pos                ^filled
 *
 * After next() returns true the record is at `start` (its length field) with `length` bytes
 * after that field. Records start at multiples of 8 in the file and the buffer only ever moves
 * by whole records, so they start at multiples of 8 in the buffer too: the views' f64 index
 * of a record's first double is start / 8 + 1. A record longer than `recordBytesMax`, or one
 * cut short by the end of the file, ends the reading (a length-prefixed file cannot be
 * resynchronized after a bad length): next() returns false and `broken` says why.
 */
export class ByteRecordReader {
  views: f.RecordViews;
  start = 0;
  length = 0;
  /** 1-based number of the current record (the header not counted). */
  recordNumber = 0;
  pos = 0;
  filled = 0;
  /** True once close() ran: a caller reading the buffer directly stops too. */
  closed = false;
  /** Why the reading ended early (the caller reports it and clears it). */
  broken: string | null = null;
  private readonly fd: number;
  private eof = false;

  /** `skipBytes`: the file's header (a multiple of 8), not part of any record. */
  constructor(path: string, skipBytes: number, chunkBytes = 1 << 20,
    private readonly recordBytesMax = f.RECORD_BYTES_MAX) {
    if (!(chunkBytes >= 64 && recordBytesMax >= 1 && skipBytes % f.ALIGN_BYTES === 0)) {
      throw new RangeError(`chunkBytes was ${chunkBytes}, recordBytesMax was ${recordBytesMax
        }, skipBytes was ${skipBytes}`);
    }
    this.fd = openSync(path, 'r');
    this.views = f.viewsOf(unzeroed(chunkBytes));
    this.fill(skipBytes);
    this.pos = Math.min(skipBytes, this.filled);
  }

  /** Advances to the next record; false at the end of the file (see `broken`). */
  next(): boolean {
    for (;;) {
      const unread = this.filled - this.pos;
      if (unread >= f.LENGTH_BYTES) {
        const length = this.views.u32[this.pos >> 2];
        if (length < 1 || length > this.recordBytesMax) {
          return this.end(`binary record ${this.recordNumber + 1}: length ${length} is out of ` +
            `range (1..${this.recordBytesMax}); the rest of the file is skipped`);
        }
        const padded = f.nextRecordAt(0, length);
        // Whole with its padding (the next record stays aligned), or the file's last one.
        if (unread >= padded || (this.eof && unread >= f.LENGTH_BYTES + length)) {
          this.start = this.pos;
          this.length = length;
          this.pos = Math.min(this.pos + padded, this.filled);
          this.recordNumber++;
          return true;
        }
        if (this.eof) {
          return this.end(`binary record ${this.recordNumber + 1}: cut short by the end of ` +
            `the file (${unread - f.LENGTH_BYTES} of ${length} bytes)`);
        }
        this.fill(padded);
      } else if (this.eof) {
        return this.end(unread === 0 ? null : `binary record ${this.recordNumber + 1}: cut ` +
          `short by the end of the file (${unread} bytes of its length)`);
      } else {
        this.fill(f.LENGTH_BYTES);
      }
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /** Ends the reading; a broken record counts as read (its number is the one reported). */
  private end(broken: string | null): false {
    if (broken !== null) this.recordNumber++;
    this.broken = broken;
    this.pos = this.filled;
    this.eof = true;
    return false;
  }

  /** Keeps the unread bytes, grows the buffer to hold `need` of them, reads more. */
  private fill(need: number): void {
    const rest = this.filled - this.pos;
    const u8 = this.views.u8;
    if (need > u8.length) {
      const grown = f.viewsOf(unzeroed(need));
      u8.copy(grown.u8, 0, this.pos, this.filled);
      this.views = grown;
    } else if (this.pos > 0) {
      u8.copyWithin(0, this.pos, this.filled);
    }
    this.filled = rest;
    this.pos = 0;
    const buf = this.views.u8;
    const bytes = this.closed ? 0 :
      readSync(this.fd, buf, this.filled, buf.length - this.filled, null);
    this.filled += bytes;
    if (bytes === 0) this.eof = true;
  }
}

/**
 * A whole ArrayBuffer of at least `bytes` (a multiple of 8), not zeroed: every byte is read
 * from the file before use, so zeroing it first would be work for nothing.
 */
function unzeroed(bytes: number): ArrayBuffer {
  const buf = Buffer.allocUnsafeSlow(Math.ceil(bytes / f.ALIGN_BYTES) * f.ALIGN_BYTES);
  return buf.buffer as ArrayBuffer;
}
