// A shard's stop on its hand-over port (handover.ts): the main thread asks, the shard makes its
// last publish with its pairs' states, says it is done and how much it holds, and the main
// thread pulls what it holds on the same port (past-queue.ts).
//
// Why the port and not comedy's bus: the bus copies each saved state (tens of megabytes a shard)
// and settles it through several promise hops on the main thread, while the port moves the bytes;
// and the last message on the port comes after everything the shard sent before it, which a
// reply on the bus does not promise.

export const shardStopType = 'orderflow-shard-stop';
export const shardStoppedType = 'orderflow-shard-stopped';

export interface ShardStopRequest {
  readonly type: typeof shardStopType;
}

export interface ShardStopped {
  readonly type: typeof shardStoppedType;
  readonly shardId: number;
  /** Messages it still holds for the main thread to pull (past-queue.ts). */
  readonly held: number;
}

export const shardStopRequest: ShardStopRequest = Object.freeze({ type: shardStopType });

export function isShardStopRequest(message: unknown): message is ShardStopRequest {
  return typeof message === 'object' && message !== null &&
    (message as { type?: unknown }).type === shardStopType;
}

export function isShardStopped(message: unknown): message is ShardStopped {
  return typeof message === 'object' && message !== null &&
    (message as { type?: unknown }).type === shardStoppedType;
}
