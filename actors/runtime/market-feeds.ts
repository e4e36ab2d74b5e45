// The main thread's market feeds for a config: the universe (screener, funding, simulated or
// replayed wallets), the live venue's shared request budget, and live wallet polling.
import type { Clock } from '../../core/clock.js';
import { systemClock } from '../../core/clock.js';
import type { ServiceConfig } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import type { FeedSpec } from '../feed/feed-types.js';
import { createSharedBudget, type SharedBudget } from '../feed/budget.js';
import { createInfoClient } from '../feed/home/info-client.js';
import { clearinghouseToWallet } from '../feed/home/clearinghouse.js';
import { createUniverseFeed, type UniverseFeed, type UniverseFeedEvent }
  from '../universe/universe-feed.js';
import {
  createWalletPoller, type WalletPollTarget, type WalletPoller,
} from '../positioning/wallet-poller.js';

/** Live wallet polls: a round every 10 s of at most this many clearinghouseState requests. */
const walletPollBatchMax = 10;
const walletPollCadenceMs = 10_000;

export interface MarketFeeds {
  readonly spec: FeedSpec;
  /** Wall time at which the spec's market clock read its start (see ShardParams). */
  readonly anchorWallMs: number;
  /** The venue budget every worker attaches to (live only). */
  readonly budget: SharedBudget | null;
  start(sink: (event: UniverseFeedEvent) => void): void;
  stop(): Promise<void>;
}

/**
 * `simAnchorMs`: where the simulated prices start from their references (the data dir's, from
 * persistence/sim-anchor.ts); absent, this run's own warm-up start.
 */
export function feedSpecOf(config: ServiceConfig, startMs: number,
  simAnchorMs?: number): FeedSpec {
  if (config.feed === 'live') {
    return { kind: 'live', wsUrl: config.homeWsUrl, infoUrl: config.homeInfoUrl,
      backfill: { lookbackMs: config.backfillHours * 3_600_000,
        waitMs: config.backfillWaitS * 1_000,
        retryDelaysMs: config.backfillRetryS.map((s) => s * 1_000) } };
  }
  if (config.feed === 'replay') {
    return { kind: 'replay', file: config.replayFile!, speed: config.speed };
  }
  const warmupMs = config.warmupHours * 3_600_000;
  return { kind: 'sim', seed: config.simSeed, speed: config.speed, startMs,
    walletsTracked: config.simWallets, warmupMs, informedShare: config.simInformedShare,
    anchorMs: simAnchorMs ?? startMs - warmupMs };
}

export function createMarketFeeds(config: ServiceConfig, deps: {
  clock: Clock; logger: Logger; tracker: WalletPollTarget;
  /** Simulator: market time the shards reached (the universe follows it). */
  marketLimitMs?: () => number;
  /** Simulator: the data dir's anchor, given this run's warm-up start (its first run's). */
  simAnchorMs?: (warmupStartMs: number) => number;
}): MarketFeeds {
  const startMs = deps.clock.nowMs();
  const spec = feedSpecOf(config, startMs, config.feed === 'sim'
    ? deps.simAnchorMs?.(startMs - config.warmupHours * 3_600_000) : undefined);
  const anchorWallMs = Date.now();
  // The venue's limits are per IP and real time: the budget runs on the wall clock.
  const budget = spec.kind === 'live' ? createSharedBudget(systemClock) : null;
  const universe: UniverseFeed = createUniverseFeed(spec, {
    clock: deps.clock, logger: deps.logger.child({ component: 'universe' }),
    cadenceMs: config.universeCadenceMs, budget: budget ?? undefined,
    marketLimitMs: deps.marketLimitMs,
  });
  let poller: WalletPoller | null = null;
  if (spec.kind === 'live' && budget) {
    const info = createInfoClient({ url: spec.infoUrl, budget, clock: systemClock });
    poller = createWalletPoller({
      tracker: deps.tracker, clock: deps.clock, logger: deps.logger.child({ component: 'wallets' }),
      cadenceMs: walletPollCadenceMs, batchMax: walletPollBatchMax,
      poll: async (address) => {
        const state = await info.clearinghouseState(address);
        return state.ok ? clearinghouseToWallet(state.value, address, deps.clock.nowMs()) : null;
      },
    });
  }
  return {
    spec, budget, anchorWallMs,
    start(sink) {
      universe.start(sink);
      poller?.start();
    },
    async stop() {
      await poller?.stop();
      await universe.stop();
    },
  };
}
