// The service: wires the store, the feeds, the actor runtime, the views, webhooks and the HTTP
// front, and owns the order of start-up and of graceful shutdown.
import { systemClock, shiftedClock, type Clock } from '../core/clock.js';
import type { ServiceConfig } from '../core/config.js';
import { limits } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { UniverseFeedEvent } from '../actors/universe/universe-feed.js';
import { openStore, type Store } from '../persistence/store.js';
import { SnapshotStore } from '../http/snapshots.js';
import { startHttpServer } from '../http/server.js';
import { preloadArrow } from '../http/history-formats.js';
import { createAccessControl } from '../http/access.js';
import { createSharedAccessControl } from '../scale-out/shared-access.js';
import { mcpMounts } from './scale-out/front-service.js';
import { SnapshotPublisher } from '../scale-out/publisher.js';
import { HistoryPublisher } from '../scale-out/history-publisher.js';
import { historyBacklogMs } from '../scale-out/history-backlog.js';
import type { SharedState } from '../scale-out/shared-state.js';
import { encodeFeedSpec } from '../actors/shard/shard-params.js';
import { createWebhookSupervisor, type WebhookSupervisor } from '../actors/webhooks/supervisor.js';
import { createMarketFeeds, type MarketFeeds } from '../actors/runtime/market-feeds.js';
import { RemoteMarketViews } from '../actors/runtime/remote-market-views.js';
import { SignalPipeline } from '../actors/runtime/signal-pipeline.js';
import { startActorRuntime, type ActorRuntime } from '../actors/runtime/supervisor.js';
import { workersConstructed } from '../actors/runtime/comedy-loader.js';
import { TrackedSet } from '../actors/runtime/tracked-set.js';
import { createDashboardFor } from './dashboard.js';
import { FootprintRecorder } from '../actors/footprint/recorder.js';
import { HistoryRecorder } from '../actors/runtime/history-recorder.js';
import { SlicedQueue } from '../actors/runtime/sliced-queue.js';
import { StoreAfterViews } from '../actors/runtime/store-after-views.js';
import { PastPuller } from '../actors/runtime/past-puller.js';
import {
  protocolTypes, type PastMessage, type ProtocolHandlers, type ShardHistory, type ShardPairStates,
  type ShardPast, type ShardPublish,
} from '../actors/shard/protocol.js';
import { BackfillStatus } from '../actors/runtime/backfill-status.js';
import { PairStateStore } from '../persistence/pair-states.js';
import { simAnchorMs } from '../persistence/sim-anchor.js';
import { MarketPace } from '../actors/runtime/market-pace.js';
import { registerServiceMetrics } from './service-metrics.js';
import { supervisionDetail } from '../actors/runtime/supervision-detail.js';

export interface Service {
  readonly baseUrl: string;
  readonly port: number;
  readonly snapshots: SnapshotStore;
  readonly runtime: ActorRuntime;
  /** A graceful stop, the shards given the default bound. */
  stop(): Promise<void>;
  /**
   * A graceful stop whose shards must finish by `shardsUntilMs` (performance.now): what is
   * acknowledged goes to disk first, then the shards' last outputs and their pairs' states.
   */
  stopWithin(shardsUntilMs: number): Promise<StopResult>;
  /** Settles once a stop has put everything acknowledged on disk (its first step). */
  acknowledgedFlushed(): Promise<void>;
}

export interface StopResult {
  /** False when a shard did not finish its stop in time: some pair states are not saved. */
  readonly clean: boolean;
  /** Milliseconds from the stop's start to the end of each of its steps. */
  readonly stepsMs: Readonly<Record<string, number>>;
}

/** Test hooks for a stop that cannot finish (test/e2e/stop.test.ts); never set in production. */
export type StopHang = 'shard' | 'main';

