// The shard -> main thread hand-over on a MessageChannel of its own (protocol.ts): what moves.
//
// Why: through comedy a publish was structured-cloned (every view's bytes copied on the main
// thread) and settled through several bluebird promise hops there, all inside one main-thread
// task per publish. On a port of its own the views' ArrayBuffers are transferred (moved, not
// copied) and the main thread runs one plain 'message' handler. comedy's bus stays for requests
// (heartbeat, setPairs, stop); what a shard sends before its port arrives waits for it
// (shard-outbox.ts).
import type { PairViews } from '../../core/messages.js';

/**
 * The ArrayBuffers a publish may move instead of copying: each view's bytes that own their whole
 * buffer (TextEncoder's output does). A view that is a slice of a larger or shared buffer (a
 * Buffer from Node's pool) is copied as before: moving it would detach its neighbours.
 */
export function transferablesOf(pairs: readonly PairViews[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  const seen = new Set<ArrayBufferLike>();
  for (const pair of pairs) {
    for (const kind in pair.views) {
      const bytes = pair.views[kind];
      const { buffer } = bytes;
      if (!(buffer instanceof ArrayBuffer) || seen.has(buffer)) continue;
      seen.add(buffer);
      if (bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) buffers.push(buffer);
    }
  }
  return buffers;
}
