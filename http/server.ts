// startHttpServer: the uWebSockets.js front on the snapshot store, with access control, CORS,
// metrics and raw mounts (MCP); close() stops listening and lets mounted work finish.
import type { TemplatedApp, us_listen_socket, us_socket } from 'uWebSockets.js';
import type { Clock } from '../core/clock.js';
import type { ServiceConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { KeyDirectory, UsageCounters } from '../core/messages.js';
import { createAccessControl } from './access.js';
import type { AccessControl } from './access-types.js';
import { apiRoutes } from './api-routes.js';
import { httpBounds } from './bounds.js';
import { createTrustCheck } from './client-ip.js';
import { createCors } from './cors.js';
import { createDispatcher, type RawMount } from './dispatch.js';
import { FrontGuard, guardedRoutes, type RouteRegistrar } from './front-guard.js';
import type { Readiness } from './handlers/ops.js';
import { HttpMetrics } from './metrics.js';
import { registerViewMetrics } from './view-metrics.js';
import { metricsEndpoint } from './metrics-endpoint.js';
import { registerProcessFaultMetrics } from '../core/process-faults.js';
import { registerRuntimeMetrics } from '../core/metrics/runtime.js';
import { ScrapeRegistry } from '../core/metrics/scrape-registry.js';
import { Registry } from 'prom-client';
import { openApiPayload } from './openapi/payload.js';
import { createRouteTable } from './routes.js';
import type { SnapshotStore } from './snapshots.js';
import { VariantCache } from './variants.js';
import type { SignalSource } from './handlers/signal-history.js';
import type { FootprintStore } from '../persistence/footprints.js';

export type { RawMount } from './dispatch.js';

export interface HttpServerDeps {
  config: ServiceConfig;
  clock: Clock;
  logger: Logger;
  snapshots: SnapshotStore;
  keys: KeyDirectory;
  usage: UsageCounters;
  readiness: Readiness;
  /** Extra Prometheus text from the runtime, appended to the front's own. */
  metrics?: () => string;
  /** Registers the service's metrics (shards, feed, views, ...) on the front's registry. */
  registerMetrics?: (registry: Registry) => void;
  /** Raw handlers, e.g. MCP at /api/mcp and /api/mcp/public. */
  mounts?: readonly RawMount[];
  /**
   * The access control to use, when the mounts were built on one (createAccessControl), so
   * REST and MCP share burst windows and daily counters; created from the deps otherwise.
   */
  access?: AccessControl;
  /** The dashboard's own routes (static pages, /api/v1/account/...), registered first. */
  dashboard?: { register(app: RouteRegistrar): void };
  /** Recorded history and stored signals (GET /api/v1/history, /api/v1/signals/*). */
  history?: SignalSource;
  /** Stored footprint bars (GET /api/v1/footprint, /api/v1/volume-profile). */
  footprints?: FootprintStore;
}

export interface HttpServer {
  readonly port: number;
  readonly access: AccessControl;
  close(): Promise<void>;
}

function listen(app: TemplatedApp, host: string, port: number): Promise<us_listen_socket> {
  return new Promise((resolve, reject) => {
    app.listen(host, port, (token) => {
      if (token) resolve(token);
      else reject(new Error(`could not listen on ${host}:${port} (in use or not permitted)`));
    });
  });
}

export async function startHttpServer(deps: HttpServerDeps): Promise<HttpServer> {
  const { config, clock, logger, snapshots } = deps;
  const access = deps.access ?? createAccessControl(deps);
  const metrics = new HttpMetrics(clock.nowMs());
  const variants = new VariantCache();
  const registry = new ScrapeRegistry();
  const table = createRouteTable(apiRoutes({
    snapshots, variants, access, readiness: deps.readiness, openapi: openApiPayload(),
    history: deps.history, footprints: deps.footprints,
  }));
  const served = deps.mounts ?? [];
  const mounts = [...served, metricsEndpoint(registry, metrics, config.metricsPublic,
    () => deps.metrics?.() ?? '')];
  metrics.register(registry, () => clock.nowMs(), {
    snapshot_views: { help: 'Views the front holds.', value: () => snapshots.size },
    variant_cache_entries: { help: 'Encoded variants of views cached (CSV, fields).',
      value: () => variants.size },
  }, () => served.reduce((sum, m) => sum + (m.inFlight?.() ?? 0), 0));
  registerRuntimeMetrics(registry);
  registerProcessFaultMetrics(registry);
  registerViewMetrics(registry, snapshots, clock);
  deps.registerMetrics?.(registry);
  const guard = new FrontGuard(config);
  const dispatch = createDispatcher({
    table, mounts, access, cors: createCors(config.corsOrigins), guard,
    trusted: createTrustCheck(config.trustProxy), metrics, logger,
  });
  // Loaded here, not at the top: the package has only an "import" export condition, and the
  // test runner (uvu -r tsx) loads modules through require(), where a static import fails.
  const uWS = await import('uWebSockets.js');
  const app = uWS.App();
  deps.dashboard?.register(guardedRoutes(app, guard, () => metrics.count('refused', 403)));
  app.any('/*', dispatch);
  const token = await listen(app, config.host, config.port);
  const port = uWS.us_socket_local_port(token as unknown as us_socket);
  if (!config.limitsEnabled) {
    logger.warn('limits off: the burst guard and daily quotas are disabled', { host: config.host });
  }
  if (!guard.hostRuled && config.allowedHosts.length > 0) {
    logger.warn('ORDERFLOW_ALLOWED_HOSTS has no effect: the Host rule applies only while ' +
      'listening on a loopback address', { host: config.host });
  }
  logger.info('http listening', { host: config.host, port });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= (async () => {
    uWS.us_listen_socket_close(token);
    registry.close();
    // Wall time on purpose: a shutdown grace must pass even when the service clock is manual.
    const deadlineMs = Date.now() + httpBounds.closeGraceMs;
    while (mounts.some((m) => (m.inFlight?.() ?? 0) > 0) && Date.now() < deadlineMs) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Our own answers are synchronous, so none is in flight; this drops idle keep-alives.
    app.close();
  })());
  return { port, access, close };
}
