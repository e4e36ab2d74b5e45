// The simulator as the main thread's UniverseFeed: universe and funding every cadence, and the
// tracked wallets' states in rotation (each once per wallet cadence, under a wall-clock budget),
// all on the simulator's market time.
import { simWorld } from '../feed/sim/sim-world.js';
import { simFundingAt, simUniverseAt } from '../feed/sim/sim-universe.js';
import { trackedWallets, walletStateAt, WALLETS_TRACKED_DEFAULT } from '../feed/sim/wallets.js';
import { createPacer } from '../feed/pacer.js';
import type { UniverseFeed, UniverseFeedDeps, UniverseFeedEvent } from './universe-types.js';
import { WalletRotation } from './wallet-rotation.js';

export interface SimUniverseOptions extends UniverseFeedDeps {
  readonly seed: number;
  readonly speed: number;
  readonly startMs: number;
  readonly tickMs?: number;
  /** Wallets whose states are reported (FeedSpec.walletsTracked). */
  readonly walletsTracked?: number;
  /** The world's informed share (FeedSpec.informedShare), as the shards simulate it. */
  readonly informedShare?: number;
  /** The world's anchor (FeedSpec.anchorMs), as the shards simulate it. */
  readonly anchorMs?: number;
}

/**
 * A wallet state costs ~15-50 us to simulate and as much to fold in on the main thread. 1,000 a
 * wall second keeps that near 5 % of a core and leaves every wallet on its wallet cadence at
 * real speed up to 12,000 wallets (60 s cadence); faster than real time, states arrive less
 * often in market time, as they would from a venue under a request budget.
 */
export const simWalletStatesPerSecondMax = 1_000;
/** At most this many states in one turn (~1-5 ms), however far market time jumped. */
export const simWalletStatesPerTurnMax = 100;

export function createSimUniverseFeed(options: SimUniverseOptions): UniverseFeed {
  const world = simWorld(options.seed, options.walletsTracked, options.informedShare,
    options.anchorMs);
  const wallets = trackedWallets(world.wallets, options.walletsTracked ?? WALLETS_TRACKED_DEFAULT);
  if (!(options.cadenceMs > 0)) throw new TypeError('cadenceMs must be > 0');
  const rotation = new WalletRotation({
    count: wallets.length, cadenceMs: options.walletCadenceMs ?? 60_000, clock: options.clock,
    statesPerSecondMax: simWalletStatesPerSecondMax, statesPerTurnMax: simWalletStatesPerTurnMax,
  });
  const pacer = createPacer({ ...options, stepMs: options.cadenceMs,
    limitMs: options.marketLimitMs });
  let nextUniverseMs = options.startMs;
  let reachedMs = options.startMs;
  let running = false;

  const advance = (toMs: number, sink: (event: UniverseFeedEvent) => void) => {
    // Bounded catch-up: after a long stall, skip to the newest instants instead of replaying all.
    if (toMs - nextUniverseMs > 10 * options.cadenceMs) {
      nextUniverseMs += Math.floor((toMs - nextUniverseMs) / options.cadenceMs) *
        options.cadenceMs;
    }
    while (running && nextUniverseMs <= toMs) {
      sink(simUniverseAt(world, nextUniverseMs));
      for (const event of simFundingAt(world, nextUniverseMs)) sink(event);
      nextUniverseMs += options.cadenceMs;
    }
    rotation.elapse(toMs - reachedMs);
    reachedMs = toMs;
    rotation.take((i) => {
      if (running) sink(walletStateAt(world.seed, wallets[i], world.liquid, toMs));
    });
  };
  return {
    start(sink) {
      if (running) throw new Error('universe feed already started');
      running = true;
      pacer.start((toMs) => advance(toMs, sink));
    },
    async stop() {
      running = false;
      pacer.stop();
    },
  };
}
