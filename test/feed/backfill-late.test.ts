// Every tracked pair is filled, not only those the request budget reaches within the wait: the
// fake venue (answers in the venue's format from the recordings), a budget too small for the
// pairs, and the budget's minutes on simulated time (test/helpers/simulated-time.ts). Readiness
// (BackfillStatus, /readyz's backfill check) holds at the wait; the late pairs publish, keep
// filling, and end exactly as pairs filled in time: candles first, then their held trades.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { shiftedClock, type Clock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import { createSharedBudget } from '../../actors/feed/budget.js';
import { createBackfiller } from '../../actors/feed/home/backfill.js';
import type { BackfillReport } from '../../actors/feed/home/backfill-rounds.js';
import { createInfoClient } from '../../actors/feed/home/info-client.js';
import { createLivePairFeed } from '../../actors/feed/home/live-pair-feed.js';
import type { PairFeed } from '../../actors/feed/feed-types.js';
import { BackfillStatus } from '../../actors/runtime/backfill-status.js';
import { createPairEngine } from '../../actors/shard/pair-engine.js';
import { eventually } from '../helpers/eventually.js';
import { SimulatedTime } from '../helpers/simulated-time.js';
import { minuteOpenOffsetMs, startFakeVenue, type FakeVenue } from './fake-venue.js';

/** `market`: the venue's and the feed's clock, 5 s into a minute at the start (fake-venue.ts). */
const late = suite<{ venue: FakeVenue; feed: PairFeed | null; stopDriving: () => void;
  market: Clock }>('backfill: late pairs');

/**
 * The twelve busiest main-dex coins of the recording (each with a 24h volume for VPIN), in a
 * shard's (alphabetical) order; by volume BTC, ETH, SOL, HYPE, XRP ... AAVE last.
 */
const symbols = ['AAVE', 'BNB', 'BTC', 'DOGE', 'ETH', 'FARTCOIN', 'HYPE', 'PUMP', 'SOL', 'SUI',
  'XRP', 'ZEC'];
const waitMs = 10_000;

late.before.each(async (ctx) => {
  ctx.market = shiftedClock(Date.now() + minuteOpenOffsetMs());
  ctx.venue = await startFakeVenue({ frameIntervalMs: 2, shiftToNow: true, clock: ctx.market });
  ctx.feed = null;
  ctx.stopDriving = () => {};
});

late.after.each(async (ctx) => {
  ctx.stopDriving();
  await ctx.feed?.stop();
  await ctx.venue.close();
});

late('a budget too small for the wait: ready at the wait, every pair filled later',
  async (ctx) => {
    const time = new SimulatedTime(Date.now());
    const startMs = time.nowMs();
    // The venue's budget, already spent at start (as by other clients of the same IP): the
    // twelve pairs need ~950 weight, which comes back at 20 a second.
    const budget = createSharedBudget(time);
    assert.is(budget.take('rest', 1_200), 0);
    let inFlight = 0;
    const countingFetch: typeof fetch = async (input, init) => {
      inFlight++;
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    };
    const info = createInfoClient({ url: ctx.venue.infoUrl, budget, clock: time, timers: time,
      fetch: countingFetch });
    const status = new BackfillStatus(true);
    const reports: (BackfillReport & { atMs: number })[] = [];
    const seen: { atWait?: { ready: boolean; filled: number; detail: string; warming: number } }
      = {};
    const events: MarketEvent[] = [];
    const feed = createLivePairFeed({
      wsUrl: ctx.venue.wsUrl, clock: ctx.market, logger: silentLogger, budget,
      silenceMs: 60_000,
      backfill: { infoUrl: ctx.venue.infoUrl, lookbackMs: 30 * 3_600_000, waitMs, timers: time,
        backfiller: createBackfiller(info),
        onReport: (report) => {
          status.onReport(report);
          reports.push({ ...report, atMs: time.nowMs() - startMs });
          // Read once every late pair has reported (they do so in one turn).
          if (report.state === 'late' && seen.atWait === undefined) {
            queueMicrotask(() => {
              seen.atWait = { ready: status.check(symbols), detail: status.detail(symbols)!,
                filled: reports.filter((r) => r.state === 'filled').length,
                warming: symbols.filter((s) => feed.isWarming!(s)).length };
            });
          }
        } },
    });
    ctx.feed = feed;
    feed.setSymbols(symbols);
    feed.start((e) => events.push(e));
    ctx.stopDriving = time.drive(() => inFlight === 0);
    const filled = () => symbols.every((s) => reports.some((r) => r.symbol === s &&
      r.state === 'filled'));
    await eventually(filled, { timeoutMs: 30_000, message: 'every pair filled' });

    // At the wait: ready, some pairs filled, the others named as still filling and published.
    const wait = seen.atWait!;
    assert.ok(wait, 'a pair was late');
    assert.ok(wait.ready, 'the backfill check holds at the wait');
    assert.ok(wait.filled < symbols.length, `${wait.filled} filled at the wait`);
    assert.match(wait.detail, `not filled within ${waitMs} ms: still filling`);
    assert.is(wait.warming, 0, 'no pair hides its views past the wait');
    const lateReports = reports.filter((r) => r.state === 'late');
    assert.ok(lateReports.every((r) => r.atMs === waitMs), 'late exactly at the wait');
    const lastFillMs = Math.max(...reports.filter((r) => r.state === 'filled').map((r) => r.atMs));
    assert.ok(lastFillMs > waitMs, `last pair filled at ${lastFillMs} ms of budget time`);
    // The first two are asked before any ctx came (the shard's order); then the busiest first.
    const order = reports.filter((r) => r.state === 'filled').map((r) => r.symbol);
    assert.equal(order.slice(2, 4).sort(), ['BTC', 'ETH'], order.join(', '));
    assert.ok(status.check(symbols));
    assert.is(status.detail(symbols), `${symbols.length} of ${symbols.length} pairs filled ` +
      'from candles');

    // Each pair as a pair filled in time: candles before its first trade, numbers, basis.
    await eventually(() => ctx.venue.sentFrames() >= ctx.venue.frames.length);
    await eventually(() => symbols.every((s) => events.some((e) => e.type === 'trade' &&
      e.symbol === s)), { message: 'every pair trades' });
    for (const symbol of symbols) {
      const mine = events.filter((e) => 'symbol' in e && e.symbol === symbol);
      const firstTrade = mine.findIndex((e) => e.type === 'trade');
      assert.ok(mine.findLastIndex((e) => e.type === 'candle') < firstTrade, symbol);
      const engine = createPairEngine(symbol, { cadenceMs: 1_000 });
      for (const e of mine) engine.onEvent(e);
      const summary = engine.publish(ctx.market.nowMs())!.views.summary;
      assert.type(summary.vpin, 'number', `${symbol} vpin`);
      assert.ok(summary.basis === 'mixed' || summary.basis === 'candles', `${symbol} basis`);
      assert.type(summary.kyleLambda, 'number', `${symbol} kyleLambda`);
    }
  });

late.run();
