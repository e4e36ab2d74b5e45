// Live backfill against the fake venue, which answers candleSnapshot and fundingHistory in the
// venue's format from the recordings (venue-history.ts): candles and funding go in before the
// live trades, oldest first, with no trade counted twice; the request weights are paid; a slow or
// failing info endpoint (5xx, bad JSON, timeout) lets the pairs go live and says why.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock, systemClock, type Clock } from '../../core/clock.js';
import { createLogger, type Logger } from '../../core/logger.js';
import type { CandleEvent, MarketEvent, TradeEvent } from '../../core/messages.js';
import { createSharedBudget, type SharedBudget } from '../../actors/feed/budget.js';
import { createLivePairFeed } from '../../actors/feed/home/live-pair-feed.js';
import type { BackfillReport } from '../../actors/feed/home/backfill-rounds.js';
import { itemsWeight } from '../../actors/feed/home/info-client.js';
import type { PairFeed } from '../../actors/feed/feed-types.js';
import { createPairEngine } from '../../actors/shard/pair-engine.js';
import { eventually } from '../helpers/eventually.js';
import { minuteOpenOffsetMs, startFakeVenue, type FakeVenue } from './fake-venue.js';

interface Ctx {
  venue: FakeVenue;
  feed: PairFeed | null;
  events: MarketEvent[];
  reports: BackfillReport[];
  logs: string[];
  /** Every weight the budget granted, in order. */
  paid: number[];
}

const backfill = suite<Ctx>('backfill');

/**
 * Market time: the wall clock moved by `offsetMs`, 5 s into a minute at each test's start (see
 * minuteOpenOffsetMs). A test jumps market time forward by adding to `offsetMs`.
 */
const jumpClock = { offsetMs: 0, nowMs: () => Date.now() + jumpClock.offsetMs };

backfill.before.each(async (ctx) => {
  jumpClock.offsetMs = minuteOpenOffsetMs();
  ctx.venue = await startFakeVenue({ frameIntervalMs: 2, shiftToNow: true, clock: jumpClock });
  ctx.feed = null;
  ctx.events = [];
  ctx.reports = [];
  ctx.logs = [];
  ctx.paid = [];
});

backfill.after.each(async (ctx) => {
  await ctx.feed?.stop();
  await ctx.venue.close();
});

/** The shared budget, recording every weight it grants. */
function countingBudget(paid: number[], budget = createSharedBudget(systemClock)): SharedBudget {
  return { ...budget, take(bucket, cost) {
    const waitMs = budget.take(bucket, cost);
    if (waitMs === 0 && bucket === 'rest') paid.push(cost);
    return waitMs;
  } };
}

function start(ctx: Ctx, symbols: string[], backfillOptions: {
  lookbackMs: number; waitMs: number; requestTimeoutMs?: number; candlesPerRequest?: number;
  holdMs?: number; heldTradesMax?: number; retryDelaysMs?: readonly number[];
}, budget?: SharedBudget, clock: Clock = jumpClock): PairFeed {
  const logger: Logger = createLogger({ level: 'info', json: true,
    write: (line) => ctx.logs.push(line) });
  ctx.feed = createLivePairFeed({
    wsUrl: ctx.venue.wsUrl, clock, logger, heartbeatMs: 1_000, silenceMs: 10_000,
    budget: budget ?? countingBudget(ctx.paid),
    backfill: { infoUrl: ctx.venue.infoUrl, ...backfillOptions,
      onReport: (r) => ctx.reports.push(r) },
  });
  ctx.feed.setSymbols(symbols);
  ctx.feed.start((e) => ctx.events.push(e));
  return ctx.feed;
}

/** The pair's first report past 'filling' (or the first in `state`). */
const settled = (ctx: Ctx, symbol: string, state?: BackfillReport['state']) =>
  ctx.reports.find((r) => r.symbol === symbol && r.state !== 'filling' &&
    (state === undefined || r.state === state));
const trades = (events: MarketEvent[], symbol = 'BTC') =>
  events.filter((e): e is TradeEvent => e.type === 'trade' && e.symbol === symbol);
