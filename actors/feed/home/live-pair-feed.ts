// The home venue's live feed for one shard: one WebSocket, per-coin subscriptions (trades,
// l2Book, activeAssetCtx), ping heartbeats, a silence watchdog, reconnect with capped backoff
// and jitter, resubscription, trade de-duplication by tid, and a gap event per pair on every
// disconnect so nothing is computed across it. With an info URL, each pair is backfilled from
// candles and funding at start and after every gap before its trades flow (backfill-rounds.ts).
import WebSocket from 'ws';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { MarketEvent } from '../../../core/messages.js';
import { createSharedBudget, type SharedBudget } from '../budget.js';
import { FeedCounters } from '../feed-counters.js';
import { channelIndexOf, noFeedMeters, type FeedMeters } from '../feed-meters.js';
import type { EventSink, FeedStats, IngestSink, PairFeed } from '../feed-types.js';
import { eventSinkOf } from '../lanes.js';
import { IngestGuard } from '../ingest-guard.js';
import { backoffDefaults, createBackoff, type BackoffOptions } from './backoff.js';
import {
  coarseIntervalMsDefault, createBackfiller, fineSpanMsDefault, type Backfiller,
  type BackfillerOptions,
} from './backfill.js';
import { BackfillRounds, type BackfillReport } from './backfill-rounds.js';
import { createInfoClient } from './info-client.js';
import { Outbox } from './outbox.js';
import type { Timers } from './timers.js';
import { parseFrame } from './ws-frames.js';

export interface LivePairFeedOptions {
  readonly wsUrl: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The process-wide budget (see budget.ts); a private one when absent (tests). */
  readonly budget?: SharedBudget;
  /** Ping interval; the venue drops a connection silent for 60 s. */
  readonly heartbeatMs?: number;
  /** No frame at all (pong included) for this long: the connection is dead, reconnect. */
  readonly silenceMs?: number;
  readonly backoff?: BackoffOptions;
  readonly random?: () => number;
  /** Backfill from the info endpoint; absent or lookbackMs 0: none. */
  readonly backfill?: LiveBackfillOptions;
  /** Frames per channel, arrival lag and budget waits, for the metrics (feed-meters.ts). */
  readonly meters?: FeedMeters;
}

export interface LiveBackfillOptions {
  readonly infoUrl: string;
  /** Market time filled at start (1-minute candles for the newest 4 h, 5-minute ones before). */
  readonly lookbackMs: number;
  /** Longest a round waits before its pairs publish (late ones keep filling, trades held). */
  readonly waitMs: number;
  /** Longest a pair's trades are held for its fill, then it goes live unfilled (30 min). */
  readonly holdMs?: number;
  /** Trades held per pair at most before it goes live unfilled (tests use few). */
  readonly heldTradesMax?: number;
  /** Per info request (default 10 s). */
  readonly requestTimeoutMs?: number;
  /** Pauses before a failed pair is asked again (backfill-rounds.ts; default 2 s, 10 s, 30 s). */
  readonly retryDelaysMs?: readonly number[];
  /** Candles per candleSnapshot request (default and most 5000; tests page with fewer). */
  readonly candlesPerRequest?: number;
  /** The candle plan's tiers (backfill.ts; the bench compares plans). */
  readonly plan?: Pick<BackfillerOptions, 'fineSpanMs' | 'coarseIntervalMs' | 'fundingSpanMs'>;
  /** Budget waits, the round's wait and the hold bound run on these (tests simulate time). */
  readonly timers?: Timers;
  readonly onReport?: (report: BackfillReport) => void;
  /** Replaces the info endpoint client (tests count what it asks). */
  readonly backfiller?: Backfiller;
}

const CHANNELS = ['trades', 'l2Book', 'activeAssetCtx'] as const;

