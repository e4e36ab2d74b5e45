// The simulator as a shard's PairFeed: one PairSimulator per tracked symbol, paced on market time.
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { FeedCounters } from '../feed-counters.js';
import type { EventSink, FeedStats, PairFeed } from '../feed-types.js';
import { eventSinkOf } from '../lanes.js';
import { createPacer, type Pacer } from '../pacer.js';
import { PairSimulator } from './pair-sim.js';
import { simWorld } from './sim-world.js';

export interface SimPairFeedOptions {
  readonly seed: number;
  readonly speed: number;
  readonly startMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly tickMs?: number;
  readonly stepMs?: number;
  /** Sizes the wallet population trades are attributed to (FeedSpec.walletsTracked). */
  readonly walletsTracked?: number;
}

export function createSimPairFeed(options: SimPairFeedOptions): PairFeed {
  const world = simWorld(options.seed, options.walletsTracked);
  const counters = new FeedCounters(options.clock, options.logger);
  const pacer: Pacer = createPacer(options);
  // Insertion order is the order symbols are stepped in: deterministic for a given call order.
  const sims = new Map<string, PairSimulator>();
  let wanted: readonly string[] = [];
  let sink: EventSink | null = null;

  const emit: EventSink = (event) => {
    counters.count(event);
    sink?.(event);
  };
  const apply = () => {
    const keep = new Set(wanted);
    for (const symbol of [...sims.keys()]) if (!keep.has(symbol)) sims.delete(symbol);
    for (const symbol of wanted) {
      if (sims.has(symbol)) continue;
      const market = world.bySymbol.get(symbol);
      if (!market || market.isDelisted) {
        counters.drop(market ? 'delisted_symbol' : 'unknown_coin', { symbol });
        continue;
      }
      sims.set(symbol, new PairSimulator(world.seed, market, world.picker, pacer.marketMs()));
    }
  };
  return {
    start(target) {
      if (sink) throw new Error('feed already started');
      sink = eventSinkOf(target);
      counters.connected = true;
      apply();
      pacer.start((toMs) => {
        for (const sim of sims.values()) sim.advanceTo(toMs, emit);
      });
    },
    setSymbols(symbols) {
      wanted = [...new Set(symbols)];
      if (sink) apply();
    },
    async stop() {
      pacer.stop();
      counters.connected = false;
      sink = null;
    },
    stats: (): FeedStats => counters.snapshot(),
  };
}