const candles = (events: MarketEvent[], symbol = 'BTC') =>
  events.filter((e): e is CandleEvent => e.type === 'candle' && e.symbol === symbol);

backfill('candles and funding go in first, oldest first, paged, weights paid', async (ctx) => {
  const feed = start(ctx, ['BTC'], { lookbackMs: 3 * 3_600_000, waitMs: 20_000,
    candlesPerRequest: 100 });
  await eventually(() => settled(ctx, 'BTC') && trades(ctx.events).length > 0 &&
    ctx.venue.sentFrames() >= ctx.venue.frames.length);
  assert.equal(ctx.reports[0], { symbol: 'BTC', state: 'filling', candles: 0, fundings: 0,
    reason: null });
  const report = settled(ctx, 'BTC')!;
  assert.is(report.state, 'filled');
  assert.is(report.reason, null);
  const bars = candles(ctx.events);
  assert.is(bars.length, report.candles);
  // Three hours of closed minutes (the minute still running is the trades').
  assert.ok(bars.length >= 179 && bars.length <= 180, `${bars.length} candles`);
  for (let i = 1; i < bars.length; i++) assert.is(bars[i].tsMs - bars[i - 1].tsMs, 60_000);
  const fundings = ctx.events.filter((e) => e.type === 'funding');
  assert.is(fundings.length, report.fundings);
  assert.ok(fundings.length >= 2 && fundings.length <= 3, `${fundings.length} fundings`);
  // Everything backfilled precedes the first trade, in market time order.
  const firstTrade = ctx.events.findIndex((e) => e.type === 'trade');
  const filled = ctx.events.slice(0, firstTrade).filter((e) =>
    e.type === 'candle' || e.type === 'funding');
  assert.is(filled.length, bars.length + fundings.length);
  for (let i = 1; i < filled.length; i++) assert.ok(filled[i].tsMs >= filled[i - 1].tsMs);
  // No double count: a trade inside a candle's minute is dropped, the later ones go on.
  const coveredUntilMs = bars[bars.length - 1].tsMs + 60_000;
  const live = trades(ctx.events);
  assert.ok(live.every((t) => t.tsMs >= coveredUntilMs));
  const covered = feed.stats().dropped.in_candles ?? 0;
  assert.is(live.length + covered, 64, 'every recorded trade once: in a candle or live');
  // Paging: two candle requests (100, then the rest) and one funding request, each paid.
  const asked = ctx.venue.infoRequests as { type: string }[];
  assert.equal(asked.map((r) => r.type), ['candleSnapshot', 'candleSnapshot', 'fundingHistory']);
  assert.equal(ctx.paid, [20, itemsWeight('candleSnapshot', 100), 20,
    itemsWeight('candleSnapshot', bars.length - 100), 20,
    itemsWeight('fundingHistory', fundings.length)]);
  assert.equal(ctx.paid.slice(1, 4), [2, 20, 2]);
  assert.ok(ctx.logs.some((l) => l.includes('backfill round done')));
  assert.not.ok(feed.isWarming!('BTC'));
});

backfill('the pair engine: metrics are numbers, basis candles then mixed', async (ctx) => {
  // As far back as the venue gives (5000 one-minute candles), as in production.
  start(ctx, ['BTC'], { lookbackMs: 84 * 3_600_000, waitMs: 20_000 });
  await eventually(() => settled(ctx, 'BTC') && ctx.venue.sentFrames() >= ctx.venue.frames.length);
  const engine = createPairEngine('BTC', { cadenceMs: 1_000 });
  const firstTrade = ctx.events.findIndex((e) => e.type === 'trade');
  for (const e of ctx.events.slice(0, firstTrade)) engine.onEvent(e);
  const before = engine.publish(jumpClock.nowMs())!.views.summary;
  assert.is(before.basis, 'candles');
  for (const e of ctx.events.slice(firstTrade)) engine.onEvent(e);
  const after = engine.publish(jumpClock.nowMs())!.views.summary;
  assert.is(after.basis, 'mixed');
  assert.type(after.vpin, 'number');
  assert.type(after.vpinLevel, 'string');
  assert.type(after.kyleLambda, 'number');
  assert.type(after.regime, 'string');
  assert.type(after.cvd, 'number');
  assert.type(after.score, 'number');
});

