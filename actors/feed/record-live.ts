// Records the live home venue for a wall-clock duration: the universe feed picks the tracked
// pairs from its first answer, one pair feed follows them, every event goes to the sink.
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import { rankTracked } from '../universe/tracked.js';
import { createUniverseFeed } from '../universe/universe-feed.js';
import { createSharedBudget } from './budget.js';
import { createPairFeed } from './pair-feed.js';

export interface RecordLiveOptions {
  readonly wsUrl: string;
  readonly infoUrl: string;
  readonly durationMs: number;
  readonly cadenceMs: number;
  readonly tracked: number;
  readonly clock: Clock;
  readonly logger: Logger;
}

export async function recordLive(o: RecordLiveOptions, sink: (e: MarketEvent) => void):
  Promise<void> {
  const spec = { kind: 'live' as const, wsUrl: o.wsUrl, infoUrl: o.infoUrl };
  const budget = createSharedBudget(o.clock);
  const deps = { clock: o.clock, logger: o.logger, budget };
  const universe = createUniverseFeed(spec, { ...deps, cadenceMs: o.cadenceMs });
  const pairs = createPairFeed(spec, deps);
  let tracked = new Set<string>();
  pairs.start(sink);
  universe.start((e) => {
    sink(e);
    if (e.type !== 'universe') return;
    tracked = new Set(rankTracked(e.markets, tracked, o.tracked, Math.ceil(o.tracked * 1.1)));
    pairs.setSymbols([...tracked]);
  });
  await new Promise((resolve) => setTimeout(resolve, o.durationMs));
  await universe.stop();
  await pairs.stop();
}
