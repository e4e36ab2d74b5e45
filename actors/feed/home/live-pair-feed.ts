// The home venue's live feed for one shard: one WebSocket, per-coin subscriptions (trades,
// l2Book, activeAssetCtx), ping heartbeats, a silence watchdog, reconnect with capped backoff
// and jitter, resubscription, trade de-duplication by tid, and a gap event per pair on every
// disconnect so nothing is computed across it.
import WebSocket from 'ws';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { MarketEvent } from '../../../core/messages.js';
import { createSharedBudget, type SharedBudget } from '../budget.js';
import { FeedCounters } from '../feed-counters.js';
import type { EventSink, FeedStats, PairFeed } from '../feed-types.js';
import { eventSinkOf } from '../lanes.js';
import { IngestGuard } from '../ingest-guard.js';
import { backoffDefaults, createBackoff, type BackoffOptions } from './backoff.js';
import { Outbox } from './outbox.js';
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
}

const CHANNELS = ['trades', 'l2Book', 'activeAssetCtx'] as const;

export function createLivePairFeed(options: LivePairFeedOptions): PairFeed {
  const { clock, logger } = options;
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const silenceMs = options.silenceMs ?? 45_000;
  const budget = options.budget ?? createSharedBudget(clock);
  const counters = new FeedCounters(clock, logger);
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
  const outbox = new Outbox(budget, (text) => ws?.send(text));

  const emit = (event: MarketEvent) => {
    const why = guard.check(event);
    if (why) return counters.drop(why, 'symbol' in event ? { symbol: event.symbol } : {});
    counters.count(event);
    sink?.(event);
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
    switch (frame.kind) {
      case 'trades':
        backoff.reset();
        for (const b of frame.bad) counters.drop(b.reason, { symbol: String(b.coin) });
        for (const t of frame.trades) emit(t);
        return;
      case 'book': return emit(frame.book);
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
    start(target) {
      if (sink) throw new Error('feed already started');
      sink = eventSinkOf(target);
      stopping = false;
      guard.setSymbols(wanted);
      connect();
    },
    setSymbols(symbols) {
      const next = new Set(symbols);
      for (const s of wanted) if (!next.has(s) && ws?.readyState === WebSocket.OPEN) unsubscribe(s);
      wanted = next;
      guard.setSymbols(wanted);
      if (ws?.readyState === WebSocket.OPEN) for (const s of wanted) subscribe(s);
    },
    async stop() {
      stopping = true;
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
    },
    stats: (): FeedStats => counters.snapshot(),
  };
}
