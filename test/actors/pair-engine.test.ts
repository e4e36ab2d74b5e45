// The pair engine on the home venue's real frames: trades and books from separate channels fold
// in without faulting, views are valid JSON with the spec's fields, and a gap marks the pair stale.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { createPairEngine } from '../../actors/shard/pair-engine.js';
import { Mailbox, type MailboxReader } from '../../actors/shard/mailbox.js';
import { numericTradeId } from '../../actors/feed/recent-trade-ids.js';
import type { TradeFields } from '../../actors/feed/feed-types.js';
import { importWsRaw, type ImportReport } from '../../actors/feed/import/hl-ws-raw.js';
import type { MarketEvent } from '../../actors/messages.js';
import { sharedDataPath } from '../helpers/eventually.js';

const decoder = new TextDecoder();

function realBtcEvents(): MarketEvent[] {
  const report: ImportReport = { events: [], dropped: {} };
  importWsRaw(readFileSync(sharedDataPath('hl_ws_btc_raw_2025-01-26.txt'), 'utf8'), report);
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

test('a mailbox of trade fields drained into the engine equals events applied one by one', () => {
  const direct = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 5 });
  const viaMailbox = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 5 });
  const mailbox = new Mailbox(16);
  for (const event of realBtcEvents()) {
    direct.onEvent(event);
    if (event.type === 'trade') pushTrade(mailbox, event);
    else mailbox.event(event);
    if (mailbox.length === 16) viaMailbox.drain(mailbox);
  }
  viaMailbox.drain(mailbox);
  assert.is(mailbox.dropped, 0);
  const a = direct.publish(5)!;
  const b = viaMailbox.publish(5)!;
  assert.equal(b.views.summary, a.views.summary);
  for (const name of Object.keys(a.views.views)) {
    assert.is(decoder.decode(b.views.views[name]), decoder.decode(a.views.views[name]), name);
  }
});

test('mailbox: bounded, drop-oldest across trades and events, wakes once per batch', () => {
  const mailbox = new Mailbox(3);
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
    event: (e) => seen.push(`${e.type}${e.tsMs}`),
  };
  assert.is(mailbox.drain(reader), 3);
  assert.equal(seen, ['t3b', 't4b', 'gap5']);
  assert.is(mailbox.length, 0);
  pushTrade(mailbox, trade(6));
  assert.is(wakes, 2, 'an empty mailbox wakes its owner again');
  assert.throws(() => new Mailbox(0), /positive integer/);
});

test.run();
