// The pair engine on the home venue's real frames: trades and books from separate channels fold
// in without faulting, views are valid JSON with the spec's fields, and a gap marks the pair stale.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { createPairEngine } from '../../actors/shard/pair-engine.js';
import { BOOK_SLOTS_MAX, Mailbox, type MailboxReader } from '../../actors/shard/mailbox.js';
import { numericTradeId } from '../../actors/feed/recent-trade-ids.js';
import type { BookFields, TradeFields } from '../../actors/feed/feed-types.js';
import { importWsRaw, type ImportReport } from '../../actors/feed/import/hl-ws-raw.js';
import type { MarketEvent } from '../../core/messages.js';
import { venueFixture } from '../helpers/fixtures.js';

const decoder = new TextDecoder();

function realBtcEvents(): MarketEvent[] {
  const report: ImportReport = { events: [], dropped: {} };
  importWsRaw(readFileSync(venueFixture('hl_ws_btc_raw_2025-01-26.txt'), 'utf8'), report);
  return report.events;
}

test('real BTC frames (trades and books interleaved) fold in and publish valid views', () => {
  let wallMs = 1_000;
  const engine = createPairEngine('BTC', { cadenceMs: 1_000,
    wallNowMs: () => wallMs });
  const events = realBtcEvents();
  assert.ok(events.filter((e) => e.type === 'trade').length >= 60);
  assert.ok(events.filter((e) => e.type === 'book').length >= 40);
  for (const event of events) engine.onEvent(event);
  const out = engine.publish(wallMs);
  assert.ok(out, 'views after events');
  const deep = JSON.parse(decoder.decode(out!.views.views['deep-view']) + '');
  assert.is(deep.symbol, 'BTC');
  assert.type(deep.obi, 'number');
  assert.ok(deep.obi >= -1 && deep.obi <= 1);
  assert.type(deep.cvd, 'number');
  assert.is(deep.stale, false);
  assert.ok(Number.isInteger(out!.views.summary.score ?? 0));
  const cvd = JSON.parse(decoder.decode(out!.views.views.cvd));
  assert.equal(Object.keys(cvd.history), ['1m', '5m', '15m', '1h']);
  assert.is(engine.publish(wallMs), null, 'nothing changed, nothing published');
  wallMs += 3_001;
  assert.is(engine.publish(wallMs)!.views.summary.stale, true, 'silent for 3 cadences');
});

test('hourly candles: the bar store gets every hour\'s 5m bar with its range, in order', () => {
  // The next candle's first print closes the hour's 5m bar and writes eleven flat ones after it:
  // the one with trades goes out too, or the store keeps one flat bar an hour and an outcome
  // sees only the hours' closes.
  const engine = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 0 });
  const hourMs = 3_600_000;
  const startMs = Date.UTC(2026, 2, 2);
  const closes = [100, 101, 99.5, 100.5];
  const outbound: { kind: string; tsMs: number; data: unknown }[] = [];
  closes.forEach((close, i) => {
    const open = i === 0 ? 100 : closes[i - 1];
    engine.onEvent({ type: 'candle', symbol: 'BTC', tsMs: startMs + i * hourMs,
      intervalMs: hourMs, open, high: Math.max(open, close) + 0.8,
      low: Math.min(open, close) - 0.7, close, volume: 50 });
    outbound.push(...(engine.publish(0)?.outbound ?? []));
  });
  const bars5m = outbound.filter((o) => o.kind === 'bar')
    .map((o) => o.data as { timeframe: string; openMs: number; high: number; low: number;
      trades: number })
    .filter((bar) => bar.timeframe === '5m');
  for (let i = 0; i < closes.length - 1; i++) {
    const open = i === 0 ? 100 : closes[i - 1];
    const bar = bars5m.find((b) => b.openMs === startMs + i * hourMs);
    assert.ok(bar, `the 5m bar of hour ${i}`);
    assert.is(bar.high, Math.max(open, closes[i]) + 0.8);
    assert.is(bar.low, Math.min(open, closes[i]) - 0.7);
    assert.ok(bar.trades > 0);
  }
  const opens = bars5m.map((b) => b.openMs);
  assert.equal(opens, [...new Set(opens)].sort((a, b) => a - b), 'each bar once, in order');
});

test('a trade stamped before the newest book is folded in, not refused', () => {
  const engine = createPairEngine('BTC', { cadenceMs: 1_000 });
  engine.onEvent({ type: 'book', symbol: 'BTC', tsMs: 10_000, bids: [100, 1], asks: [101, 1] });
  engine.onEvent({ type: 'trade', symbol: 'BTC', tsMs: 9_990, price: 100.5, size: 2, side: 1,
    tradeId: '1', buyer: null, seller: null });
  const out = engine.publish(0)!;
  assert.is(out.views.summary.cvd, 201);
});

