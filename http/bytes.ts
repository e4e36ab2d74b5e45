// A type-level bridge: with @types/node 20.9 under TypeScript 5.9 a Buffer is not assignable
// to Uint8Array (generic ArrayBufferLike), though at run time it is one.

/** The same Buffer, typed as the Uint8Array that uWS and node:crypto accept. */
export function bytesOf(buffer: Buffer): Uint8Array {
  return buffer as unknown as Uint8Array;
}
