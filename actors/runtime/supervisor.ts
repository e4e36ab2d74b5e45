// The root supervisor: an in-memory actor on the main thread that starts the shard actors in
// worker threads, restarts any that fail, and hands their publishes to the service.
import type { Logger } from '../../core/logger.js';
import type { AssetCtx } from '../../core/messages.js';
import type { ShardParams } from '../shard/shard-params.js';
import {
  protocolTypes, type ShardBackfill, type ShardHistory, type ShardPairStates, type ShardPast,
  type ShardPastHeld, type ShardPublish,
} from '../shard/protocol.js';
import { loadComedy } from './comedy-loader.js';
import { withDeadline } from './deadline.js';
import { shardBundlePath } from './shard-bundle.js';
import { ShardHandle, type ShardSpawner, type ToHost } from './shard-handle.js';
import { ShardBoard } from './shard-board.js';
import { ShardMeters } from '../shard/shard-meters.js';

export interface SupervisorHost {
  /** A shard's once-per-cadence publish, already checked to come from its live generation. */
  onPublish(message: ShardPublish): void;
  onShardRestarted?(shardId: number): void;
  /** A shard failed too often and stays down (shard-handle.ts). */
  onShardDegraded?(shardId: number): void;
  /** A shard's closed 1-minute history points, from its live generation. */
  onHistory?(message: ShardHistory): void;
  /** A pair's live backfill state, from its shard's live generation. */
  onBackfill?(message: ShardBackfill): void;
  /** A shard's saved pair states (every 60 s and at stop), from its live generation. */
  onPairStates?(message: ShardPairStates): void;
  /** A shard holds its past for the main thread to pull (actors/shard/past-queue.ts). */
  onPastHeld?(message: ShardPastHeld): void;
  /** A shard's answer to a pull: its next held message, or none. */
  onPastAnswer?(message: ShardPast): void;
  /** Saved states of the symbols a shard is about to create, to restore them from. */
  loadPairStates?(symbols: readonly string[]): Readonly<Record<string, Uint8Array>>;
  /** The universe's context of the symbols a shard is about to create (live backfill). */
  pairContexts?(symbols: readonly string[]): Readonly<Record<string, AssetCtx>>;
}

interface SupervisorParams {
  readonly host: { ready(self: RootSupervisor, actor: ShardSpawner): void };
}

/**
 * The comedy actor definition: the parent the shard actors are created under (lifecycle and
 * supervision). Shards send it no data: that travels on their hand-over ports (protocol.ts).
 */
class RootSupervisor {
  initialize(self: ShardSpawner & { getCustomParameters(): SupervisorParams }): void {
    self.getCustomParameters().host.ready(this, self);
  }
}

export interface ActorRuntime {
  readonly shards: readonly ShardHandle[];
  /** Each shard's progress and paced market time, as its worker shows them. */
  readonly board: ShardBoard;
  /** Each shard's metrics, as its worker writes them (shard-meters.ts). */
  readonly meters: readonly ShardMeters[];
  /** Assigns the tracked set to shards; pairs move without restarting anything. */
  setTracked(assignment: readonly (readonly string[])[]): Promise<void>;
  /**
   * Stops every shard at once, each given until `untilMs` (performance.now) to send its last
   * outputs and states; resolves true when every one finished in time.
   */
  stop(untilMs?: number): Promise<boolean>;
}

/** What comedy gets for the shard bundle on the main thread (the shard runs in its worker). */
class ShardActorOnMain {}