export interface ServiceDeps {
  readonly logger: Logger;
  /** The service (delivery) clock; default: wall clock, shifted to config.clockStartMs. */
  readonly clock?: Clock;
  /** Lets tests crash shards on purpose. */
  readonly allowShardCrash?: boolean;
  /** Test hook: a shard's stop, or the main thread after its first step, hangs. */
  readonly stopHang?: StopHang;
  /** Test hook, with allowShardCrash: this shard exits right after every start. */
  readonly crashShardAtStart?: number;
  /** Called as soon as the HTTP front listens, before the shards have started. */
  readonly onListening?: (baseUrl: string) => void;
  /** Scale-out (role ingest): keys and limits in Redis, every snapshot published there. */
  readonly shared?: SharedState;
}

/** How long start-up waits for the first universe before starting with no tracked pairs. */
const firstUniverseWaitMs = 10_000;
/** Wallet views are heavy with many wallets; they refresh on their own, slower cadence. */
const positioningCadenceMs = 15_000;
/** Alerts added by the admin command line are seen within this. */
const alertsPollMs = 1_000;
const outcomesEveryMs = 5_000;
const pruneEveryMs = 3_600_000;
/** History is trimmed to its retention in the background this often. */
const historyPruneEveryMs = 600_000;
/** Pair states are saved this often and at a graceful stop (docs/decisions.md, Warm start). */
const pairStateSaveEveryMs = 60_000;
/** How long stop() (tests, benches) gives the shards; `orderflow serve` passes its deadline's. */
const shardStopWaitMsDefault = 3_000;
/** The achieved market speed is sampled this often (market-pace.ts). */
const paceSampleMs = 1_000;

/** Everything on the main thread that the feeds and the shards feed. */
interface Parts {
  readonly config: ServiceConfig;
  readonly clock: Clock;
  readonly log: Logger;
  readonly store: Store;
  readonly snapshots: SnapshotStore;
  /** Screener, pair details, signals and the wallet views, built in the views worker. */
  readonly views: RemoteMarketViews;
  readonly webhooks: WebhookSupervisor;
  readonly signals: SignalPipeline;
  readonly tracked: TrackedSet;
  readonly feeds: MarketFeeds;
  readonly shared: SharedState | null;
  readonly publisher: SnapshotPublisher | null;
  /** History points and stored signals for the fronts (scale-out only). */
  readonly historyPublisher: HistoryPublisher | null;
  readonly history: HistoryRecorder;
  /** Closed footprint bars into the store (docs/footprint.md). */
  readonly footprints: FootprintRecorder;
  runtime: ActorRuntime | null;
  /** The market speed the shards achieve (a paced feed: the simulator), once they run. */
  pace: MarketPace | null;
  marketNowMs: number;
  /** Market time the simulator's warm-up ends (0: none). */
  readonly warmupEndMs: number;
  /** The pairs the shards have published (a shard publishes a pair once its warm-up is done). */
  readonly published: Set<string>;
  /** The warm-up's past is written (set once, by the readiness check). */
  pastWritten: boolean;
  /** The shards' publishes, applied in order in short slices (sliced-queue.ts). */
  publishes?: SlicedQueue<ShardPublish>;
  /** The cadence refresh in flight (in slices), null between two. */
  cadenceRefresh: Promise<void> | null;
  /** Their closed bars, signals and history points, written after the views. */
  readonly storeWrites: StoreAfterViews;
  /** A warm-up's past, held by the shards and pulled once the views are in. */
  readonly past: PastPuller;
  /** The live backfill per tracked pair (always holds on other feeds or with backfill off). */
  readonly backfill: BackfillStatus;
  /** Saved pair states; null for a replay, which plays its tape from its start. */
  readonly pairStates: PairStateStore | null;
  /** A stop began: the shards' last publishes bring outputs to store, no views to serve. */
  stopping: boolean;
}

/** A slice of publish work: short enough that a poll waits at most about this long for it. */
const publishSliceMs = 1;

/**
 * One shard publish: its pairs' views stored as they came (no build, no hash: one unit), their
 * summaries on to the views worker in one message, which builds the pair details (and signals
 * at once for a first publish).
 */