backfill('a reconnect fills the gap from where the pair was, no minute twice', async (ctx) => {
  start(ctx, ['BTC'], { lookbackMs: 3_600_000, waitMs: 20_000 });
  await eventually(() => settled(ctx, 'BTC') && trades(ctx.events).length > 0);
  const first = candles(ctx.events);
  // Ten minutes pass with the connection down.
  jumpClock.offsetMs += 10 * 60_000;
  ctx.venue.dropConnections();
  await eventually(() => ctx.reports.filter((r) => r.state === 'filled').length === 2);
  const gapAt = ctx.events.findIndex((e) => e.type === 'gap');
  assert.ok(gapAt > 0);
  const refill = candles(ctx.events.slice(gapAt));
  assert.ok(refill.length >= 9 && refill.length <= 11, `${refill.length} candles refilled`);
  const all = candles(ctx.events).map((c) => c.tsMs);
  assert.is(new Set(all).size, all.length, 'no candle twice');
  assert.ok(refill[0].tsMs >= first[first.length - 1].tsMs + 60_000);
  // Only the gap was asked for: the second round's first request starts after the first round.
  const asked = (ctx.venue.infoRequests as { type: string; req?: { startTime: number } }[])
    .filter((r) => r.type === 'candleSnapshot');
  assert.is(asked.length, 2);
  assert.ok(asked[1].req!.startTime > first[first.length - 1].tsMs);
});

backfill('restart resume: a restored pair fills only the time since its saved state',
  async (ctx) => {
    const logger = createLogger({ level: 'silent' });
    ctx.feed = createLivePairFeed({ wsUrl: ctx.venue.wsUrl, clock: jumpClock, logger,
      budget: countingBudget(ctx.paid), backfill: { infoUrl: ctx.venue.infoUrl,
        lookbackMs: 24 * 3_600_000, waitMs: 20_000, onReport: (r) => ctx.reports.push(r) } });
    const savedAtMs = jumpClock.nowMs() - 30 * 60_000;
    ctx.feed.resumeFrom!('BTC', savedAtMs);
    ctx.feed.setSymbols(['BTC']);
    ctx.feed.start((e) => ctx.events.push(e));
    await eventually(() => settled(ctx, 'BTC'));
    const bars = candles(ctx.events);
    assert.ok(bars.length >= 29 && bars.length <= 30, `${bars.length} candles`);
    assert.ok(bars[0].tsMs >= savedAtMs);
  });

backfill('a slow info endpoint: late at the wait, publishing; candles, then the held trades',
  async (ctx) => {
    ctx.venue.setHistoryMode({ delayMs: 1_500 });
    const feed = start(ctx, ['BTC'], { lookbackMs: 3_600_000, waitMs: 300 });
    await eventually(() => settled(ctx, 'BTC'));
    const late = settled(ctx, 'BTC')!;
    assert.is(late.state, 'late');
    assert.match(late.reason!, 'not filled within 300 ms: still filling');
    // Past the wait the pair publishes what it has (ctx), its trades still held.
    assert.not.ok(feed.isWarming!('BTC'));
    assert.is(trades(ctx.events).length, 0);
    await eventually(() => ctx.reports.some((r) => r.symbol === 'BTC' && r.state === 'filled'),
      { message: 'filled after the wait', timeoutMs: 15_000 });
    await eventually(() => trades(ctx.events).length > 0,
      { message: 'trades flow', timeoutMs: 15_000 });
    const bars = candles(ctx.events);
    assert.ok(bars.length >= 59, `${bars.length} candles`);
    // Exactly as a pair filled in time: every candle before the first trade, none covered twice.
    const firstTrade = ctx.events.findIndex((e) => e.type === 'trade');
    assert.ok(ctx.events.findLastIndex((e) => e.type === 'candle') < firstTrade);
    const coveredUntilMs = bars[bars.length - 1].tsMs + 60_000;
    assert.ok(trades(ctx.events).every((t) => t.tsMs >= coveredUntilMs));
  });

