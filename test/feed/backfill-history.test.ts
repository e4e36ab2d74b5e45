// The 1-minute history points of a backfilled pair, on the live feed against the fake venue,
// which sends a coin's activeAssetCtx as soon as it is subscribed, as the real one does (before
// the candles come): every candle's minutes become a point, in time order, none twice, and the
// live minutes follow them. A late pair, whose contexts keep coming while it fills, and a
// reconnect's refill of the time the connection was down record theirs too.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { silentLogger } from '../../core/logger.js';
import type { HistoryPoint } from '../../core/history-point.js';
import type { AssetCtxEvent, CandleEvent, MarketEvent } from '../../core/messages.js';
import { createLivePairFeed } from '../../actors/feed/home/live-pair-feed.js';
import type { BackfillReport } from '../../actors/feed/home/backfill-rounds.js';
import type { PairFeed } from '../../actors/feed/feed-types.js';
import { createPairEngine } from '../../actors/shard/pair-engine.js';
import { eventually } from '../helpers/eventually.js';
import { minuteOpenOffsetMs, startFakeVenue, type FakeVenue } from './fake-venue.js';

interface Ctx {
  venue: FakeVenue;
  feed: PairFeed | null;
  events: MarketEvent[];
  reports: BackfillReport[];
}

const history = suite<Ctx>('backfill: history points');

/** Market time, 5 s into a minute at each test's start (minuteOpenOffsetMs); tests jump it. */
const jumpClock = { offsetMs: 0, nowMs: () => Date.now() + jumpClock.offsetMs };

history.before.each(async (ctx) => {
  jumpClock.offsetMs = minuteOpenOffsetMs();
  ctx.venue = await startFakeVenue({ frameIntervalMs: 2, shiftToNow: true, clock: jumpClock });
  ctx.feed = null;
  ctx.events = [];
  ctx.reports = [];
});

history.after.each(async (ctx) => {
  await ctx.feed?.stop();
  await ctx.venue.close();
});

function start(ctx: Ctx, options: { lookbackMs: number; waitMs: number }): void {
  ctx.feed = createLivePairFeed({
    wsUrl: ctx.venue.wsUrl, clock: jumpClock, logger: silentLogger, heartbeatMs: 1_000,
    silenceMs: 10_000,
    backfill: { infoUrl: ctx.venue.infoUrl, ...options, onReport: (r) => ctx.reports.push(r) },
  });
  ctx.feed.setSymbols(['BTC']);
  ctx.feed.start((e) => ctx.events.push(e));
}

const reported = (ctx: Ctx, state: BackfillReport['state'], times = 1) =>
  ctx.reports.filter((r) => r.state === state).length >= times;
const candles = (events: readonly MarketEvent[]) =>
  events.filter((e): e is CandleEvent => e.type === 'candle');
const tradeCount = (events: MarketEvent[]) => events.filter((e) => e.type === 'trade').length;

/** Every event through one pair engine, as its pair actor folds them: the points it closed. */
function pointsOf(events: readonly MarketEvent[]): HistoryPoint[] {
  const engine = createPairEngine('BTC', { cadenceMs: 1_000 });
  const points: HistoryPoint[] = [];
  for (const event of events) {
    engine.onEvent(event);
    // A shard publishes once per cadence: often enough that points leave in small groups.
    if (event.type !== 'trade') points.push(...engine.publish(jumpClock.nowMs())?.history ?? []);
  }
  points.push(...engine.publish(jumpClock.nowMs())?.history ?? []);
  return points;
}

/** Points in time order, none twice, and one at each candle's open (its whole span). */
function assertCandlePoints(points: readonly HistoryPoint[], events: readonly MarketEvent[]):
  void {
  const bars = candles(events);
  const live = events.filter((e) => e.type === 'trade' || e.type === 'book');
  const times = points.map((p) => p.tMs);
  for (let i = 1; i < times.length; i++) {
    assert.ok(times[i] > times[i - 1],
      `points in time order, none twice: ${new Date(times[i]).toISOString()} after ` +
      new Date(times[i - 1]).toISOString());
  }
  const at = new Set(times);
  const missing = bars.filter((c) => !at.has(c.tsMs));
  assert.is(missing.length, 0, `${missing.length} of ${bars.length} candles have no point, ` +
    `first ${missing[0] && new Date(missing[0].tsMs).toISOString()}`);
  // A candle's point has its prices and volume (but where live trades or books shared it).
  for (const c of bars) {
    if (live.some((e) => e.tsMs >= c.tsMs && e.tsMs < c.tsMs + c.intervalMs)) continue;
    const p = points.find((x) => x.tMs === c.tsMs)!;
    // A minute opens at the previous close (the mark is continuous): high and low may reach it.
    assert.ok(p.high! >= c.high && p.low! <= c.low, `${p.low}..${p.high}: ${c.low}..${c.high}`);
    assert.is(p.close, c.close);
    assert.ok(p.volume > 0, `volume at ${new Date(c.tsMs).toISOString()}`);
  }
}