function* applyPublish(p: Parts, message: ShardPublish): Generator<void> {
  if (p.stopping) return storeOutbound(p, message.outbound);
  p.views.applyPairViews(message.pairs, Date.now());
  yield;
  p.views.positioning.applyWhalePrints(message.whalePrints);
  storeOutbound(p, message.outbound);
}

/** Closed bars and entry signals: to the signal pipeline, after the views (store-after-views). */
function storeOutbound(p: Parts, outbound: ShardPublish['outbound']): void {
  p.storeWrites.push(outbound, (items) => {
    p.signals.onOutbound(items);
    p.footprints.onOutbound(items);
  });
}

async function createParts(config: ServiceConfig, deps: ServiceDeps): Promise<Parts> {
  const log = deps.logger;
  const clock = deps.clock ??
    (config.clockStartMs === null ? systemClock : shiftedClock(config.clockStartMs));
  const store = await openStore({ dataDir: config.dataDir, clock, logger: log });
  const shared = deps.shared ?? null;
  // With scale-out the publisher keeps each view's last bytes: this store is not their one holder.
  const snapshots = new SnapshotStore({ releaseMoved: shared === null });
  const publisher = shared &&
    new SnapshotPublisher(shared.link, log.child({ component: 'publish' }));
  // The one place views enter the store: with scale-out they also go to Redis for the fronts.
  const sink = publisher?.sink(snapshots) ?? snapshots;
  const keys = shared?.keys ?? store.keys;
  const views = new RemoteMarketViews(sink, { cadenceMs: config.cadenceMs,
    universeCadenceMs: config.universeCadenceMs, fundingCadenceMs: positioningCadenceMs,
    walletCadenceMs: positioningCadenceMs, workerNice: config.workerNice },
  log.child({ component: 'views' }), config.logLevel);
  const webhooks = createWebhookSupervisor({
    root: store.root, clock, logger: log.child({ component: 'webhooks' }), keys,
    allowPrivate: config.allowPrivateWebhooks,
  });
  const signals = new SignalPipeline({
    root: store.root, bulkRoot: store.bulk, webhooks, keys, clock,
    chartBaseUrl: config.chartBaseUrl,
    logger: log.child({ component: 'signals' }),
    fundingAnnualizedPct: (symbol) =>
      views.screenerRows.find((row) => row.symbol === symbol)?.fundingAnnualized ?? null,
  });
  // The simulated universe runs on the market time the shards reached, never ahead of it:
  // its re-ranks come at the pace the shards set (the start's until they pace).
  let shardsMarketMs = -Infinity;
  const feeds = createMarketFeeds(config, { clock, logger: log, tracker: views.positioning,
    simAnchorMs: (warmupStartMs) => simAnchorMs(store.root, warmupStartMs),
    marketLimitMs: () => {
      const reachedMs = parts.runtime?.board.slowestMs() ?? NaN;
      if (reachedMs > shardsMarketMs) shardsMarketMs = reachedMs;
      return feeds.spec.kind === 'sim' ? Math.max(shardsMarketMs, feeds.spec.startMs) : Infinity;
    } });
  const history = new HistoryRecorder(store.bulk, { minuteRetentionDays: config.historyMinuteDays,
    hourRetentionDays: config.historyHourDays }, clock, log.child({ component: 'history' }));
  const warmupEndMs = feeds.spec.kind === 'sim' && (feeds.spec.warmupMs ?? 0) > 0
    ? feeds.spec.startMs : 0;
  // Live backfill: bars closed from the venue's candles before the start (venue time, the
  // service clock) are the past too, and so is a restored pair's gap the simulator generates
  // (also with --warmup 0): no webhooks for them.
  const backfilled = feeds.spec.kind === 'live' && (feeds.spec.backfill?.lookbackMs ?? 0) > 0;
  signals.setWarmupEnd(feeds.spec.kind === 'sim' ? feeds.spec.startMs
    : backfilled ? clock.nowMs() : warmupEndMs);
  const historyPublisher = shared && new HistoryPublisher(shared.link, signals.signalStore,
    historyBacklogMs(process.env), log.child({ component: 'history-publish' }), history.store);
  const pairStates = feeds.spec.kind === 'replay' ? null : new PairStateStore(store.bulk, clock);
  const parts: Parts = { config, clock, log, store, snapshots, views, webhooks,
    signals, feeds, shared, publisher, historyPublisher, history,
    footprints: new FootprintRecorder(store.bulk, { '5m': config.footprint5mDays,
      '15m': config.footprint15mDays, '1h': config.footprint1hDays }),
    tracked: new TrackedSet(config.shards), runtime: null, pace: null,
    marketNowMs: 0, warmupEndMs, published: new Set(), pastWritten: false,
    backfill: new BackfillStatus(backfilled), pairStates,
    cadenceRefresh: null, stopping: false,
    storeWrites: new StoreAfterViews(() => (parts.publishes?.pending ?? 0) > 0, (error) =>
      log.error('storing shard outputs failed', { error: error.message })),
    past: new PastPuller({
      pull: (shardId, all) => parts.runtime?.shards[shardId]?.pullPast(all) ?? false,
      viewsPending: () => (parts.publishes?.pending ?? 0) > 0,
      allPublished: () => views.unpublishedCount() === 0,
      wantAll: () => warmupEndMs > 0 && !parts.pastWritten,
      nowMs: () => performance.now(),
    }),
  };
  // Until the warm-up's past is written (/readyz waits for it) its batches go at once, not in
  // turns of a few ms: no client is served the data they hold yet.
  if (warmupEndMs > 0) parts.storeWrites.hurry();
  // The warm-up's signals are graded once its past is in, in market-time order, on the outcome
  // timer or a /readyz poll, whichever comes first.
  if (warmupEndMs > 0) signals.setPastSettled(() => isPastSettled(parts));
  return parts;
}

