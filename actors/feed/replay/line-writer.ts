// Writes replay lines through a bounded buffer flushed synchronously: memory stays flat even
// when a simulator at full speed produces millions of events.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { MarketEvent } from '../../messages.js';
import { encodeEvent } from './event-codec.js';

export class LineWriter {
  private readonly fd: number;
  private chunks: string[] = [];
  private bytes = 0;
  lines = 0;

  constructor(path: string, private readonly flushBytes = 1 << 20) {
    this.fd = openSync(path, 'w');
  }

  write(event: MarketEvent): void {
    const line = encodeEvent(event) + '\n';
    this.chunks.push(line);
    this.bytes += line.length;
    this.lines++;
    if (this.bytes >= this.flushBytes) this.flush();
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
}
