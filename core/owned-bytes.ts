// Bytes that can be moved to another thread: a transfer list moves whole buffers, so bytes that
// are a view of a larger buffer are copied into their own first.

/** `bytes` itself when it spans its whole buffer, else a copy that does. */
export function ownedBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes : Uint8Array.prototype.slice.call(bytes);
}
