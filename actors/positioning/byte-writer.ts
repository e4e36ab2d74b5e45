// Text written straight into one growing Buffer: a big JSON body (the wallets view, ~11 MB with
// 10,000 wallets) is made without joined strings, chunk Buffers and a concatenated copy, and each
// item's string dies young instead of being kept until the body is assembled.

export class ByteWriter {
  private buffer: Buffer;
  private at = 0;

  /** `capacityBytes`: the expected size (the last body's, say); it grows by half when short. */
  constructor(capacityBytes: number) {
    this.buffer = Buffer.allocUnsafeSlow(Math.max(64, Math.ceil(capacityBytes)));
  }

  /** Appends the text as UTF-8. */
  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: only a near-full buffer needs the exact size.
    if (this.buffer.length - this.at < text.length * 3) {
      const needed = this.at + Buffer.byteLength(text);
      if (needed > this.buffer.length) this.grow(needed);
    }
    this.at += this.buffer.write(text, this.at);
  }

  get length(): number {
    return this.at;
  }

  /** The bytes written. A buffer more than 1/8 empty is copied to its exact size, so the view
   *  kept does not hold the slack. The writer must not be used afterwards. */
  finish(): Buffer {
    if (this.buffer.length - this.at <= this.buffer.length / 8) {
      return this.buffer.subarray(0, this.at);
    }
    const exact = Buffer.allocUnsafeSlow(this.at);
    this.buffer.copy(exact, 0, 0, this.at);
    return exact;
  }

  private grow(neededBytes: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(neededBytes, Math.ceil(this.buffer.length * 1.5)));
    this.buffer.copy(next, 0, 0, this.at);
    this.buffer = next;
  }
}
