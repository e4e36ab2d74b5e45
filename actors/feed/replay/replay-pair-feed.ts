// A shard's PairFeed from a replay file: its symbols' trade, book, ctx and gap lines, paced on
// the data's clock, through the same ingest checks as the live feed.
import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import { FeedCounters } from '../feed-counters.js';
import type { EventSink, FeedStats, PairFeed } from '../feed-types.js';
import { IngestGuard } from '../ingest-guard.js';
import { createReplayDriver, type ReplayDriver } from './replay-driver.js';

const PAIR_TYPES = new Set(['trade', 'book', 'ctx', 'gap']);

export interface ReplayPairFeedOptions {
  readonly file: string;
  readonly speed: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly tickMs?: number;
  /** Called once when the file is exhausted. */
  readonly onEnd?: () => void;
}

export function createReplayPairFeed(options: ReplayPairFeedOptions): PairFeed {
  const counters = new FeedCounters(options.clock, options.logger);
  const guard = new IngestGuard();
  let symbols = new Set<string>();
  let driver: ReplayDriver | null = null;
  return {
    start(sink: EventSink) {
      if (driver) throw new Error('feed already started');
      guard.setSymbols(symbols);
      counters.connected = true;
      driver = createReplayDriver({
        file: options.file, speed: options.speed, clock: options.clock, tickMs: options.tickMs,
        wants: (type, symbol) => PAIR_TYPES.has(type) && symbol !== null && symbols.has(symbol),
        emit: (event) => {
          const why = guard.check(event);
          if (why) return counters.drop(why, 'symbol' in event ? { symbol: event.symbol } : {});
          counters.count(event);
          sink(event);
        },
        bad: (reason) => counters.drop('malformed', { detail: reason }),
        onEnd: () => {
          counters.connected = false;
          options.onEnd?.();
        },
      });
      driver.start();
    },
    setSymbols(next) {
      symbols = new Set(next);
      guard.setSymbols(symbols);
    },
    async stop() {
      driver?.stop();
      counters.connected = false;
    },
    stats: (): FeedStats => counters.snapshot(),
  };
}
