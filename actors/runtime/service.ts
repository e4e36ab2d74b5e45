// The service: wires the store, the universe, the actor runtime, the views and the HTTP front,
// and owns the order of start-up and of graceful shutdown.
import { systemClock, shiftedClock, type Clock } from '../clock.js';
import type { ServiceConfig } from '../config.js';
import { limits } from '../config.js';
import type { Logger } from '../logger.js';
import type { ShardPublish, UniverseEvent } from '../messages.js';
import type { FeedSpec } from '../feed/feed-types.js';
import { createUniverseFeed, type UniverseFeedEvent } from '../universe/universe-feed.js';
import { rankTracked } from '../universe/tracked.js';
import { openStore } from '../../persistence/store.js';
import { SnapshotStore } from '../../http/snapshots.js';
import { startHttpServer } from '../../http/server.js';
import { createAccessControl } from '../../http/access.js';
import { createMcpData } from '../../http/mcp-data.js';
import { createMcpMounts } from '../../http/mcp/index.js';
import { encodeFeedSpec } from '../shard/shard-params.js';
import { assignShards, symbolsOfShard } from '../universe/assign.js';
import { MarketViews } from './market-views.js';
import { PositioningViews } from './positioning-views.js';
import { SignalPipeline } from './signal-pipeline.js';
import { createWebhookSupervisor } from '../webhooks/supervisor.js';
import { startActorRuntime, type ActorRuntime } from './supervisor.js';

export interface Service {
  readonly baseUrl: string;
  readonly port: number;
  readonly snapshots: SnapshotStore;
  readonly runtime: ActorRuntime;
  stop(): Promise<void>;
}

export interface ServiceDeps {
  readonly logger: Logger;
  /** The service (delivery) clock; default: wall clock, shifted to config.clockStartMs. */
  readonly clock?: Clock;
  /** Lets tests crash shards on purpose. */
  readonly allowShardCrash?: boolean;
}

/** How long start-up waits for the first universe before starting with no tracked pairs. */
const firstUniverseWaitMs = 10_000;
/** Wallet views are heavy with many wallets; they refresh on their own, slower cadence. */
const positioningCadenceMs = 15_000;
/** Alerts added by the admin command line are seen within this. */
const alertsPollMs = 1_000;
const outcomesEveryMs = 5_000;
const pruneEveryMs = 3_600_000;
/** Re-rank the tracked set this often, in market time (DECISIONS.md: hourly). */
const rerankEveryMs = 3_600_000;

function feedSpecOf(config: ServiceConfig, startMs: number): FeedSpec {
  if (config.feed === 'live') {
    return { kind: 'live', wsUrl: config.homeWsUrl, infoUrl: config.homeInfoUrl };
  }
  if (config.feed === 'replay') {
    return { kind: 'replay', file: config.replayFile!, speed: config.speed };
  }
  return { kind: 'sim', seed: config.simSeed, speed: config.speed, startMs };
}

