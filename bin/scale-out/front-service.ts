// `orderflow serve --role front`: the HTTP front alone. Snapshots come from ingest through Redis,
// keys, burst windows, daily counts, accounts and sessions (the dashboard) are shared in Redis;
// the local store holds only this front's own counters, used while Redis is away
// (docs/scale-out.md).
import { systemClock, shiftedClock, type Clock } from '../../core/clock.js';
import type { ServiceConfig } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import { openStore } from '../../persistence/store.js';
import { SnapshotStore } from '../../http/snapshots.js';
import { startHttpServer } from '../../http/server.js';
import { createSharedAccessControl } from '../../scale-out/shared-access.js';
import { createMcpData } from '../../http/mcp-data.js';
import { createLazyMounts } from '../../http/mcp-lazy.js';
import { preloadArrow } from '../../http/history-formats.js';
import type { AccessControl } from '../../http/access-types.js';
import { createDashboardFor } from '../dashboard.js';
import { PropagationHistogram } from '../../scale-out/propagation-histogram.js';
import { registerScaleOutMetrics } from '../../scale-out/scale-out-metrics.js';
import { SnapshotSubscriber } from '../../scale-out/subscriber.js';
import { startHistoryFollower } from '../../scale-out/history-follower.js';
import { copyOptionsDefault } from '../../scale-out/history-copy.js';
import { copyChunkPoints } from '../../scale-out/history-copy-chunk.js';
import type { SharedState } from '../../scale-out/shared-state.js';

export interface FrontService {
  readonly baseUrl: string;
  readonly port: number;
  readonly snapshots: SnapshotStore;
  readonly subscriber: SnapshotSubscriber;
  stop(): Promise<void>;
}

export interface FrontDeps {
  readonly logger: Logger;
  readonly shared: SharedState;
  readonly clock?: Clock;
  readonly onListening?: (baseUrl: string) => void;
}

/** The MCP endpoints on an access control, loaded on first use (as on one box). */
export function mcpMounts(access: AccessControl, snapshots: SnapshotStore, clock: Clock,
  logger: Logger, history?: Parameters<typeof createMcpData>[1],
  /** The module loads once this settles (default: at once). */
  loadAfter?: Promise<void>,
  /** Stored footprint bars (one box); without them footprints reach back to the view's. */
  footprints?: Parameters<typeof createMcpData>[2]) {
  return createLazyMounts(['/api/mcp', '/api/mcp/public'], ['GET', 'POST', 'DELETE'],
    async () => {
      await loadAfter;
      const { createMcpMounts } = await import('../../http/mcp/index.js');
      return createMcpMounts({ access, data: createMcpData(snapshots, history, footprints), clock,
        logger: logger.child({ component: 'mcp' }) });
    });
}

export async function startFrontService(config: ServiceConfig, deps: FrontDeps):
  Promise<FrontService> {
  const log = deps.logger;
  const clock = deps.clock ??
    (config.clockStartMs === null ? systemClock : shiftedClock(config.clockStartMs));
  const { shared } = deps;
  const store = await openStore({ dataDir: config.dataDir, clock, logger: log, watchKeys: false });
  const snapshots = new SnapshotStore();
  const subscriber = new SnapshotSubscriber(shared.link, snapshots, clock,
    log.child({ component: 'snapshots' }));
  // What the subscriber applies, from its put on ingest and from its batch leaving ingest: this
  // front's /metrics.
  const propagation = new PropagationHistogram();
  const transit = new PropagationHistogram('orderflow_snapshot_transit_seconds',
    'Snapshot views from their batch leaving ingest to this front holding them.');
  subscriber.onApplied = (sinceSentMs, sincePutMs) => {
    propagation.observe(sincePutMs);
    transit.observe(sinceSentMs);
  };
  subscriber.start();
  const access = createSharedAccessControl({
    config, clock, keys: shared.keys, usage: store.usage, limits: shared.limits,
    redisReady: shared.link.ready, fresh: () => subscriber.fresh(),
  });
  // History and the track record: recorded locally from ingest's stream (history-follower.ts).
  const history = startHistoryFollower(config, store, shared.link, clock,
    log.child({ component: 'history' }),
    { ...copyOptionsDefault, pointsMax: copyChunkPoints(process.env) });
  const mcp = mcpMounts(access, snapshots, clock, log, history.source);
  // As on one box (service.ts): the first Arrow history answer after ready is not 503.
  const arrowLoaded = preloadArrow();
  // The dashboard's pages and account API; accounts and sessions from Redis, so a session made
  // on any front (or ingest) holds here. Endpoints and alerts stay ingest's (docs/scale-out.md).
  const dashboard = createDashboardFor({ config, clock, store, keys: shared.keys, access,
    webhooks: null, shared, logger: log.child({ component: 'dashboard' }) });
  const readiness = () => {
    const checks = {
      redis: shared.link.ready(),
      snapshots: subscriber.loaded() && snapshots.get('screener') !== undefined,
      ingest: subscriber.fresh(),
      mcp: mcp.loaded(),
      arrow: arrowLoaded(),
    };
    // History still being copied from ingest does not hold the front back: it answers what it
    // has (the rest as gaps, as ingest answers outside its retention) and says what is missing.
    const missing = history.missing();
    return { ready: Object.values(checks).every(Boolean), checks,
      ...(missing === null ? {} : { detail: { history: missing } }) };
  };
  let http;
  try {
    http = await startHttpServer({
      config, clock, logger: log.child({ component: 'http' }), snapshots, keys: shared.keys,
      usage: store.usage, readiness, access, mounts: mcp.mounts, history: history.source,
      dashboard,
      metrics: () => propagation.render() + transit.render() + subscriber.renderPatchMetrics(),
      registerMetrics: (registry) => registerScaleOutMetrics(registry, { link: shared.link,
        limits: shared.limits, fresh: () => subscriber.fresh() }),
    });
  } catch (error) {
    await mcp.close();
    await dashboard.close();
    await history.stop();
    await shared.close();
    await store.close();
    throw error;
  }
  const hostPart = config.host.includes(':') ? `[${config.host}]` : config.host;
  const baseUrl = `http://${hostPart}:${http.port}`;
  deps.onListening?.(baseUrl);
  log.info('front started', { baseUrl });
  let stopped: Promise<void> | null = null;
  return {
    baseUrl, port: http.port, snapshots, subscriber,
    stop() {
      stopped ??= (async () => {
        await mcp.close();
        await http.close();
        await dashboard.close();
        await history.stop();
        await shared.close();
        await store.close();
        log.info('front stopped');
      })();
      return stopped;
    },
  };
}
