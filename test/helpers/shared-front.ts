// A front of a scale-out deployment, in process on a real port: access control and keys shared
// through a real Redis, the seeded snapshot views, and (when asked) the MCP endpoints on the
// same access control, as `orderflow serve --role front` wires them.
import type { ManualClock } from '../../core/clock.js';
import { resolveConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { createMcpData } from '../../http/mcp-data.js';
import { createMcpMounts, type McpMounts } from '../../http/mcp/index.js';
import { startHttpServer, type HttpServer } from '../../http/server.js';
import { createSharedAccessControl } from '../../scale-out/shared-access.js';
import { openSharedState, type SharedState } from '../../scale-out/shared-state.js';
import { MemoryUsage, seededStore } from '../http/helpers/seed.js';

export interface SharedFront {
  readonly url: string;
  readonly server: HttpServer;
  readonly shared: SharedState;
  close(): Promise<void>;
}

export async function startSharedFront(redisUrl: string, clock: ManualClock,
  options: { mcp?: boolean } = {}): Promise<SharedFront> {
  const shared = await openSharedState(redisUrl, clock, silentLogger);
  const config = resolveConfig({ host: '127.0.0.1', port: 0, keylessDailyLimit: 4 });
  const usage = new MemoryUsage();
  const access = createSharedAccessControl({ config, clock, keys: shared.keys, usage,
    limits: shared.limits, redisReady: shared.link.ready,
    fresh: () => true });
  const snapshots = seededStore();
  const mcp: McpMounts | null = options.mcp === true
    ? createMcpMounts({ access, data: createMcpData(snapshots), clock, logger: silentLogger })
    : null;
  const server = await startHttpServer({ config, clock, logger: silentLogger, snapshots,
    keys: shared.keys, usage, access, mounts: mcp ?? undefined,
    readiness: () => ({ ready: true, checks: {} }) });
  return {
    url: `http://127.0.0.1:${server.port}`, server, shared,
    async close() {
      await mcp?.close();
      await server.close();
      await shared.close();
    },
  };
}
