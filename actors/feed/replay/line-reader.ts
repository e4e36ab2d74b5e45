// Reads a file line by line in fixed-size chunks: bounded memory however large the recording.
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export class LineReader {
  private readonly fd: number;
  private readonly buffer: Uint8Array;
  private readonly decoder = new StringDecoder('utf8');
  private lines: string[] = [];
  private index = 0;
  private rest = '';
  private eof = false;
  private closed = false;

  constructor(path: string, chunkBytes = 1 << 20) {
    this.fd = openSync(path, 'r');
    this.buffer = new Uint8Array(chunkBytes);
  }

  /** The next non-empty line without its newline, or null at the end of the file. */
  next(): string | null {
    for (;;) {
      while (this.index < this.lines.length) {
        const line = this.lines[this.index++];
        if (line.length > 0) return line.endsWith('\r') ? line.slice(0, -1) : line;
      }
      if (this.eof) return null;
      this.fill();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private fill(): void {
    const bytes = this.closed ? 0 : readSync(this.fd, this.buffer, 0, this.buffer.length, null);
    let text = this.rest;
    if (bytes === 0) {
      this.eof = true;
      text += this.decoder.end();
      this.rest = '';
      this.lines = [text];
    } else {
      text += this.decoder.write(Buffer.from(this.buffer.buffer, 0, bytes));
      const parts = text.split('\n');
      this.rest = parts.pop() ?? '';
      this.lines = parts;
    }
    this.index = 0;
  }
}
