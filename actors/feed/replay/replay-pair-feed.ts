// A shard's PairFeed from a replay file: its symbols' trade, book, ctx and gap lines, paced on
// the data's clock, through the same ingest checks as the live feed.
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { MarketEvent } from '../../../core/messages.js';
import { FeedCounters } from '../feed-counters.js';
import type { EventSink, FeedStats, IngestSink, PairFeed, PairLane } from '../feed-types.js';
import * as guards from '../ingest-guard.js';
import * as lanes from '../lanes.js';
import { COMPACT_SYMBOLS_MAX } from './compact-format.js';
import type { DecodedBook, DecodedTrade } from './replay-decoder.js';
import { createReplayDriver, type ReplayDriver } from './replay-driver.js';

// Hot imports are bound to module-local names once: shard workers load TypeScript through tsx's
// CommonJS transform, where every use of an imported binding is a getter call (2-3x the cost).
const { IngestGuard, checkBookTime, checkTradeFields } = guards;
const { laneOf } = lanes;

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

/** A followed symbol's guard state and lane, resolved once per symbol. */
interface Route {
  readonly symbol: string;
  readonly guard: guards.GuardPair;
  readonly lane: PairLane;
}

export function createReplayPairFeed(options: ReplayPairFeedOptions): PairFeed {
  const counters = new FeedCounters(options.clock, options.logger);
  const guard = new IngestGuard();
  let symbols = new Set<string>();
  let driver: ReplayDriver | null = null;
  let sink: EventSink | IngestSink | null = null;
  // Routes by symbol, and by the compact file's symbol index (a trade's or book's route is one
  // array read and one string compare: the index is redefined rarely, then its symbol differs).
  // Both are cleared whenever the followed symbols change. Bound: the followed symbols, and
  // the format's symbol indexes (COMPACT_SYMBOLS_MAX).
  const routes = new Map<string, Route | null>();
  let indexSymbols: (string | undefined)[] = [];
  let indexRoutes: (Route | null)[] = [];
  const clearRoutes = () => {
    routes.clear();
    // Sized up front: writes at any index keep the arrays' fast elements.
    indexSymbols = new Array(COMPACT_SYMBOLS_MAX);
    indexRoutes = new Array(COMPACT_SYMBOLS_MAX);
  };

  const route = (symbol: string): Route | null => {
    let r = routes.get(symbol);
    if (r !== undefined) return r;
    const pair = guard.pair(symbol);
    const lane = pair && sink ? laneOf(sink, symbol) : null;
    r = pair && lane ? { symbol, guard: pair, lane } : null;
    routes.set(symbol, r);
    return r;
  };
  const emit = (event: MarketEvent) => {
    const why = guard.check(event);
    if (why) return counters.drop(why, 'symbol' in event ? { symbol: event.symbol } : {});
    counters.count(event);
    if ('symbol' in event) route(event.symbol)?.lane.event(event);
  };
  /** The route of a compact line's symbol index (null: not followed). */
  const routeAt = (index: number, symbol: string): Route | null => {
    if (indexSymbols[index] === symbol) return indexRoutes[index];
    const r = route(symbol);
    indexSymbols[index] = symbol;
    indexRoutes[index] = r;
    return r;
  };
  const trade = (t: DecodedTrade) => {
    const r = routeAt(t.symbolIndex, t.symbol);
    // Not followed: skipped like any line `wants` refuses (not counted).
    if (r === null) return;
    const why = checkTradeFields(r.guard, t);
    if (why) return counters.drop(why, { symbol: t.symbol });
    counters.countTrade(t.tsMs);
    r.lane.trade(t);
  };
  const book = (b: DecodedBook) => {
    const r = routeAt(b.symbolIndex, b.symbol);
    if (r === null) return;
    const why = checkBookTime(r.guard, b.tsMs);
    if (why) return counters.drop(why, { symbol: b.symbol });
    counters.countBook(b.tsMs);
    r.lane.book(b);
  };
  return {
    start(target) {
      if (driver) throw new Error('feed already started');
      sink = target;
      guard.setSymbols(symbols);
      clearRoutes();
      counters.connected = true;
      driver = createReplayDriver({
        file: options.file, speed: options.speed, clock: options.clock, tickMs: options.tickMs,
        wants: (type, symbol) => PAIR_TYPES.has(type) && symbol !== null && symbols.has(symbol),
        emit, fields: { trade, book },
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
      clearRoutes();
    },
    async stop() {
      driver?.stop();
      counters.connected = false;
    },
    stats: (): FeedStats => counters.snapshot(),
  };
}