history('the venue sends the context first: every candle is a point, live ones after',
  async (ctx) => {
    start(ctx, { lookbackMs: 3 * 3_600_000, waitMs: 20_000 });
    await eventually(() => reported(ctx, 'filled') && tradeCount(ctx.events) > 0 &&
      ctx.venue.sentFrames() >= ctx.venue.frames.length);
    const firstCtx = ctx.events.findIndex((e) => e.type === 'ctx');
    const firstCandle = ctx.events.findIndex((e) => e.type === 'candle');
    assert.ok(firstCtx >= 0 && firstCtx < firstCandle, 'the context came before the candles');
    // A minute later a context closes the live minute of the recording's last trades.
    const contexts = ctx.events.filter((e) => e.type === 'ctx').length;
    jumpClock.offsetMs += 60_000;
    ctx.venue.sendContexts();
    await eventually(() => ctx.events.filter((e) => e.type === 'ctx').length > contexts);
    const bars = candles(ctx.events);
    assert.ok(bars.length >= 179, `${bars.length} candles`);
    const points = pointsOf(ctx.events);
    assertCandlePoints(points, ctx.events);
    // Then the live minutes (the recording's last one is still open: no point yet).
    const coveredUntilMs = bars[bars.length - 1].tsMs + 60_000;
    const live = points.filter((p) => p.tMs >= coveredUntilMs);
    assert.is(points.length, bars.length + live.length, 'a point is a candle or a live minute');
    // The context of now lends the past no open interest; it is the live minutes'.
    assert.ok(points.filter((p) => p.tMs < coveredUntilMs).every((p) => p.openInterest === null));
    assert.ok(live.length > 0, 'a live minute closed');
    assert.type(live[live.length - 1].openInterest, 'number');
    assert.ok(live[0].volume > 0, 'the live minute has its trades');
  });

history('a late pair: contexts while it fills do not hide its candles', async (ctx) => {
  ctx.venue.setHistoryMode({ delayMs: 1_500 });
  start(ctx, { lookbackMs: 3_600_000, waitMs: 200 });
  await eventually(() => reported(ctx, 'late'));
  // Late, it publishes the contexts that keep coming, minutes after the round began.
  jumpClock.offsetMs += 2 * 60_000;
  ctx.venue.sendContexts();
  await eventually(() => ctx.events.filter((e) => e.type === 'ctx').length >= 2);
  jumpClock.offsetMs += 60_000;
  ctx.venue.sendContexts();
  await eventually(() => reported(ctx, 'filled'), { timeoutMs: 15_000 });
  await eventually(() => tradeCount(ctx.events) > 0, { timeoutMs: 15_000 });
  const bars = candles(ctx.events);
  assert.ok(bars.length >= 59, `${bars.length} candles`);
  const firstCandle = ctx.events.findIndex((e) => e.type === 'candle');
  assert.ok(ctx.events.slice(0, firstCandle).filter((e) => e.type === 'ctx').length >= 3,
    'three contexts came before the candles');
  const points = pointsOf(ctx.events);
  assertCandlePoints(points, ctx.events);
  // The minutes of the hold have their marks, as live ones do (the newest is still open).
  const held = ctx.events.filter((e): e is AssetCtxEvent =>
    e.type === 'ctx' && e.beforeFill === true);
  const minuteOf = (tsMs: number) => tsMs - (tsMs % 60_000);
  const openMs = minuteOf(held[held.length - 1].tsMs);
  const closed = [...new Set(held.map((e) => minuteOf(e.tsMs)))].filter((t) => t < openMs);
  assert.ok(closed.length >= 2, `${closed.length} minutes of contexts closed`);
  for (const tMs of closed) {
    assert.is(points.find((p) => p.tMs === tMs)?.close, held[0].markPx,
      `the mark at ${new Date(tMs).toISOString()}`);
  }
});

history('a reconnect: the refill of the time it was down is points after the live ones',
  async (ctx) => {
    start(ctx, { lookbackMs: 3_600_000, waitMs: 20_000 });
    await eventually(() => reported(ctx, 'filled') && tradeCount(ctx.events) > 0);
    // Ten minutes pass with the connection down; the new connection's context comes first.
    jumpClock.offsetMs += 10 * 60_000;
    ctx.venue.dropConnections();
    await eventually(() => reported(ctx, 'filled', 2), { timeoutMs: 15_000 });
    const gapAt = ctx.events.findIndex((e) => e.type === 'gap');
    const refill = candles(ctx.events.slice(gapAt));
    assert.ok(refill.length >= 9, `${refill.length} candles refilled`);
    assert.ok(ctx.events.slice(gapAt).findIndex((e) => e.type === 'ctx') <
      ctx.events.slice(gapAt).findIndex((e) => e.type === 'candle'), 'context first');
    const points = pointsOf(ctx.events);
    assertCandlePoints(points, ctx.events);
  });

history.run();
