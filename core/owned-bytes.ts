// Bytes that can be moved to another thread: a transfer list moves whole buffers, so bytes that
// are a view of a larger buffer are copied into their own first, and many views that travel
// together are copied into one buffer, which moves as one.

/** `bytes` itself when it spans its whole buffer, else a copy that does. */
export function ownedBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes : Uint8Array.prototype.slice.call(bytes);
}

/**
 * `parts` copied one after another into one buffer of their own, each given back as its view of
 * it, in order; a part given as chunks is their bytes one after another. Why: every buffer a
 * thread receives is one more object its GC tracks and sweeps, and a message of views moved one
 * buffer each brought the main thread hundreds a second.
 */
export function packedBytes(parts: readonly (Uint8Array | readonly Uint8Array[])[]):
  { parts: Uint8Array[]; buffer: ArrayBuffer } {
  let total = 0;
  for (const part of parts) total += bytesOf(part);
  const buffer = new ArrayBuffer(total);
  const packed: Uint8Array[] = [];
  let at = 0;
  for (const part of parts) {
    const view = new Uint8Array(buffer, at, bytesOf(part));
    if (part instanceof Uint8Array) {
      view.set(part);
    } else {
      let offset = 0;
      for (const chunk of part) {
        view.set(chunk, offset);
        offset += chunk.byteLength;
      }
    }
    packed.push(view);
    at += view.byteLength;
  }
  return { parts: packed, buffer };
}

function bytesOf(part: Uint8Array | readonly Uint8Array[]): number {
  if (part instanceof Uint8Array) return part.byteLength;
  let total = 0;
  for (const chunk of part) total += chunk.byteLength;
  return total;
}