export async function startActorRuntime(options: {
  shardCount: number;
  /**
   * Each shard's pairs; a function is read when the shards are created (after comedy loaded),
   * so a universe that came in meanwhile starts them with their pairs, a round trip sooner.
   */
  assignment: readonly (readonly string[])[] | (() => readonly (readonly string[])[]);
  shardParams: Omit<ShardParams, 'shardId' | 'generation' | 'symbols' | 'boardBuffer' |
    'metersBuffer'>;
  logger: Logger;
  host: SupervisorHost;
}): Promise<ActorRuntime> {
  const [{ createSystem }, shardBundle] = await Promise.all([loadComedy(), shardBundlePath()]);
  const system = createSystem({ test: true, config: {} }) as unknown as {
    rootActor(): Promise<{ createChild(d: unknown, o: object): Promise<unknown> }>;
    destroy(): Promise<void>;
    require(modulePath: string): unknown;
    sigintHandler?: () => void;
    sigtermHandler?: () => void;
  };
  // comedy loads a threaded actor's module on this thread too, only to name the actor (we name
  // every shard) before it creates the worker: the shard bundle and its source map would be
  // read and compiled here on the way to each start's first worker.
  const requireModule = system.require.bind(system);
  system.require = (modulePath) =>
    (modulePath === `/${shardBundle}` ? ShardActorOnMain : requireModule(modulePath));
  // comedy exits the process on SIGINT/SIGTERM at once; the service owns graceful shutdown.
  if (system.sigintHandler) process.removeListener('SIGINT', system.sigintHandler);
  if (system.sigtermHandler) process.removeListener('SIGTERM', system.sigtermHandler);

  let spawner!: ShardSpawner;
  const handles: ShardHandle[] = [];
  /** Only the live generation of a shard is heard: a replaced worker's messages are dropped. */
  const fromLive = <M extends { shardId: number; generation: number }>(
    deliver: (message: M) => void) => (message: M) => {
    const handle = handles[message.shardId];
    if (handle && handle.generation === message.generation) deliver(message);
  };
  /** What the shards' ports bring for the service; each handle adds its own stop's kind. */
  const toHost: ToHost = {
    [protocolTypes.publish]: fromLive((m: ShardPublish) => options.host.onPublish(m)),
    [protocolTypes.history]: fromLive((m: ShardHistory) => options.host.onHistory?.(m)),
    [protocolTypes.backfill]: fromLive((m: ShardBackfill) => options.host.onBackfill?.(m)),
    [protocolTypes.pairStates]: fromLive((m: ShardPairStates) => options.host.onPairStates?.(m)),
    [protocolTypes.pastHeld]: fromLive((m: ShardPastHeld) => options.host.onPastHeld?.(m)),
    [protocolTypes.past]: fromLive((m: ShardPast) => options.host.onPastAnswer?.(m)),
  };
  const root = await system.rootActor();
  const host: SupervisorParams['host'] = {
    ready: (_self, actor) => { spawner = actor; },
  };
  await root.createChild(RootSupervisor, {
    mode: 'in-memory', name: 'supervisor', customParameters: { host },
  });
  const assignment = typeof options.assignment === 'function' ? options.assignment()
    : options.assignment;
  const board = ShardBoard.create(options.shardCount);
  const metersBuffer = ShardMeters.create(options.shardCount);
  const meters = Array.from({ length: options.shardCount },
    (_, id) => new ShardMeters(metersBuffer, id));
  const base = { ...options.shardParams, boardBuffer: board.buffer, metersBuffer };
  for (let id = 0; id < options.shardCount; id++) {
    handles.push(new ShardHandle(id, assignment[id] ?? [], base, spawner,
      options.logger, (shardId) => options.host.onShardRestarted?.(shardId), toHost,
      options.host.loadPairStates, board, (shardId) => options.host.onShardDegraded?.(shardId),
      options.host.pairContexts));
  }
  await Promise.all(handles.map((h) => h.start()));
  return {
    shards: handles,
    board,
    meters,
    async setTracked(assignment) {
      await Promise.all(handles.map((h, id) => h.setSymbols(assignment[id] ?? [])));
    },
    async stop(untilMs) {
      const finished = await Promise.all(handles.map((h) => h.stop(untilMs)));
      // Not waited for: it waits on children whose workers are gone by now, until its own
      // timeouts, and holds nothing a stop must keep (it cost every stop 0.5 s).
      void withDeadline(system.destroy(), 500, 'actor system destroy').catch(() => {});
      return finished.every(Boolean);
    },
  };
}
