// Closing a serialized object with one more member, without parsing it: the shard serializes a
// pair's deep view without its smart-money split, which comes from the main thread's wallets,
// and closes it with the split in the worker as it packs the publish (actors/shard/handover.ts):
// the one place a deep view is closed.

const encoder = new TextEncoder();

/** `,"name":json}`: the bytes that close a serialized object with one more member. */
export function closingMember(name: string, json: string): Uint8Array {
  return encoder.encode(`,${JSON.stringify(name)}:${json}}`);
}

/** A serialized object closed by `closing` (closingMember), as chunks to write in order. */
export function closedChunks(objectBytes: Uint8Array, closing: Uint8Array): Uint8Array[] {
  return [objectBytes.subarray(0, objectBytes.length - 1), closing];
}
