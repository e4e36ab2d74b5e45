// Plays a replay file to its end at --speed max, through a shard's pair feed and through the
// universe feed, as the service would: what each delivered, for comparing replays.
import { systemClock } from '../../actors/clock.js';
import { silentLogger } from '../../actors/logger.js';
import type { MarketEvent } from '../../actors/messages.js';
import { createPairFeed } from '../../actors/feed/pair-feed.js';
import type { FeedStats } from '../../actors/feed/feed-types.js';
import { createUniverseFeed } from '../../actors/universe/universe-feed.js';
import { eventually } from '../helpers/eventually.js';

/** The pair events a shard owning `symbols` receives from the file, and its feed's counters. */
export async function playPairs(file: string, symbols: readonly string[]):
  Promise<{ out: MarketEvent[]; stats: FeedStats }> {
  const out: MarketEvent[] = [];
  let ended = false;
  const feed = createPairFeed({ kind: 'replay', file, speed: Infinity },
    { clock: systemClock, logger: silentLogger, onEnd: () => { ended = true; } });
  feed.setSymbols(symbols);
  feed.start((e) => out.push(e));
  await eventually(() => ended);
  await feed.stop();
  return { out, stats: feed.stats() };
}

/** The universe, funding and wallet events the main thread receives from the file. */
export async function playUniverse(file: string): Promise<MarketEvent[]> {
  const universe: MarketEvent[] = [];
  let ended = false;
  const feed = createUniverseFeed({ kind: 'replay', file, speed: Infinity },
    { clock: systemClock, logger: silentLogger, cadenceMs: 5_000,
      onEnd: () => { ended = true; } });
  feed.start((e) => universe.push(e));
  await eventually(() => ended);
  await feed.stop();
  return universe;
}
