// The shard -> main thread hand-over on a MessageChannel of its own, beside comedy's bus.
//
// Why: through comedy a publish was structured-cloned (every view's bytes copied on the main
// thread) and settled through several bluebird promise hops there, all inside one main-thread
// task per publish. On a port of its own the views' ArrayBuffers are transferred (moved, not
// copied) and the main thread runs one plain 'message' handler. comedy's bus stays for requests
// (heartbeat, setPairs, stop); a shard publishes through comedy until its port has arrived.
import type { MessagePort } from 'node:worker_threads';
import type { PairViews } from '../../core/messages.js';

/** Names the one message that carries the port; comedy's bus ignores it (not its actor id). */
export const handoverPortType = 'orderflow-handover-port';

export interface HandoverPortMessage {
  readonly id: string;
  readonly type: typeof handoverPortType;
  readonly actorId: string;
  readonly port: MessagePort;
}

/**
 * The message the main thread posts to a shard's worker with the port in its transfer list.
 * comedy's listener on the same worker port skips a message with an id, a type it does not
 * handle and an actor id that is not its own, without logging it.
 */
export function handoverPortMessage(port: MessagePort): HandoverPortMessage {
  return { id: handoverPortType, type: handoverPortType, actorId: handoverPortType, port };
}

export function isHandoverPortMessage(message: unknown): message is HandoverPortMessage {
  return typeof message === 'object' && message !== null &&
    (message as { type?: unknown }).type === handoverPortType &&
    typeof (message as { port?: { postMessage?: unknown } }).port?.postMessage === 'function';
}

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