test('a gap marks the pair stale until fresh data arrives', () => {
  const engine = createPairEngine('BTC', { cadenceMs: 1_000,
    wallNowMs: () => 0 });
  engine.onEvent({ type: 'trade', symbol: 'BTC', tsMs: 1, price: 100, size: 1, side: -1,
    tradeId: '1', buyer: null, seller: null });
  assert.is(engine.publish(0)!.views.summary.stale, false);
  engine.onEvent({ type: 'gap', symbol: 'BTC', tsMs: 2, reason: 'disconnect' });
  assert.is(engine.publish(0)!.views.summary.stale, true);
  engine.onEvent({ type: 'trade', symbol: 'BTC', tsMs: 3, price: 100, size: 1, side: 1,
    tradeId: '2', buyer: null, seller: null });
  assert.is(engine.publish(0)!.views.summary.stale, false);
});

/** The trade as the fast path hands it: fields in a reused struct. */
const fields: TradeFields = { tsMs: 0, price: 0, size: 0, side: 1, tradeId: 0, tradeIdText: null,
  buyer: null, seller: null };
function pushTrade(mailbox: Mailbox, e: MarketEvent & { type: 'trade' }): void {
  Object.assign(fields, { tsMs: e.tsMs, price: e.price, size: e.size, side: e.side,
    tradeId: numericTradeId(e.tradeId), tradeIdText: null, buyer: e.buyer, seller: e.seller });
  mailbox.trade(fields);
}

/** The book as the fast path hands it: levels in a reused struct (here 25 slots a side). */
const bookFields: BookFields = { tsMs: 0, bidPx: new Float64Array(25),
  bidSz: new Float64Array(25), askPx: new Float64Array(25), askSz: new Float64Array(25),
  bidLevels: 0, askLevels: 0 };
function pushBook(mailbox: Mailbox, e: MarketEvent & { type: 'book' }): void {
  const side = (flat: readonly number[], px: Float64Array, sz: Float64Array) => {
    for (let i = 0; i < flat.length >> 1; i++) [px[i], sz[i]] = [flat[2 * i], flat[2 * i + 1]];
    return flat.length >> 1;
  };
  bookFields.tsMs = e.tsMs;
  bookFields.bidLevels = side(e.bids, bookFields.bidPx, bookFields.bidSz);
  bookFields.askLevels = side(e.asks, bookFields.askPx, bookFields.askSz);
  mailbox.book(bookFields);
}

/**
 * Feeds `events` to one engine directly and to another through a mailbox drained every
 * `drainAt` events (books as fields or as whole events): both must publish the same views.
 */
function assertMailboxEqualsDirect(events: MarketEvent[], drainAt: number,
  booksAsFields: boolean): void {
  const direct = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 5 });
  const viaMailbox = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 5 });
  const mailbox = new Mailbox(drainAt, 'BTC');
  for (const event of events) {
    direct.onEvent(event);
    if (event.type === 'trade') pushTrade(mailbox, event);
    else if (booksAsFields && event.type === 'book') pushBook(mailbox, event);
    else mailbox.event(event);
    if (mailbox.length === drainAt) viaMailbox.drain(mailbox);
  }
  viaMailbox.drain(mailbox);
  assert.is(mailbox.dropped, 0);
  const a = direct.publish(5)!;
  const b = viaMailbox.publish(5)!;
  assert.equal(b.views.summary, a.views.summary);
  for (const name of Object.keys(a.views.views)) {
    assert.is(decoder.decode(b.views.views[name]), decoder.decode(a.views.views[name]), name);
  }
}

for (const drainAt of [16, BOOK_SLOTS_MAX * 4]) {
  test(`a mailbox of trade and book fields drained every ${drainAt} events equals events ` +
    'applied one by one (books past the book ring queue as objects)', () => {
    const events = realBtcEvents();
    // Enough books in one batch to fill the book ring: replay the file's books again, later.
    const lastMs = events[events.length - 1].tsMs;
    const books = events.filter((e) => e.type === 'book');
    while (drainAt > 16 && books.length <= BOOK_SLOTS_MAX) books.push(...books);
    events.push(...books.map((b, i) => ({ ...b, tsMs: lastMs + i })));
    assertMailboxEqualsDirect(events, drainAt, true);
  });
}

test('a mailbox of trade fields drained into the engine equals events applied one by one', () => {
  assertMailboxEqualsDirect(realBtcEvents(), 16, false);
});

