// The REST route table: every path of the API with its plan-table endpoint, burst scope,
// query parameters and handler (MCP mounts join it in the dispatcher).
import type { AccessControl, BurstScope, Endpoint } from './access-types.js';
import { cvdHandler } from './handlers/cvd.js';
import { footprintHandler, FOOTPRINT_QUERY } from './handlers/footprint.js';
import { volumeProfileHandler, VOLUME_PROFILE_QUERY } from './handlers/volume-profile.js';
import type { FootprintStore } from '../persistence/footprints.js';
import { exportHandler } from './handlers/export.js';
import { historyHandler } from './handlers/history.js';
import {
  signalHistoryHandler, signalPerformanceHandler, SIGNALS_HISTORY_QUERY,
  SIGNALS_PERFORMANCE_QUERY, type SignalSource,
} from './handlers/signal-history.js';
import { HISTORY_QUERY } from './history-params.js';
import { symbolViewHandler, viewHandler, walletHandler } from './handlers/feeds.js';
import {
  healthHandler, readyHandler, staticHandler, usageHandler, type Readiness,
} from './handlers/ops.js';
import type { Payload } from './respond.js';
import type { Handler, Route } from './routes.js';
import type { SnapshotStore } from './snapshots.js';
import type { VariantCache } from './variants.js';

export interface RouteDeps {
  readonly snapshots: SnapshotStore;
  readonly variants: VariantCache;
  readonly access: AccessControl;
  readonly readiness: Readiness;
  readonly openapi: Payload;
  /** Recorded history and stored signals; without them those routes answer 503. */
  readonly history?: SignalSource | null;
  /** Stored footprint bars; without them footprints reach back to the newest closed bar. */
  readonly footprints?: FootprintStore | null;
}

const V1 = '/api/v1/';

function api(name: string, path: string, endpoint: Endpoint, handle: Handler,
  options: { scope?: BurstScope; query?: readonly string[]; daily?: boolean } = {}): Route {
  return {
    name, path: V1 + path, segment: path.endsWith('/'), endpoint,
    scope: options.scope ?? 'v1', query: ['api_key', ...(options.query ?? [])],
    daily: options.daily ?? true, handle,
  };
}

function open(name: string, path: string, handle: Handler, query: readonly string[] = []):
  Route {
  return { name, path, segment: false, endpoint: null, scope: null, query, daily: false, handle };
}

export function apiRoutes(deps: RouteDeps): Route[] {
  const { snapshots, variants } = deps;
  return [
    api('screener', 'screener', 'screener', viewHandler(snapshots, 'screener')),
    api('pair', 'pair/', 'pair', symbolViewHandler(snapshots, 'pair', 'pair detail')),
    api('signals', 'signals', 'signals', viewHandler(snapshots, 'signals')),
    api('smart-money', 'smart-money', 'smart-money', viewHandler(snapshots, 'smart-money')),
    api('deep-view', 'deep-view/', 'deep-view',
      symbolViewHandler(snapshots, 'deep-view', 'the deep view'), { scope: 'deep-view' }),
    api('funding-arb', 'funding-arb', 'funding-arb', viewHandler(snapshots, 'funding-arb')),
    // Usage is answered even when the day's quota is used up: that is when it is needed.
    api('usage', 'usage', 'usage', usageHandler(deps.access), { daily: false }),
    api('cvd', 'cvd/', 'cvd', cvdHandler(snapshots, variants),
      { scope: 'cvd', query: ['interval', 'limit'] }),
    api('liquidation-map', 'liquidation-map/', 'liquidation-map',
      symbolViewHandler(snapshots, 'liquidation-map', 'the liquidation map')),
    api('wallets', 'wallets', 'wallets', viewHandler(snapshots, 'wallets')),
    api('wallet', 'wallets/', 'wallets', walletHandler(snapshots)),
    api('export', 'export/', 'export', exportHandler(snapshots, variants)),
    api('footprint', 'footprint/', 'footprint',
      footprintHandler(snapshots, variants, deps.footprints ?? null),
      { scope: 'footprint', query: FOOTPRINT_QUERY }),
    api('volume-profile', 'volume-profile/', 'volume-profile',
      volumeProfileHandler(snapshots, variants, deps.footprints ?? null),
      { scope: 'footprint', query: VOLUME_PROFILE_QUERY }),
    api('history', 'history/', 'history', historyHandler(snapshots, deps.history ?? null),
      { scope: 'history', query: HISTORY_QUERY }),
    api('signals-history', 'signals/history', 'history',
      signalHistoryHandler(deps.history ?? null),
      { scope: 'history', query: SIGNALS_HISTORY_QUERY }),
    api('signals-performance', 'signals/performance', 'history',
      signalPerformanceHandler(deps.history ?? null),
      { scope: 'history', query: SIGNALS_PERFORMANCE_QUERY }),
    open('openapi', V1 + 'openapi.json', staticHandler(deps.openapi), ['api_key']),
    open('healthz', '/healthz', healthHandler),
    open('readyz', '/readyz', readyHandler(deps.readiness)),
  ];
}