export function createLivePairFeed(options: LivePairFeedOptions): PairFeed {
  const { clock, logger } = options;
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const silenceMs = options.silenceMs ?? 45_000;
  const budget = options.budget ?? createSharedBudget(clock);
  const counters = new FeedCounters(clock, logger);
  const meters = options.meters ?? noFeedMeters;
  const guard = new IngestGuard();
  const backoff = createBackoff(options.backoff ?? backoffDefaults, options.random);
  let wanted = new Set<string>();
  const subscribed = new Set<string>();
  let ws: WebSocket | null = null;
  let sink: EventSink | null = null;
  let stopping = false;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let watchdog: NodeJS.Timeout | null = null;
  let lastFrameMs = 0;
  let lastPingMs = 0;
  const outbox = new Outbox(budget, (text) => ws?.send(text), undefined, meters);
  let target: EventSink | IngestSink | null = null;
  /** Newest trade time handed on per pair (or restored, see resumeFrom): fills start there. */
  const lastTradeMs = new Map<string, number>();
  /** Each pair's 24h notional from its newest ctx: the busiest pairs are filled first. */
  const dayNotional = new Map<string, number>();

  const deliver = (event: MarketEvent) => {
    counters.count(event);
    if (event.type === 'trade') lastTradeMs.set(event.symbol, event.tsMs);
    else if (event.type === 'ctx') dayNotional.set(event.symbol, event.dayNtlVlm);
    sink?.(event);
  };
  const rounds = backfillRoundsOf(options, budget, meters, deliver, (symbol) =>
    target && typeof target !== 'function' ? target.lane(symbol)?.length ?? 0 : 0,
  (symbol) => dayNotional.get(symbol) ?? 0);
  const emit = (event: MarketEvent) => {
    const why = guard.check(event);
    if (why) return counters.drop(why, 'symbol' in event ? { symbol: event.symbol } : {});
    if (rounds && (event.type === 'trade' || event.type === 'book')) {
      if (event.type === 'trade' && rounds.covers(event.symbol, event.tsMs)) {
        rounds.coveredTrades++;
        return;
      }
      if (rounds.holds(event.symbol) && rounds.hold(event)) return;
    }
    if (rounds && event.type === 'ctx' && rounds.holds(event.symbol)) {
      return deliver(rounds.holdContext(event));
    }
    deliver(event);
  };
  const backfillRound = (symbols: Iterable<string>) => {
    if (!rounds || !options.backfill) return;
    const nowMs = clock.nowMs();
    const lookbackMs = options.backfill.lookbackMs;
    // A long lookback starts at a whole coarse candle: no extra request for the minutes before.
    const startMs = lookbackMs > fineSpanMsDefault
      ? Math.floor((nowMs - lookbackMs) / coarseIntervalMsDefault) * coarseIntervalMsDefault
      : nowMs - lookbackMs;
    // A pair seen before fills from what it already holds (newest trade or candle) on.
    const fromMs = (symbol: string) => {
      const seenMs = Math.max(lastTradeMs.get(symbol) ?? -Infinity, rounds.filledUntil(symbol));
      return seenMs > -Infinity ? seenMs : startMs;
    };
    rounds.start([...symbols], fromMs, nowMs);
  };
  const subscription = (method: string, symbol: string) => {
    for (const type of CHANNELS) outbox.push({ method, subscription: { type, coin: symbol } });
  };
  const subscribe = (symbol: string) => {
    if (subscribed.has(symbol)) return;
    if (!budget.reserveSubscriptions(CHANNELS.length)) {
      return counters.drop('subscription_limit', { symbol });
    }
    subscribed.add(symbol);
    subscription('subscribe', symbol);
  };
  const unsubscribe = (symbol: string) => {
    if (!subscribed.delete(symbol)) return;
    budget.releaseSubscriptions(CHANNELS.length);
    subscription('unsubscribe', symbol);
  };

  const onMessage = (data: WebSocket.RawData) => {
    lastFrameMs = clock.nowMs();
    const frame = parseFrame(data.toString(), lastFrameMs);
    meters.frame(channelIndexOf(frame.kind));
    switch (frame.kind) {
      case 'trades':
        backoff.reset();
        for (const b of frame.bad) counters.drop(b.reason, { symbol: String(b.coin) });
        for (const t of frame.trades) {
          meters.lag((lastFrameMs - t.tsMs) / 1000);
          emit(t);
        }
        return;
      case 'book':
        meters.lag((lastFrameMs - frame.book.tsMs) / 1000);
        return emit(frame.book);
      case 'ctx': return emit(frame.ctx);
      case 'drop': return counters.drop(frame.reason, { detail: frame.detail });
      case 'venue_error': return counters.drop('venue_error', { detail: frame.message });
      default: return;
    }
  };

  const onClosed = (reason: string) => {
    if (ws === null) return;
    ws.removeAllListeners();
    ws.on('error', () => {});
    ws = null;
    // Pairs still waiting for candles are filled again by the reconnect's round, up to then.
    rounds?.interrupt();
    outbox.clear();
    budget.releaseSubscriptions(subscribed.size * CHANNELS.length);
    const symbols = [...subscribed];
    subscribed.clear();
    counters.connected = false;
    if (watchdog) clearInterval(watchdog);
    watchdog = null;
    const tsMs = clock.nowMs();
    for (const symbol of symbols) {
      const gap: MarketEvent = { type: 'gap', symbol, tsMs, reason };
      counters.count(gap);
      sink?.(gap);
    }
    if (stopping) return;
    const delayMs = backoff.next();
    logger.warn('home venue connection lost; reconnecting', { reason, delayMs });
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      counters.reconnects++;
      connect();
    }, delayMs);
  };

  const tick = () => {
    const now = clock.nowMs();
    if (ws === null || ws.readyState !== WebSocket.OPEN) return;
    if (now - lastFrameMs > silenceMs) {
      ws.terminate();
      return onClosed('silent');
    }
    if (now - lastPingMs >= heartbeatMs) {
      lastPingMs = now;
      outbox.push({ method: 'ping' });
    }
  };

  const connect = () => {
    const socket = new WebSocket(options.wsUrl, { handshakeTimeout: 10_000,
      maxPayload: 16 * 1024 * 1024 });
    ws = socket;
    socket.on('open', () => {
      counters.connected = true;
      lastFrameMs = clock.nowMs();
      lastPingMs = lastFrameMs;
      for (const symbol of wanted) subscribe(symbol);
      // Subscribed first, so no trade falls between the fill and the stream: they are held.
      backfillRound(wanted);
      watchdog = setInterval(tick, Math.max(10, Math.min(heartbeatMs, silenceMs) / 4));
    });
    socket.on('message', onMessage);
    socket.on('close', (code) => onClosed(`closed ${code}`));
    socket.on('error', (error) => {
      logger.debug('home venue socket error', { error: error.message });
      socket.terminate();
      onClosed(`error ${error.message.slice(0, 80)}`);
    });
  };

  return {
    start(to) {
      if (sink) throw new Error('feed already started');
      target = to;
      sink = eventSinkOf(to);
      stopping = false;
      guard.setSymbols(wanted);
      connect();
    },
    setSymbols(symbols) {
      const next = new Set(symbols);
      for (const s of wanted) if (!next.has(s) && ws?.readyState === WebSocket.OPEN) unsubscribe(s);
      for (const s of wanted) {
        if (next.has(s)) continue;
        rounds?.forget(s);
        lastTradeMs.delete(s);
        dayNotional.delete(s);
      }
      const joined = [...next].filter((s) => !wanted.has(s));
      wanted = next;
      guard.setSymbols(wanted);
      if (ws?.readyState === WebSocket.OPEN) {
        for (const s of wanted) subscribe(s);
        backfillRound(joined);
      }
    },
    async stop() {
      stopping = true;
      rounds?.stop();
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      const socket = ws;
      if (socket) {
        socket.terminate();
        onClosed('stopped');
        if (socket.readyState !== WebSocket.CLOSED) {
          await new Promise<void>((resolve) => socket.once('close', () => resolve()));
        }
      }
      outbox.clear();
      sink = null;
      target = null;
    },
    stats: (): FeedStats => {
      const stats = counters.snapshot();
      if (!rounds) return stats;
      const dropped = rounds.coveredTrades > 0
        ? { ...stats.dropped, in_candles: rounds.coveredTrades } : stats.dropped;
      return { ...stats, dropped, warming: rounds.warming() };
    },
    isWarming: (symbol) => rounds?.isWarming(symbol) ?? false,
    // Restart resume: a state from the future is unusable; without a backfill the pair keeps
    // its state and sees a feed gap; with one, the fill starts where the state ends.
    resumeFrom(symbol, fromMs) {
      if (fromMs > options.clock.nowMs()) return 'refuse';
      if (!rounds) return 'gap';
      lastTradeMs.set(symbol, Math.max(fromMs, lastTradeMs.get(symbol) ?? -Infinity));
      return 'fill';
    },
    seedContext(symbol, ctx) {
      if (!dayNotional.has(symbol)) dayNotional.set(symbol, ctx.dayNtlVlm);
    },
  };
}

function backfillRoundsOf(options: LivePairFeedOptions, budget: SharedBudget,
  meters: FeedMeters, deliver: (event: MarketEvent) => void, backlog: (symbol: string) => number,
  priority: (symbol: string) => number): BackfillRounds | null {
  const b = options.backfill;
  if (!b || !(b.lookbackMs > 0)) return null;
  const backfiller = b.backfiller ?? createBackfiller(createInfoClient({ url: b.infoUrl, budget,
    clock: options.clock, timeoutMs: b.requestTimeoutMs, timers: b.timers, meters }),
  { ...b.plan, candlesPerRequest: b.candlesPerRequest });
  return new BackfillRounds({ backfiller, logger: options.logger, waitMs: b.waitMs,
    holdMs: b.holdMs, heldTradesMax: b.heldTradesMax, retryDelaysMs: b.retryDelaysMs,
    timers: b.timers, deliver, backlog, priority, onReport: b.onReport });
}
