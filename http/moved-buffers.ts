// The moved buffers under a store's views (core/view-meta.ts, `moved`): the views that came in
// one message share one buffer, given back once no view over it is left. A view that stays (a
// quiet pair publishes nothing new) would keep its whole message's buffer alive, so once the
// views over a buffer hold less than half of it, they are copied out to bytes of their own.

/** Detaches a buffer nothing reads any more (see SnapshotStore's release). */
export function detach(buffer: ArrayBuffer): void {
  structuredClone(buffer, { transfer: [buffer] });
}

interface Holders {
  /** The bytes each view reads of it. */
  readonly names: Map<string, number>;
  bytes: number;
}

export class MovedBuffers {
  private readonly byBuffer = new Map<ArrayBuffer, Holders>();

  /** `name`'s view now reads `body` (and no other bytes of its buffer). */
  hold(name: string, body: Uint8Array): void {
    const buffer = body.buffer as ArrayBuffer;
    let holders = this.byBuffer.get(buffer);
    if (holders === undefined) {
      holders = { names: new Map(), bytes: 0 };
      this.byBuffer.set(buffer, holders);
    }
    holders.bytes += body.byteLength - (holders.names.get(name) ?? 0);
    holders.names.set(name, body.byteLength);
  }

  /**
   * `name`'s view no longer reads `body`. The buffer is detached when it was the last; the names
   * returned (none, mostly) hold under half of it and should get bytes of their own, then
   * `handOver` it.
   */
  drop(name: string, body: Uint8Array): readonly string[] {
    const buffer = body.buffer as ArrayBuffer;
    const holders = this.byBuffer.get(buffer);
    const bytes = holders?.names.get(name);
    if (holders === undefined || bytes === undefined) return [];
    holders.names.delete(name);
    holders.bytes -= bytes;
    if (holders.names.size === 0) {
      this.byBuffer.delete(buffer);
      detach(buffer);
      return [];
    }
    return holders.bytes * 2 < buffer.byteLength ? [...holders.names.keys()] : [];
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
