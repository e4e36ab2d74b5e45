// The live adapter against a local fake venue that replays the real frames: subscriptions,
// dedupe, gaps and reconnects on disconnect and silence, bad frames, heartbeats, set changes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent, TradeEvent } from '../../core/messages.js';
import { createPairFeed, type PairFeed } from '../../actors/feed/pair-feed.js';
import { eventually } from '../helpers/eventually.js';
import { startFakeVenue, type FakeVenue } from './fake-venue.js';

const live = suite<{ venue: FakeVenue; feed: PairFeed; events: MarketEvent[] }>('live');

/**
 * The feed on BTC. Silence is 5 s unless a test times it: a stall of the test process (GC, a
 * busy CI core; the venue runs in it too) as long as the silence would reconnect and resubscribe.
 */
function startFeed(ctx: { venue: FakeVenue; feed: PairFeed; events: MarketEvent[] },
  silenceMs = 5_000): void {
  ctx.events = [];
  ctx.feed = createPairFeed({ kind: 'live', wsUrl: ctx.venue.wsUrl, infoUrl: ctx.venue.infoUrl },
    { clock: systemClock, logger: silentLogger,
      live: { heartbeatMs: 50, silenceMs,
        backoff: { initialMs: 20, maxMs: 100, factor: 2, jitter: 0.5 } } });
  ctx.feed.setSymbols(['BTC']);
  ctx.feed.start((e) => ctx.events.push(e));
}

live.before.each(async (ctx) => {
  ctx.venue = await startFakeVenue({ frameIntervalMs: 2 });
  startFeed(ctx);
});

live.after.each(async (ctx) => {
  await ctx.feed.stop();
  await ctx.venue.close();
});

const trades = (events: MarketEvent[]) => events.filter((e): e is TradeEvent => e.type === 'trade');

live('subscribes per coin and emits trades, books and ctx from the real frames', async (ctx) => {
  // Every kind counted in the wait: the venue has written its last frame before the feed has
  // read it, so a count not waited for can still be one short (CI saw 45 books of 46).
  const books = () => ctx.events.filter((e) => e.type === 'book').length;
  await eventually(() => ctx.venue.sentFrames() >= ctx.venue.frames.length &&
    trades(ctx.events).length >= 64 && books() >= 46 && ctx.events.some((e) => e.type === 'ctx'));
  const subs = ctx.venue.received.filter((m) => (m as { method: string }).method === 'subscribe')
    .map((m) => (m as { subscription: { type: string } }).subscription.type).sort();
  assert.equal(subs, ['activeAssetCtx', 'l2Book', 'trades']);
  assert.is(trades(ctx.events).length, 64);
  assert.is(books(), 46);
  const ctxEvent = ctx.events.find((e) => e.type === 'ctx');
  assert.ok(ctxEvent && ctxEvent.type === 'ctx' && ctxEvent.markPx === 66344);
  const ids = trades(ctx.events).map((t) => t.tradeId);
  assert.is(new Set(ids).size, ids.length);
  await eventually(() =>
    ctx.venue.received.some((m) => (m as { method: string }).method === 'ping'));
  assert.ok(ctx.feed.stats().connected);
});

live('a disconnect: gap, reconnect, resubscribe, replayed trades dropped', async (ctx) => {
  await eventually(() => trades(ctx.events).length >= 64);
  ctx.venue.dropConnections();
  await eventually(() => ctx.events.some((e) => e.type === 'gap'));
  const gap = ctx.events.find((e) => e.type === 'gap')!;
  assert.is(gap.type === 'gap' && gap.symbol, 'BTC');
  await eventually(() => ctx.feed.stats().reconnects >= 1 && ctx.venue.connections() === 1);
  await eventually(() => (ctx.feed.stats().dropped.duplicate_trade ?? 0) >= 64);
  const ids = trades(ctx.events).map((t) => t.tradeId);
  assert.is(new Set(ids).size, ids.length, 'no trade twice');
  const subs = ctx.venue.received.filter((m) => (m as { method: string }).method === 'subscribe');
  assert.is(subs.length, 6);
});

live('a silent venue is detected: gap, then reconnect', async (ctx) => {
  await ctx.feed.stop();
  startFeed(ctx, 400);
  await eventually(() => trades(ctx.events).length >= 30);
  ctx.venue.setSilent(true);
  await eventually(() => ctx.events.some((e) => e.type === 'gap' && e.reason === 'silent'));
  ctx.venue.setSilent(false);
  await eventually(() => ctx.feed.stats().reconnects >= 1 && ctx.feed.stats().connected);
});

live('malformed frames, bad numbers and unknown coins are counted and dropped', async (ctx) => {
  await eventually(() => trades(ctx.events).length >= 64);
  const before = ctx.events.length;
  const bad = (fields: Record<string, unknown>) => JSON.stringify({ channel: 'trades', data: [{
    coin: 'BTC', px: '1', sz: '1', side: 'B', tid: Math.random(), time: Date.now(), users: [],
    ...fields }] });
  ctx.venue.sendRaw('this is not json');
  ctx.venue.sendRaw(bad({ px: 'NaN' }));
  ctx.venue.sendRaw(bad({ sz: '-1' }));
  ctx.venue.sendRaw(bad({ coin: 'DOGE' }));
  ctx.venue.sendRaw(bad({ time: 1 }));
  ctx.venue.sendRaw(bad({ tid: 'fresh-one' }));
  // The venue keeps replaying its recording meanwhile: look only at the injected prints (px 1).
  const injected = () => ctx.events.slice(before)
    .filter((e) => e.type === 'trade' && e.price === 1);
  await eventually(() => injected().length > 0);
  const dropped = ctx.feed.stats().dropped;
  assert.is(dropped.malformed, 1);
  assert.is(dropped.bad_price, 1);
  assert.is(dropped.bad_size, 1);
  assert.is(dropped.unknown_coin, 1);
  assert.is(dropped.out_of_order, 1);
  assert.equal(injected().map((e) => e.type === 'trade' && e.tradeId), ['fresh-one']);
  assert.ok(ctx.feed.stats().connected);
});

live('setSymbols subscribes new coins, unsubscribes old ones, no reconnect', async (ctx) => {
  await eventually(() => ctx.feed.stats().connected && trades(ctx.events).length > 0);
  ctx.feed.setSymbols(['ETH']);
  await eventually(() => trades(ctx.events).some((t) => t.symbol === 'ETH'));
  const methods = ctx.venue.received.map((m) => {
    const x = m as { method: string; subscription?: { coin: string } };
    return `${x.method}:${x.subscription?.coin ?? ''}`;
  });
  assert.ok(methods.includes('unsubscribe:BTC'));
  assert.ok(methods.includes('subscribe:ETH'));
  assert.is(ctx.feed.stats().reconnects, 0);
});

live.run();
