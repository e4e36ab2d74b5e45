// One channel message of snapshot frames (frames.ts has the layout), written in place as views
// are put: no Buffer per frame and no copy to join them into the message. Messages are cut from
// a slab of `capacityBytes`; a small message (a turn of a few views) leaves the rest of its slab
// to the next ones rather than taking a slab of its own.
import {
  batchStampBytes, frameBytes, frameLengthBytes, headerBytesOf, writeFrame, type HeaderOut,
} from './frames.js';

export class BatchWriter {
  /** Where the message being written starts: the free part of the current slab. */
  private bytes: Buffer;
  private used = batchStampBytes;
  private frames = 0;

  constructor(private readonly capacityBytes: number) {
    this.bytes = Buffer.allocUnsafe(capacityBytes);
  }

  get frameCount(): number {
    return this.frames;
  }

  /** The message's bytes so far. */
  get byteLength(): number {
    return this.used;
  }

  /**
   * Appends a frame (its header and its body); returns where the frame starts in the
   * message, or -1, writing nothing, when it does not fit behind the frames already in (take
   * those first). An empty message moves to a new slab, as big as it needs, when it must.
   */
  add(header: HeaderOut, body?: Uint8Array): number {
    const headerBytes = headerBytesOf(header);
    const bytes = frameBytes(headerBytes, body);
    const end = this.used + frameLengthBytes + bytes;
    if (end > this.bytes.length) {
      if (this.frames > 0) return -1;
      this.bytes = Buffer.allocUnsafe(Math.max(this.capacityBytes, end));
    }
    const start = this.used + frameLengthBytes;
    this.bytes.writeUInt32BE(bytes, this.used);
    writeFrame(this.bytes, start, header, headerBytes, body);
    this.used = end;
    this.frames++;
    return start;
  }

  /**
   * The message, stamped with the time it leaves. The next one is written behind it while at
   * least half a slab is left (so a message that fills up holds 32-64 KB), else in a new slab.
   */
  take(sentAtMs: number): Buffer {
    const message = this.bytes.subarray(0, this.used);
    message.writeDoubleBE(sentAtMs, 0);
    this.bytes = this.bytes.length - this.used >= this.capacityBytes / 2
      ? this.bytes.subarray(this.used) : Buffer.allocUnsafe(this.capacityBytes);
    this.used = batchStampBytes;
    this.frames = 0;
    return message;
  }
}