backfill('past the hold bound the pair goes live unfilled, says why, answer ignored',
  async (ctx) => {
    ctx.venue.setHistoryMode({ delayMs: 3_000 });
    const feed = start(ctx, ['BTC'], { lookbackMs: 3_600_000, waitMs: 300, holdMs: 300 });
    await eventually(() => settled(ctx, 'BTC'));
    const report = settled(ctx, 'BTC')!;
    assert.is(report.state, 'unfilled');
    assert.match(report.reason!, 'not filled within 300 ms');
    assert.not.ok(feed.isWarming!('BTC'));
    await eventually(() => trades(ctx.events).length > 0, { message: 'trades flow' });
    assert.is(candles(ctx.events).length, 0);
    await eventually(() => ctx.logs.some((l) => l.includes('backfill could not fill BTC')));
  });

backfill('the connection drops while a pair is late: the reconnect fills it again',
  async (ctx) => {
    ctx.venue.setHistoryMode({ delayMs: 800 });
    start(ctx, ['BTC'], { lookbackMs: 3_600_000, waitMs: 200 });
    await eventually(() => settled(ctx, 'BTC', 'late'));
    ctx.venue.dropConnections();
    await eventually(() => settled(ctx, 'BTC', 'filled'), { timeoutMs: 15_000 });
    // The trades held before the drop are in the new candles, and so is the venue's replay on
    // the new connection (older than their end): in candles or duplicates, never twice.
    const bars = candles(ctx.events);
    const opens = bars.map((c) => c.tsMs);
    assert.is(new Set(opens).size, opens.length, 'the abandoned answer is not folded');
    assert.ok(bars.length >= 59, `${bars.length} candles`);
    const coveredUntilMs = bars[bars.length - 1].tsMs + 60_000;
    assert.ok(trades(ctx.events).every((t) => t.tsMs >= coveredUntilMs));
    const asked = (ctx.venue.infoRequests as { type: string }[])
      .filter((r) => r.type === 'candleSnapshot');
    assert.is(asked.length, 2, 'asked again after the reconnect');
  });

backfill('too many trades held: the pair goes live unfilled, nothing lost', async (ctx) => {
  ctx.venue.setHistoryMode({ delayMs: 3_000 });
  const feed = start(ctx, ['BTC'], { lookbackMs: 3_600_000, waitMs: 200, heldTradesMax: 5 });
  await eventually(() => ctx.reports.some((r) => r.state === 'unfilled'));
  const report = settled(ctx, 'BTC', 'unfilled')!;
  assert.match(report.reason!, 'more than 5 trades held');
  assert.not.ok(feed.isWarming!('BTC'));
  await eventually(() => ctx.venue.sentFrames() >= ctx.venue.frames.length);
  await eventually(() => trades(ctx.events).length + (feed.stats().dropped.in_candles ?? 0) >= 64);
  assert.is(candles(ctx.events).length, 0);
});

for (const [fail, reason] of [['status', 'status 503'], ['bad-json', 'candleSnapshot: '],
  ['hang', 'timeout']] as const) {
  backfill(`a failing info endpoint (${fail}): retried, then the pair goes live named`,
    async (ctx) => {
      ctx.venue.setHistoryMode({ fail, coins: ['ETH'] });
      start(ctx, ['BTC', 'ETH'], { lookbackMs: 3_600_000, waitMs: 10_000,
        requestTimeoutMs: 300, retryDelaysMs: [50, 100] });
      await eventually(() => settled(ctx, 'BTC') && settled(ctx, 'ETH'));
      assert.is(settled(ctx, 'BTC')!.state, 'filled');
      const eth = settled(ctx, 'ETH')!;
      assert.is(eth.state, 'unfilled');
      assert.match(eth.reason!, reason);
      assert.match(eth.reason!, 'asked 3 times');
      const asked = (ctx.venue.infoRequests as { type: string; req?: { coin?: string } }[])
        .filter((r) => r.type === 'candleSnapshot' && r.req?.coin === 'ETH');
      assert.is(asked.length, 3, 'the first request and two retries');
      assert.is(candles(ctx.events, 'ETH').length, 0);
      assert.ok(candles(ctx.events, 'BTC').length >= 59);
      await eventually(() => trades(ctx.events, 'ETH').length > 0,
        { message: 'ETH trades flow' });
      const line = ctx.logs.find((l) => l.includes('backfill could not fill'));
      assert.ok(line && line.includes('ETH') && !line.includes('BTC,'), line);
    });
}

