// The simulator as the main thread's UniverseFeed: universe and funding every cadence, wallet
// states every wallet cadence, all on the simulator's market time.
import { simWorld } from '../feed/sim/sim-world.js';
import { simFundingAt, simUniverseAt, simWalletsAt } from '../feed/sim/sim-universe.js';
import { createPacer } from '../feed/pacer.js';
import type { UniverseFeed, UniverseFeedDeps, UniverseFeedEvent } from './universe-types.js';

export interface SimUniverseOptions extends UniverseFeedDeps {
  readonly seed: number;
  readonly speed: number;
  readonly startMs: number;
  readonly tickMs?: number;
}

export function createSimUniverseFeed(options: SimUniverseOptions): UniverseFeed {
  const world = simWorld(options.seed);
  const walletCadenceMs = options.walletCadenceMs ?? 60_000;
  if (!(options.cadenceMs > 0)) throw new TypeError('cadenceMs must be > 0');
  const pacer = createPacer({ ...options, stepMs: options.cadenceMs });
  let nextUniverseMs = options.startMs;
  let nextWalletMs = options.startMs;
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
      if (nextWalletMs <= nextUniverseMs) {
        for (const event of simWalletsAt(world, nextUniverseMs)) sink(event);
        nextWalletMs = nextUniverseMs + walletCadenceMs;
      }
      nextUniverseMs += options.cadenceMs;
    }
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
