// The front as a bench polls it: the real uWS server in this process, limits off, every check
// ready, one API-plan key. `extra` adds what a bench needs beyond the snapshots (a store).
import { systemClock } from '../../core/clock.js';
import { resolveConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { startHttpServer, type HttpServer, type HttpServerDeps } from '../../http/server.js';
import type { SnapshotStore } from '../../http/snapshots.js';
import { keyFor, MemoryKeys, MemoryUsage } from '../../test/http/helpers/seed.js';

export interface BenchFront {
  readonly server: HttpServer;
  readonly keys: MemoryKeys;
  /** An API-plan key the front knows. */
  readonly key: string;
}

export async function openBenchFront(snapshots: SnapshotStore,
  extra: Partial<HttpServerDeps> = {}): Promise<BenchFront> {
  const keys = new MemoryKeys();
  const key = keyFor(1);
  keys.add(key, 'API');
  const server = await startHttpServer({
    config: resolveConfig({ host: '127.0.0.1', port: 0, limitsEnabled: false }),
    clock: systemClock, logger: silentLogger, snapshots, keys, usage: new MemoryUsage(),
    readiness: () => ({ ready: true, checks: {} }), ...extra,
  });
  return { server, keys, key };
}
