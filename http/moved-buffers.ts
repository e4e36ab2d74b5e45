// The moved buffers under a store's views (core/view-meta.ts, `moved`): the views that came in
// one message share one buffer, given back once no view over it is left. A view that stays (a
// quiet pair publishes nothing new) would keep its whole message's buffer alive, so a buffer
// that is still held `keptMessages` messages later while its views read under half of it has
// them copied out to a buffer of their own. Most buffers go within a cadence or two; copying at
// once, on every pair that skipped one publish, copied more than it saved.

/** Messages after which a buffer read under half is copied out. */
export const keptMessages = 32;

/** Detaches a buffer nothing reads any more (see SnapshotStore's release). */
function detach(buffer: ArrayBuffer): void {
  structuredClone(buffer, { transfer: [buffer] });
}

interface Holders {
  /** The bytes each view reads of it. */
  readonly names: Map<string, number>;
  bytes: number;
  /** The message count when it came, or was last found well read. */
  seenAt: number;
}

export class MovedBuffers {
  /** Oldest first (a Map keeps insertion order). */
  private readonly byBuffer = new Map<ArrayBuffer, Holders>();
  private messages = 0;

  /** `name`'s view now reads `body` (and no other bytes of its buffer). */
  hold(name: string, body: Uint8Array): void {
    const buffer = body.buffer as ArrayBuffer;
    let holders = this.byBuffer.get(buffer);
    if (holders === undefined) {
      holders = { names: new Map(), bytes: 0, seenAt: this.messages++ };
      this.byBuffer.set(buffer, holders);
    }
    holders.bytes += body.byteLength - (holders.names.get(name) ?? 0);
    holders.names.set(name, body.byteLength);
  }

  /** `name`'s view no longer reads `body`; its buffer is detached if it was the last. */
  drop(name: string, body: Uint8Array): void {
    const buffer = body.buffer as ArrayBuffer;
    const holders = this.byBuffer.get(buffer);
    const bytes = holders?.names.get(name);
    if (holders === undefined || bytes === undefined) return;
    holders.names.delete(name);
    holders.bytes -= bytes;
    if (holders.names.size > 0) return;
    this.byBuffer.delete(buffer);
    detach(buffer);
  }

  /**
   * The oldest buffer held for `keptMessages` messages whose views read under half of it, with
   * their names: they should move to a buffer of their own, then `handOver` it. A well-read one
   * goes to the back of the line, to be looked at again as late.
   */
  sparse(): { buffer: ArrayBuffer; names: string[] } | undefined {
    for (const [buffer, holders] of this.byBuffer) {
      if (holders.seenAt > this.messages - keptMessages) return undefined;
      if (holders.bytes * 2 < buffer.byteLength) {
        return { buffer, names: [...holders.names.keys()] };
      }
      this.byBuffer.delete(buffer);
      holders.seenAt = this.messages;
      this.byBuffer.set(buffer, holders);
    }
    return undefined;
  }

  /** The views over `buffer` moved to bytes of their own: it is detached. */
  handOver(buffer: ArrayBuffer): void {
    if (this.byBuffer.delete(buffer)) detach(buffer);
  }

  /** Buffers held (for tests and metrics). */
  get size(): number {
    return this.byBuffer.size;
  }
}