test('mailbox: bounded, drop-oldest across trades and events, wakes once per batch', () => {
  const mailbox = new Mailbox(3, 'BTC');
  let wakes = 0;
  mailbox.onWake = () => wakes++;
  const trade = (tsMs: number) => ({ type: 'trade' as const, symbol: 'BTC', tsMs, price: 1,
    size: 1, side: 1 as const, tradeId: String(tsMs), buyer: 'b', seller: null });
  pushTrade(mailbox, trade(1));
  mailbox.event({ type: 'gap', symbol: 'BTC', tsMs: 2, reason: 'x' });
  pushTrade(mailbox, trade(3));
  pushTrade(mailbox, trade(4));
  mailbox.event({ type: 'gap', symbol: 'BTC', tsMs: 5, reason: 'y' });
  assert.is(wakes, 1);
  assert.is(mailbox.dropped, 2);
  assert.is(mailbox.pushed, 5);
  const seen: string[] = [];
  const reader: MailboxReader = {
    trade: (tsMs, _p, _s, _side, buyer) => seen.push(`t${tsMs}${buyer}`),
    book: (tsMs, bidPx, _bs, bids, askPx, _as, asks) =>
      seen.push(`b${tsMs}:${[...bidPx.subarray(0, bids), ...askPx.subarray(0, asks)]}`),
    event: (e) => seen.push(`${e.type}${e.tsMs}`),
  };
  assert.is(mailbox.drain(reader), 3);
  assert.equal(seen, ['t3b', 't4b', 'gap5']);
  assert.is(mailbox.length, 0);
  pushTrade(mailbox, trade(6));
  assert.is(wakes, 2, 'an empty mailbox wakes its owner again');
  // A book dropped at the head frees its book slot: the next books come out in order.
  const book = (tsMs: number) => ({ type: 'book' as const, symbol: 'BTC', tsMs,
    bids: [tsMs, 1], asks: [tsMs + 1, 1] });
  pushBook(mailbox, book(7));
  pushBook(mailbox, book(8));
  pushBook(mailbox, book(9));
  pushBook(mailbox, book(10));
  seen.length = 0;
  mailbox.drain(reader);
  assert.equal(seen, ['b8:8,9', 'b9:9,10', 'b10:10,11']);
  assert.is(mailbox.dropped, 4);
  assert.throws(() => new Mailbox(0, 'BTC'), /positive integer/);
});

test('mailbox: grows in order past its first slots (wrapped or not), drops only when full', () => {
  const capacity = 1_000;
  const mailbox = new Mailbox(capacity, 'BTC');
  const seen: string[] = [];
  const reader: MailboxReader = {
    trade: (tsMs, _p, _s, _side, buyer) => seen.push(`t${tsMs}${buyer}`),
    book: (tsMs, bidPx, _bs, bids) => seen.push(`b${tsMs}:${[...bidPx.subarray(0, bids)]}`),
    // Books past the book ring's bound come as objects: the same text as from the ring.
    event: (e) => seen.push(e.type === 'book' ? `b${e.tsMs}:${e.bids[0]}` : `${e.type}${e.tsMs}`),
  };
  const expected: string[] = [];
  let tsMs = 0;
  const push = (n: number) => {
    for (let k = 0; k < n; k++) {
      tsMs++;
      if (tsMs % 3 === 0) {
        pushBook(mailbox, { type: 'book', symbol: 'BTC', tsMs, bids: [tsMs, 1], asks: [] });
        expected.push(`b${tsMs}:${tsMs}`);
      } else if (tsMs % 3 === 1) {
        pushTrade(mailbox, { type: 'trade', symbol: 'BTC', tsMs, price: 1, size: 1, side: 1,
          tradeId: String(tsMs), buyer: `w${tsMs}`, seller: null });
        expected.push(`t${tsMs}w${tsMs}`);
      } else {
        mailbox.event({ type: 'gap', symbol: 'BTC', tsMs, reason: 'x' });
        expected.push(`gap${tsMs}`);
      }
    }
  };
  // Wrapped: the head is mid-ring when the first growth comes.
  push(40);
  mailbox.drain(reader);
  push(capacity);
  assert.is(mailbox.length, capacity);
  mailbox.drain(reader);
  // More books than the book ring's bound in one batch: the rest queue as objects, in order.
  assert.equal(seen, expected);
  assert.is(mailbox.dropped, 0);
  seen.length = 0;
  expected.length = 0;
  push(capacity + 5);
  mailbox.drain(reader);
  assert.is(mailbox.dropped, 5);
  assert.equal(seen, expected.slice(5));
});

test.run();