backfill('a request the venue refuses (4xx) is not asked again: the pair goes live at once',
  async (ctx) => {
    ctx.venue.setHistoryMode({ fail: 'refused', coins: ['ETH'] });
    start(ctx, ['BTC', 'ETH'], { lookbackMs: 3_600_000, waitMs: 10_000,
      retryDelaysMs: [50, 100] });
    await eventually(() => settled(ctx, 'ETH'));
    const eth = settled(ctx, 'ETH')!;
    assert.is(eth.state, 'unfilled');
    assert.match(eth.reason!, 'status 422');
    assert.not.match(eth.reason!, 'asked');
    const asked = (ctx.venue.infoRequests as { type: string; req?: { coin?: string } }[])
      .filter((r) => r.type === 'candleSnapshot' && r.req?.coin === 'ETH');
    assert.is(asked.length, 1);
    await eventually(() => trades(ctx.events, 'ETH').length > 0, { message: 'ETH trades flow' });
  });

backfill('a request that fails twice is asked again and the pair fills, trades after candles',
  async (ctx) => {
    ctx.venue.setHistoryMode({ fail: 'status', coins: ['ETH'], failTimes: 2 });
    start(ctx, ['BTC', 'ETH'], { lookbackMs: 3_600_000, waitMs: 10_000,
      retryDelaysMs: [50, 100, 150] });
    await eventually(() => settled(ctx, 'ETH'), { timeoutMs: 15_000 });
    const eth = settled(ctx, 'ETH')!;
    assert.is(eth.state, 'filled', eth.reason ?? '');
    assert.is(eth.reason, null);
    const bars = candles(ctx.events, 'ETH');
    assert.ok(bars.length >= 59, `${bars.length} candles`);
    await eventually(() => trades(ctx.events, 'ETH').length > 0, { message: 'ETH trades flow' });
    const isEth = (e: MarketEvent) => 'symbol' in e && e.symbol === 'ETH';
    const firstTrade = ctx.events.findIndex((e) => isEth(e) && e.type === 'trade');
    assert.ok(ctx.events.findLastIndex((e) => isEth(e) && e.type === 'candle') < firstTrade);
    assert.not.ok(ctx.logs.some((l) => l.includes('backfill could not fill')));
  });

backfill('no request goes out without budget; the late pair fills once the budget refills',
  async (ctx) => {
    const clock = new ManualClock(jumpClock.nowMs());
    const budget = createSharedBudget(clock);
    assert.is(budget.take('rest', 1_190), 0);
    start(ctx, ['BTC'], { lookbackMs: 3_600_000, waitMs: 300 },
      countingBudget(ctx.paid, budget));
    await eventually(() => settled(ctx, 'BTC'));
    assert.is(settled(ctx, 'BTC')!.state, 'late');
    assert.match(settled(ctx, 'BTC')!.reason!, 'not filled within 300 ms');
    const asked = (ctx.venue.infoRequests as { type: string }[]).map((r) => r.type);
    assert.equal(asked, [], 'nothing asked beyond the budget');
    assert.equal(ctx.paid, []);
    // The waiting request gets its budget: candles first, then the trades held meanwhile.
    clock.advance(60_000);
    await eventually(() => settled(ctx, 'BTC', 'filled'), { timeoutMs: 15_000 });
    await eventually(() => trades(ctx.events).length > 0, { timeoutMs: 15_000 });
    const bars = candles(ctx.events);
    assert.ok(bars.length >= 59, `${bars.length} candles`);
    const firstTrade = ctx.events.findIndex((e) => e.type === 'trade');
    assert.ok(ctx.events.findLastIndex((e) => e.type === 'candle') < firstTrade);
  });

backfill.run();
