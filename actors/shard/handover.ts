// The shard -> main thread hand-over on a MessageChannel of its own (protocol.ts): what moves.
//
// Why: through comedy a publish was structured-cloned (every view's bytes copied on the main
// thread) and settled through several bluebird promise hops there, all inside one main-thread
// task per publish. On a port of its own the views' ArrayBuffers are transferred (moved, not
// copied) and the main thread runs one plain 'message' handler. comedy's bus stays for requests
// (heartbeat, setPairs, stop); what a shard sends before its port arrives waits for it
// (shard-outbox.ts).
import type { PairViews } from '../../core/messages.js';
import { strongEtag } from '../../core/etag.js';
import { packedBytes } from '../../core/owned-bytes.js';
import { closedChunks } from '../views/splice-field.js';

const deepView = 'deep-view';

/**
 * A publish's pairs with every view's bytes packed into one buffer, and that buffer to move: the
 * main thread receives one ArrayBuffer a publish instead of one a view (its store releases it
 * once no view over it is left, http/snapshots.ts). `closing` gives the bytes that close each
 * pair's deep view (its smart money, splice-field.ts): they are written into the pack, and the
 * deep view's ETag is of the closed bytes.
 */
export function movedPairs(pairs: readonly PairViews[],
  closing?: (symbol: string) => Uint8Array): { pairs: PairViews[]; transfer: ArrayBuffer[] } {
  const chunks: (Uint8Array | Uint8Array[])[] = [];
  for (const pair of pairs) {
    for (const kind in pair.views) {
      const bytes = pair.views[kind]!;
      chunks.push(kind === deepView && closing ? closedChunks(bytes, closing(pair.symbol)) : bytes);
    }
  }
  if (chunks.length === 0) return { pairs: [...pairs], transfer: [] };
  const { parts, buffer } = packedBytes(chunks);
  let next = 0;
  const moved = pairs.map((pair) => {
    const views: Record<string, Uint8Array> = {};
    for (const kind in pair.views) views[kind] = parts[next++]!;
    const deep = views[deepView];
    if (closing === undefined || deep === undefined) return { ...pair, views };
    return { ...pair, views, etags: { ...pair.etags, [deepView]: strongEtag(deep) } };
  });
  return { pairs: moved, transfer: [buffer] };
}