/** Starts the universe feed; resolves once the first universe is in (or after a bound). */
async function startUniverse(p: Parts): Promise<void> {
  let firstUniverse: () => void = () => {};
  const seen = new Promise<void>((resolve) => { firstUniverse = resolve; });
  p.feeds.start((event: UniverseFeedEvent) => {
    if (event.type === 'funding') p.views.applyFunding(event);
    else if (event.type === 'wallet') p.views.positioning.applyWallet(event);
    else {
      p.views.applyUniverse(event);
      if (p.tracked.rerank(event)) {
        p.views.setTracked(p.tracked.symbols);
        p.runtime?.setTracked(p.tracked.perShard()).catch((error: Error) => p.log.warn(
          're-assigning pairs failed; a shard picks them up on restart', { error: error.message }));
      }
      firstUniverse();
    }
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([seen, new Promise((r) => { timer = setTimeout(r, firstUniverseWaitMs); })]);
  clearTimeout(timer);
}

/**
 * Hands each shard its pairs' smart-money split once the wallets are rebuilt, over its port: the
 * shard closes their deep views with it (the only splice), so this thread stores them as sent.
 */
function pushSmartMoney(p: Parts): void {
  for (const shard of p.runtime?.shards ?? []) {
    const bySymbol: Record<string, string> = {};
    for (const symbol of shard.pairs) {
      bySymbol[symbol] = p.views.positioning.smartMoneyJson(symbol);
    }
    shard.setSmartMoney(bySymbol);
  }
}

/** The periodic work of the main thread; returns the timers to clear at shutdown. */
function startTimers(p: Parts): NodeJS.Timeout[] {
  const { views, signals, config, clock } = p;
  // The cadence refresh runs in the views worker; one at a time: a cadence that finds the last
  // one still running skips, the next one catches up.
  const onCadence = () => {
    if (p.cadenceRefresh !== null) return;
    p.cadenceRefresh = views.refresh(Date.now()).then(() => {
      const prices = p.tracked.symbols.map((symbol) =>
        ({ symbol, price: views.summaryOf(symbol)?.price ?? null }));
      signals.onPrices(prices, views.screenerRows, p.marketNowMs);
    }).catch((error: Error) => p.log.error('cadence refresh failed', { error: error.message }))
      .finally(() => { p.cadenceRefresh = null; });
  };
  const background = (what: string, work: () => Promise<unknown>) => () => {
    work().catch((error: Error) => p.log.error(`${what} failed`, { error: error.message }));
  };
  views.positioning.onSmartMoney(() => pushSmartMoney(p));
  const refreshWallets = () => {
    void views.positioning.refreshWallets(clock.nowMs(), p.tracked.symbols);
  };
  // In the views worker too: with every listed symbol the arbitrage view is milliseconds of work.
  const refreshFunding = () => { void views.refreshFunding(); };
  onCadence();
  refreshFunding();
  refreshWallets();
  return [
    setInterval(onCadence, config.cadenceMs),
    setInterval(() => signals.reloadAlerts(), alertsPollMs),
    setInterval(background('outcome evaluation', () => signals.evaluateOutcomes()),
      outcomesEveryMs),
    setInterval(background('pruning', () => signals.prune()), pruneEveryMs),
    setInterval(background('footprint pruning', () => p.footprints.prune()), pruneEveryMs),
    setInterval(background('history trimming', () => p.history.prune()), historyPruneEveryMs),
    setInterval(refreshFunding, config.universeCadenceMs),
    setInterval(refreshWallets, positioningCadenceMs),
    setInterval(() => p.pace?.sample(), paceSampleMs),
  ];
}

/** Every tracked pair has published after the warm-up (true without one). */
function isWarmedUp(p: Parts): boolean {
  return p.warmupEndMs === 0 || (p.tracked.symbols.length > 0 &&
    p.tracked.symbols.every((symbol) => p.published.has(symbol)));
}

/** The warm-up's past (bars, signals) has all reached the signal pipeline. */
function isPastSettled(p: Parts): boolean {
  return isWarmedUp(p) && p.past.settled && p.storeWrites.pending === 0 &&
    (p.publishes?.pending ?? 0) === 0;
}

/**
 * The HTTP front. `assigned` settles once the shards have their pairs: with a warm-up to run,
 * the MCP module (a noticeable load on this thread) loads after it, while the shards warm up,
 * so it does not hold back their boot and the start of their warm-up; without one it loads at
 * once, its load being then on the way to /readyz.
 */
async function startFront(p: Parts, assigned: Promise<void>) {
  const { config, clock, store, snapshots, views } = p;
  // The front answers /healthz while the shards boot; /readyz says when they are up.
  const warmedUp = () => isWarmedUp(p);
  let pastFlush: Promise<void> | null = null;
  const pastWritten = () => {
    if (p.pastWritten || pastFlush !== null || !isPastSettled(p)) return p.pastWritten;
    if (p.signals.pastHeld > 0) {
      void p.signals.evaluateOutcomes().catch((error: Error) =>
        p.log.error('grading the warm-up\'s signals failed', { error: error.message }));
      return false;
    }
    // Committed, not only queued: a query at the first 200 reads every point.
    pastFlush = p.history.store.flush().then(() => {
      p.pastWritten = true;
      p.storeWrites.calm();
    }, () => { pastFlush = null; });
    return false;
  };
  const readiness = () => {
    const checks = {
      universe: views.universe.length > 0,
      shards: p.runtime !== null && p.runtime.shards.every((s) => s.state === 'running'),
      snapshots: snapshots.get('screener') !== undefined,
      // Every tracked pair readable in full (deep view, CVD, pair detail, signals entry), so a
      // client that waited for 200 never meets not_tracked or a missing signals entry.
      pairs: p.tracked.symbols.length > 0 && views.unpublishedCount() === 0,
      mcp: mcp.loaded(),
      arrow: arrowLoaded(),
      // Every tracked pair has published after the simulator's warm-up (its market hours before
      // the start): its numbers rest on that history from the first answer. A shard publishes a
      // pair only once its warm-up reached the start (shard-actor.ts skips warming pairs). Not
      // its newest event's market time: a quiet market's last tick can fall just before the
      // start, which held /readyz until its next publish (0.3-0.6 s, bench/README.md).
      warmup: warmedUp(),
      // The warm-up's past (bars, signals, history points) is written too: the Pair page's charts
      // show the week from the first answer, and a stop right after ready does not write it.
      past: p.warmupEndMs === 0 || pastWritten(),
      // Live: every tracked pair was filled from candles, or given up on after the bounded wait.
      backfill: p.backfill.check(p.tracked.symbols),
    };
    const detail = supervisionDetail(p.runtime?.shards ?? [], p.pace);
    const backfill = p.backfill.detail(p.tracked.symbols);
    if (backfill !== null) detail.backfill = backfill;
    return { ready: Object.values(checks).every(Boolean), checks,
      detail: Object.keys(detail).length === 0 ? undefined : detail };
  };
  const keys = p.shared?.keys ?? store.keys;
  const access = p.shared === null
    ? createAccessControl({ config, clock, keys, usage: store.usage })
    : createSharedAccessControl({ config, clock, keys, usage: store.usage,
      limits: p.shared.limits, redisReady: p.shared.link.ready, fresh: () => true });
  const historySource = { store: p.history.store, signals: p.signals.signalStore, clock };
  const mcpAfter = p.warmupEndMs > 0 ? assigned.catch(() => {}) : undefined;
  const mcp = mcpMounts(access, snapshots, clock, p.log, historySource, mcpAfter,
    p.footprints.store);
  // The Arrow library loads as the MCP module does, so the first Arrow history answer is not 503.
  const arrowLoaded = preloadArrow(mcpAfter);
  const dashboard = createDashboardFor({ config, clock, store, keys, access, webhooks: p.webhooks,
    shared: p.shared ?? undefined, logger: p.log.child({ component: 'dashboard' }) });
  const http = await startHttpServer({
    config, clock, logger: p.log.child({ component: 'http' }), snapshots,
    keys, usage: store.usage, readiness, access, mounts: mcp.mounts, dashboard,
    history: historySource, footprints: p.footprints.store,
    registerMetrics: (registry) => registerServiceMetrics(registry, {
      shards: () => p.runtime?.shards ?? [], meters: () => p.runtime?.meters ?? [],
      pace: () => p.pace, tracked: () => p.tracked.symbols,
      backfill: p.backfill, budget: p.feeds.budget, webhooks: p.webhooks,
      redis: p.shared?.link ?? null, redisLimits: p.shared?.limits ?? null,
      dataDir: config.dataDir, storePaths: [p.store.path, p.store.bulkPath],
      storeReopens: () => p.store.bulkReopens(),
      signals: p.signals, history: p.history, clock,
    }),
  });
  return { http, mcp, dashboard };
}

/** Starts the shard workers: they boot while the universe and the front start. */
function startShards(p: Parts, deps: ServiceDeps): Promise<ActorRuntime> {
  const { config } = p;
  return startActorRuntime({
    shardCount: config.shards,
    // Read once comedy is loaded: the simulator's universe is in by then, and the shards start
    // with their pairs instead of getting them a round trip after they booted.
    assignment: () => (p.tracked.symbols.length > 0 ? p.tracked.perShard() : []),
    shardParams: {
      feed: encodeFeedSpec(p.feeds.spec), cadenceMs: config.cadenceMs,
      mailboxCapacity: limits.pairMailboxEventsMax, allowCrash: deps.allowShardCrash ?? false,
      crashAtStartShardId: deps.crashShardAtStart,
      logLevel: config.logLevel, workerNice: config.workerNice,
      budgetBuffer: p.feeds.budget?.buffer ?? null, feedAnchorWallMs: p.feeds.anchorWallMs,
      stateSaveEveryMs: p.pairStates ? pairStateSaveEveryMs : 0,
      hangOnStop: deps.stopHang === 'shard',
    },
    logger: p.log.child({ component: 'supervisor' }),
    host: {
      onPublish: (message: ShardPublish) => {
        for (const pair of message.pairs) {
          p.marketNowMs = Math.max(p.marketNowMs, pair.updatedAtMs);
          p.published.add(pair.symbol);
        }
        p.publishes ??= new SlicedQueue((next: ShardPublish) => applyPublish(p, next),
          publishSliceMs, (error) => p.log.error('applying a shard publish failed',
            { error: error.message }));
        p.publishes.push(message);
      },
      onHistory: (message) => onHistory(p, message),
      onBackfill: (message) => {
        p.backfill.onReport(message.report);
        p.signals.onBackfill(message.report.symbol, message.report.state);
      },
      onPairStates: (message) => onPairStates(p, message),
      onPastHeld: (message) => p.past.onHeld(message.shardId, message.left),
      onPastAnswer: (message) => onPastAnswer(p, message),
      onShardRestarted: (shardId) => p.past.onShardRestarted(shardId),
      // A shard that stays down holds nothing more to pull.
      onShardDegraded: (shardId) => p.past.onShardRestarted(shardId),
      loadPairStates: p.pairStates ? (symbols) => p.pairStates!.load(symbols) : undefined,
      // A backfilled pair starts from the context the universe already fetched: the venue's
      // own may come late or never, and VPIN's buckets need V before the candles go in.
      pairContexts: p.feeds.spec.kind === 'live' ? (symbols) => p.views.contextsOf(symbols)
        : undefined,
    },
  });
}

function onHistory(p: Parts, message: ShardHistory): void {
  p.storeWrites.push(message.points, (points) => {
    p.history.onHistory({ ...message, points });
    p.historyPublisher?.points(points);
  });
}

/**
 * Behind the bars and history points that came before them (store-after-views.ts): the store
 * never holds a state ahead of what it was taken after, also when a stop is cut short.
 */
function onPairStates(p: Parts, message: ShardPairStates): void {
  p.storeWrites.push(message.states, (states) => {
    void p.pairStates?.save(states).catch((error: Error) =>
      p.log.warn('pair states not saved', { error: error.message }));
  });
}

/**
 * A held message of a shard's past: its bars and signals go straight to the store writes (it was
 * pulled with no publish pending, so nothing earlier of that shard is still queued before them).
 */
function onPastAnswer(p: Parts, answer: ShardPast): void {
  const held: ProtocolHandlers<PastMessage> = {
    [protocolTypes.publish]: (message) => storeOutbound(p, message.outbound),
    [protocolTypes.history]: (message) => onHistory(p, message),
    [protocolTypes.pairStates]: (message) => onPairStates(p, message),
  };
  const message = answer.message;
  if (message) (held[message.type] as (m: PastMessage) => void)(message);
  p.past.onAnswer(answer.shardId, answer.left);
}

/**
 * Stops the producers, then the consumers that persist (the front is closed before this). What
 * was acknowledged (keys, usage, outbox, alerts, signals) goes to disk first: a stop cut short
 * by its deadline then loses only the shards' last outputs and the pairs' states, which only
 * speed up the next start.
 */
async function stopParts(p: Parts, timers: readonly NodeJS.Timeout[], runtime: ActorRuntime | null,
  shardsUntilMs: number, steps: StopSteps, hang?: StopHang): Promise<boolean> {
  for (const timer of timers) clearInterval(timer);
  p.stopping = true;
  p.past.stop();
  p.storeWrites.hurry();
  await p.store.flush();
  steps.mark('acknowledged');
  if (hang === 'main') hangMainThread();
  await p.feeds.stop();
  // The shards send what they hold, their last outputs and states while this thread stores.
  const clean = (await runtime?.stop(shardsUntilMs)) ?? true;
  steps.mark('shards');
  await p.publishes?.drained();
  await p.storeWrites.drained();
  await p.pairStates?.flush();
  steps.mark('outputs');
  await p.cadenceRefresh;
  await p.views.stop();
  await p.signals.close();
  await p.footprints.close();
  await p.history.close();
  await p.webhooks.stop();
  p.publisher?.stop();
  await p.historyPublisher?.stop();
  await p.shared?.close();
  await p.store.close();
  steps.mark('closed');
  return clean;
}

/** Test hook: this thread stuck in work, so no timer of its own can end the stop. */
function hangMainThread(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

/** When each step of a stop ended, from its start (logged and reported by serve). */
class StopSteps {
  readonly ms: Record<string, number> = {};
  private readonly startMs = performance.now();
  constructor(private readonly onMark: (step: string) => void = () => {}) {}
  mark(step: string): void {
    this.ms[step] = Math.round(performance.now() - this.startMs);
    this.onMark(step);
  }
}

export async function startService(config: ServiceConfig, deps: ServiceDeps): Promise<Service> {
  const p = await createParts(config, deps);
  p.webhooks.start();
  p.publisher?.start();
  p.historyPublisher?.start();
  // Booting a worker is ~0.5-1 s, most of it comedy's own start-up: on 2 cores it overlaps the
  // main thread's universe and front, and the shards get their pairs once the universe ranked
  // them (the same path as an hourly re-rank).
  const constructed = workersConstructed(config.shards);
  const booting = startShards(p, deps);
  booting.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  // The views worker starts beside them; what the universe sends before it runs, it gets then.
  const viewsStarted = p.views.start();
  viewsStarted.catch(() => {}); // awaited below, as `booting` is
  let front: Awaited<ReturnType<typeof startFront>> | null = null;
  let timers: NodeJS.Timeout[] = [];
  let baseUrl = '';
  let runtime: ActorRuntime;
  try {
    await startUniverse(p);
    // The shards get their pairs as soon as they run, not once the front is up: the warm-up
    // they then run is what /readyz waits for. Re-ranks from then on reach them directly.
    const assigned = booting.then((started) => {
      p.runtime = started;
      if (p.feeds.spec.kind === 'sim') {
        p.pace = new MarketPace(started.board, p.clock, config.speed);
      }
      return started.setTracked(p.tracked.perShard());
    });
    assigned.catch(() => {}); // awaited below, as `booting` is
    // The front and the timers' first refreshes (~0.1-0.2 s of this thread) wait until the
    // workers exist: run before, they held back the workers' creation, so the warm-up's start.
    await Promise.race([constructed, booting.then(() => {}, () => {})]);
    timers = startTimers(p);
    front = await startFront(p, assigned);
    const hostPart = config.host.includes(':') ? `[${config.host}]` : config.host;
    baseUrl = `http://${hostPart}:${front.http.port}`;
    deps.onListening?.(baseUrl);
    runtime = await booting;
    await assigned;
    await viewsStarted;
  } catch (error) {
    // A start that fails part-way releases what it opened, as stop() would.
    await front?.mcp.close();
    await front?.http.close();
    await front?.dashboard.close();
    await stopParts(p, timers, await booting.catch(() => null),
      performance.now() + shardStopWaitMsDefault, new StopSteps());
    throw error;
  }
  const { http, mcp, dashboard } = front;
  p.log.info('service started', { baseUrl, feed: config.feed, shards: config.shards,
    tracked: p.tracked.symbols.length });
  let stopped: Promise<StopResult> | null = null;
  let flushed!: () => void;
  const acknowledged = new Promise<void>((resolve) => { flushed = resolve; });
  const stopWithin = (shardsUntilMs: number) => {
    // Order: stop taking requests, then producers, then the consumers that persist.
    stopped ??= (async () => {
      const steps = new StopSteps((step) => { if (step === 'acknowledged') flushed(); });
      await mcp.close();
      await http.close();
      await dashboard.close();
      steps.mark('front');
      const clean = await stopParts(p, timers, runtime, shardsUntilMs, steps, deps.stopHang);
      p.log.info('service stopped', { clean, stepsMs: steps.ms });
      return { clean, stepsMs: steps.ms };
    })();
    return stopped;
  };
  return {
    baseUrl, port: http.port, snapshots: p.snapshots, runtime, stopWithin,
    stop: () => stopWithin(performance.now() + shardStopWaitMsDefault).then(() => {}),
    acknowledgedFlushed: () => acknowledged,
  };
}