export async function startService(config: ServiceConfig, deps: ServiceDeps): Promise<Service> {
  const log = deps.logger;
  const clock = deps.clock ??
    (config.clockStartMs === null ? systemClock : shiftedClock(config.clockStartMs));
  const store = await openStore({ dataDir: config.dataDir, clock, logger: log });
  const snapshots = new SnapshotStore();
  const positioning = new PositioningViews(snapshots, positioningCadenceMs,
    log.child({ component: 'positioning' }));
  const views = new MarketViews(snapshots, config.cadenceMs, config.universeCadenceMs,
    (symbol) => positioning.smartMoneyJson(symbol));
  const spec = feedSpecOf(config, clock.nowMs());
  const webhooks = createWebhookSupervisor({
    root: store.root, clock, logger: log.child({ component: 'webhooks' }), keys: store.keys,
    allowPrivate: config.allowPrivateWebhooks,
  });
  webhooks.start();
  const signals = new SignalPipeline({
    root: store.root, webhooks, keys: store.keys, clock, chartBaseUrl: config.chartBaseUrl,
    logger: log.child({ component: 'signals' }),
    fundingAnnualizedPct: (symbol) =>
      views.screenerRows.find((row) => row.symbol === symbol)?.fundingAnnualized ?? null,
  });
  let marketNowMs = 0;

  let tracked: string[] = [];
  let rankedAtMs = -Infinity;
  let assignment = new Map<string, number>();
  const perShard = () => Array.from({ length: config.shards }, (_, i) =>
    symbolsOfShard(assignment, i));
  let runtime: ActorRuntime | null = null;
  let firstUniverse: () => void = () => {};
  const universeSeen = new Promise<void>((resolve) => { firstUniverse = resolve; });

  const rerank = (event: UniverseEvent) => {
    if (event.tsMs - rankedAtMs < rerankEveryMs && tracked.length > 0) return;
    rankedAtMs = event.tsMs;
    tracked = rankTracked(event.markets, new Set(tracked), limits.trackedPairsMax,
      limits.trackedRankExitMax);
    assignment = assignShards(tracked, config.shards, assignment);
    views.setTracked(tracked);
    runtime?.setTracked(perShard()).catch((error: Error) => log.warn(
      're-assigning pairs failed; the shard picks them up on restart', { error: error.message }));
  };
  const universeFeed = createUniverseFeed(spec, {
    clock, logger: log.child({ component: 'universe' }), cadenceMs: config.universeCadenceMs,
  });
  universeFeed.start((event: UniverseFeedEvent) => {
    if (event.type === 'funding') positioning.applyFunding(event);
    else if (event.type === 'wallet') positioning.applyWallet(event);
    else {
      views.applyUniverse(event);
      rerank(event);
      firstUniverse();
    }
  });
  await Promise.race([universeSeen, new Promise((r) => setTimeout(r, firstUniverseWaitMs))]);

  views.refresh(Date.now());
  positioning.refreshFunding();
  positioning.refreshWallets(clock.nowMs(), views.universe, tracked);
  const onCadence = () => {
    views.refresh(Date.now());
    const prices = tracked.map((symbol) =>
      ({ symbol, price: views.summaryOf(symbol)?.price ?? null }));
    signals.onPrices(prices, views.screenerRows, marketNowMs);
  };
  const background = (what: string, work: () => Promise<unknown>) => () => {
    work().catch((error: Error) => log.error(`${what} failed`, { error: error.message }));
  };
  const timers = [
    setInterval(onCadence, config.cadenceMs),
    setInterval(() => signals.reloadAlerts(), alertsPollMs),
    setInterval(background('outcome evaluation', () => signals.evaluateOutcomes()),
      outcomesEveryMs),
    setInterval(background('pruning', () => signals.prune()), pruneEveryMs),
    setInterval(() => positioning.refreshFunding(), config.universeCadenceMs),
    setInterval(() => positioning.refreshWallets(clock.nowMs(), views.universe, tracked),
      positioningCadenceMs),
  ];
  // The front answers /healthz while the shards boot; /readyz says when they are up.
  const readiness = () => {
    const checks = {
      universe: views.universe.length > 0,
      shards: runtime !== null && runtime.shards.every((s) => s.state === 'running'),
      snapshots: snapshots.get('screener') !== undefined,
    };
    return { ready: Object.values(checks).every(Boolean), checks };
  };
  const access = createAccessControl({ config, clock, keys: store.keys, usage: store.usage });
  const mcp = createMcpMounts({
    access, data: createMcpData(snapshots), clock, logger: log.child({ component: 'mcp' }),
  });
  const http = await startHttpServer({
    config, clock, logger: log.child({ component: 'http' }), snapshots,
    keys: store.keys, usage: store.usage, readiness, access, mounts: mcp,
  });

  runtime = await startActorRuntime({
    shardCount: config.shards,
    assignment: perShard(),
    shardParams: {
      feed: encodeFeedSpec(spec), cadenceMs: config.cadenceMs,
      mailboxCapacity: limits.shardMailboxEventsMax, allowCrash: deps.allowShardCrash ?? false,
      logLevel: config.logLevel, chartBaseUrl: config.chartBaseUrl,
    },
    logger: log.child({ component: 'supervisor' }),
    host: {
      onPublish: (message: ShardPublish) => {
        for (const pair of message.pairs) marketNowMs = Math.max(marketNowMs, pair.updatedAtMs);
        views.applyPairViews(message.pairs, Date.now());
        positioning.applyWhalePrints(message.whalePrints);
        signals.onOutbound(message.outbound);
      },
    },
  });

  const hostPart = config.host.includes(':') ? `[${config.host}]` : config.host;
  const baseUrl = `http://${hostPart}:${http.port}`;
  log.info('service started', { baseUrl, feed: config.feed, shards: config.shards,
    tracked: tracked.length });

  let stopped: Promise<void> | null = null;
  return {
    baseUrl, port: http.port, snapshots, runtime,
    stop() {
      stopped ??= (async () => {
        await mcp.close();
        await http.close();
        for (const timer of timers) clearInterval(timer);
        await universeFeed.stop();
        await runtime!.stop();
        await signals.close();
        await webhooks.stop();
        await store.close();
        log.info('service stopped');
      })();
      return stopped;
    },
  };
}
