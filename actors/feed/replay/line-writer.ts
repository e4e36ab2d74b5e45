// Writes replay lines through a bounded buffer flushed synchronously: memory stays flat even
// when a simulator at full speed produces millions of events. JSON lines by default; the
// compact format (compact-format.ts) on request.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { MarketEvent } from '../../messages.js';
import { CompactEncoder } from './compact-encoder.js';
import { COMPACT_HEADER, type ReplayFormat } from './compact-format.js';
import { encodeEvent } from './event-codec.js';

export interface LineWriterOptions {
  /** 'json' (default): one canonical JSON event per line. 'compact': see compact-format.ts. */
  readonly format?: ReplayFormat;
  /** Buffered characters that trigger a write (default 1 MiB). */
  readonly flushBytes?: number;
}

export class LineWriter {
  private readonly fd: number;
  private readonly flushBytes: number;
  private readonly compact: CompactEncoder | null;
  private chunks: string[] = [];
  private bytes = 0;
  /** Events written (a compact file also holds its header and definition lines). */
  lines = 0;

  /** `options` may be a number: the flush threshold, as before formats existed. */
  constructor(path: string, options: number | LineWriterOptions = {}) {
    const o = typeof options === 'number' ? { flushBytes: options } : options;
    const format = o.format ?? 'json';
    if (format !== 'json' && format !== 'compact') {
      throw new TypeError(`format must be "json" or "compact" (was ${JSON.stringify(format)})`);
    }
    this.flushBytes = o.flushBytes ?? 1 << 20;
    this.fd = openSync(path, 'w');
    this.compact = format === 'compact' ? new CompactEncoder() : null;
    if (this.compact) this.push(COMPACT_HEADER + '\n');
  }

  write(event: MarketEvent): void {
    this.push((this.compact ? this.compact.encode(event) : encodeEvent(event)) + '\n');
    this.lines++;
  }

  flush(): void {
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
