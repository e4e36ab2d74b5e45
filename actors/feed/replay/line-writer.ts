// Writes replay files through a bounded buffer flushed synchronously: memory stays flat even
// when a simulator at full speed produces millions of events. JSON lines by default; the
// compact format (compact-format.ts) or the binary one (binary-format.ts) on request.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { MarketEvent } from '../../../core/messages.js';
import { BinaryEncoder } from './binary-encoder.js';
import { binaryHeaderBytes } from './binary-format.js';
import { CompactEncoder } from './compact-encoder.js';
import { COMPACT_HEADER, REPLAY_FORMATS, type ReplayFormat } from './compact-format.js';
import { encodeEvent } from './event-codec.js';

export interface LineWriterOptions {
  /** 'json' (default): one canonical JSON event per line; 'compact' or 'binary': see above. */
  readonly format?: ReplayFormat;
  /** Buffered bytes that trigger a write (default 1 MiB). */
  readonly flushBytes?: number;
}

export class LineWriter {
  private readonly fd: number;
  private readonly flushBytes: number;
  private readonly compact: CompactEncoder | null;
  private readonly binary: BinaryEncoder | null;
  private chunks: string[] = [];
  private bytes = 0;
  /** Events written (a compact or binary file also holds its header and definitions). */
  lines = 0;

  /** `options` may be a number: the flush threshold, as before formats existed. */
  constructor(path: string, options: number | LineWriterOptions = {}) {
    const o = typeof options === 'number' ? { flushBytes: options } : options;
    const format = o.format ?? 'json';
    if (!REPLAY_FORMATS.includes(format)) {
      throw new TypeError(`format must be one of ${REPLAY_FORMATS.join(', ')} (was ${
        JSON.stringify(format)})`);
    }
    this.flushBytes = o.flushBytes ?? 1 << 20;
    this.fd = openSync(path, 'w');
    this.compact = format === 'compact' ? new CompactEncoder() : null;
    this.binary = format === 'binary' ? new BinaryEncoder() : null;
    if (this.compact) this.push(COMPACT_HEADER + '\n');
    if (this.binary) writeSync(this.fd, binaryHeaderBytes());
  }

  write(event: MarketEvent): void {
    this.lines++;
    if (this.binary) {
      this.binary.encode(event);
      if (this.binary.length >= this.flushBytes) this.flush();
      return;
    }
    this.push((this.compact ? this.compact.encode(event) : encodeEvent(event)) + '\n');
  }

  flush(): void {
    const binary = this.binary;
    if (binary && binary.length > 0) {
      writeSync(this.fd, binary.bytes, 0, binary.length);
      binary.clear();
    }
    if (this.chunks.length === 0) return;
    writeSync(this.fd, this.chunks.join(''));
    this.chunks = [];
    this.bytes = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private push(text: string): void {
    this.chunks.push(text);
    this.bytes += text.length;
    if (this.bytes >= this.flushBytes) this.flush();
  }
}
