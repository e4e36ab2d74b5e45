// A backfilled pair starts from the context of the metaAndAssetCtxs answer (the universe's), not
// from the venue's activeAssetCtx, which may come late or never: against the fake venue sending
// no context, and one sending it after the fill, the candles fill VPIN's buckets and the late
// context changes V for the volume to come without throwing the filled buckets away.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { shiftedClock, type Clock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { AssetCtx, MarketEvent } from '../../core/messages.js';
import { createSharedBudget } from '../../actors/feed/budget.js';
import type { BackfillReport } from '../../actors/feed/home/backfill-rounds.js';
import { createInfoClient } from '../../actors/feed/home/info-client.js';
import { createLivePairFeed } from '../../actors/feed/home/live-pair-feed.js';
import type { PairFeed } from '../../actors/feed/feed-types.js';
import { createPairEngine, type PairEngine } from '../../actors/shard/pair-engine.js';
import { eventually } from '../helpers/eventually.js';
import { minuteOpenOffsetMs, startFakeVenue, type FakeVenue } from './fake-venue.js';

interface Ctx {
  venue: FakeVenue;
  feed: PairFeed | null;
  market: Clock;
  events: MarketEvent[];
  reports: BackfillReport[];
}

const context = suite<Ctx>('backfill: the universe context');

context.before.each(async (ctx) => {
  ctx.market = shiftedClock(Date.now() + minuteOpenOffsetMs());
  // The venue never sends a context by itself: a test sends it when it wants it late.
  ctx.venue = await startFakeVenue({ frameIntervalMs: 2, shiftToNow: true, clock: ctx.market,
    contextDelayMs: Infinity });
  ctx.feed = null;
  ctx.events = [];
  ctx.reports = [];
});

context.after.each(async (ctx) => {
  await ctx.feed?.stop();
  await ctx.venue.close();
});

/** BTC's context in the venue's metaAndAssetCtxs answer, as the universe feed fetches it. */
async function universeContext(venue: FakeVenue, clock: Clock): Promise<AssetCtx> {
  const info = createInfoClient({ url: venue.infoUrl, budget: createSharedBudget(clock), clock });
  const markets = await info.metaAndAssetCtxs('');
  assert.ok(markets.ok);
  return markets.value.find((m) => m.symbol === 'BTC')!.ctx;
}

/** Fills BTC over 30 hours (a day of VPIN buckets and more); resolves once it is filled. */
async function fill(ctx: Ctx, seed: AssetCtx | null): Promise<void> {
  ctx.feed = createLivePairFeed({ wsUrl: ctx.venue.wsUrl, clock: ctx.market, logger: silentLogger,
    budget: createSharedBudget(ctx.market), backfill: { infoUrl: ctx.venue.infoUrl,
      lookbackMs: 30 * 3_600_000, waitMs: 20_000, onReport: (r) => ctx.reports.push(r) } });
  if (seed) ctx.feed.seedContext?.('BTC', seed);
  ctx.feed.setSymbols(['BTC']);
  ctx.feed.start((e) => ctx.events.push(e));
  await eventually(() => ctx.reports.some((r) => r.state === 'filled') &&
    ctx.events.some((e) => e.type === 'trade'), { timeoutMs: 20_000, message: 'BTC filled' });
}

const vpinOf = (engine: PairEngine, market: Clock) =>
  engine.publish(market.nowMs())!.views.summary.vpin;

context('no context from the venue: VPIN from the candles, V from the universe', async (ctx) => {
  const seed = await universeContext(ctx.venue, ctx.market);
  await fill(ctx, seed);
  assert.not.ok(ctx.events.some((e) => e.type === 'ctx'), 'the venue sent no context');
  const engine = createPairEngine('BTC', { cadenceMs: 1_000, context: seed });
  for (const e of ctx.events) engine.onEvent(e);
  const summary = engine.publish(ctx.market.nowMs())!.views.summary;
  assert.is(summary.basis, 'mixed');
  assert.type(summary.vpin, 'number');
  // Without the universe's context the candles' volume had no bucket to go to.
  const unseeded = createPairEngine('BTC', { cadenceMs: 1_000 });
  for (const e of ctx.events) unseeded.onEvent(e);
  assert.is(vpinOf(unseeded, ctx.market), null);
});

context('a context after the fill changes V for new volume, keeps the buckets', async (ctx) => {
  const seed = await universeContext(ctx.venue, ctx.market);
  await fill(ctx, seed);
  const engine = createPairEngine('BTC', { cadenceMs: 1_000, context: seed });
  for (const e of ctx.events) engine.onEvent(e);
  const before = vpinOf(engine, ctx.market);
  assert.type(before, 'number');
  const seen = ctx.events.length;
  ctx.venue.sendContexts();
  await eventually(() => ctx.events.slice(seen).some((e) => e.type === 'ctx'),
    { message: 'the late context' });
  const late = ctx.events.slice(seen);
  // The context comes after every candle: it must not restart what they filled.
  const firstCtx = ctx.events.findIndex((e) => e.type === 'ctx');
  assert.ok(firstCtx >= seen && !late.some((e) => e.type === 'candle'));
  for (const e of late) engine.onEvent(e);
  const after = vpinOf(engine, ctx.market);
  assert.type(after, 'number', 'VPIN kept through the late context');
});

context.run();
