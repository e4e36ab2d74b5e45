// WalletTracker: discovery, the bound and its eviction policy, decay, the poll schedule, the
// realized PnL estimate, entry timing, labels and invalid input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TradeEvent } from '../../core/messages.js';
import { WalletTracker } from '../../actors/positioning/wallet-tracker.js';
import { addressOf, position, walletState } from './helpers.js';

const [a, b, c, d, e, f] = [1, 2, 3, 4, 5, 6].map(addressOf);
const hourMs = 3_600_000;

test('when full, a newcomer evicts the least relevant wallet or is refused', () => {
  const tracker = new WalletTracker({ walletsMax: 3 });
  tracker.observeTrade(a, 100, 1, 'BTC', 1_000);
  tracker.observeTrade(b, 200, 1, 'BTC', 1_000);
  tracker.observeTrade(c, 300, -1, 'BTC', 1_000);
  assert.ok(tracker.observeTrade(d, 150, 1, 'BTC', 1_000));
  assert.not.ok(tracker.has(a), 'the least relevant wallet is evicted');
  assert.not.ok(tracker.observeTrade(e, 50, 1, 'BTC', 1_000), 'less relevant than all: refused');
  assert.not.ok(tracker.has(e));
  assert.ok(tracker.observeTrade(f, 250, 1, 'BTC', 1_000));
  assert.not.ok(tracker.has(d), 'd (150) was now the least relevant');
  assert.equal([b, c, f].map((x) => tracker.has(x)), [true, true, true]);
  assert.is(tracker.size, 3);
  const stats = tracker.stats();
  assert.equal([stats.admitted, stats.evicted, stats.refused], [5, 2, 1]);
});

test('relevance decays with market time, so old activity loses its place', () => {
  const halfLifeMs = hourMs;
  const tracker = new WalletTracker({ walletsMax: 2, halfLifeMs });
  tracker.observeTrade(a, 1_000, 1, 'BTC', 0);
  tracker.observeTrade(b, 600, 1, 'BTC', 2 * halfLifeMs); // a is worth 250 by now
  tracker.observeTrade(c, 300, 1, 'BTC', 2 * halfLifeMs);
  assert.not.ok(tracker.has(a));
  assert.ok(tracker.has(b) && tracker.has(c));
  const m = tracker.record(b, 3 * halfLifeMs)!.metrics;
  assert.ok(Math.abs(m.buyNotional - 300) < 1e-9, `decayed to ${m.buyNotional}`);
});

test('open notional from a state counts toward relevance', () => {
  const tracker = new WalletTracker({ walletsMax: 1 });
  tracker.observeTrade(a, 100, 1, 'BTC', 1_000);
  assert.not.ok(tracker.applyState(walletState(b, 1e6, [position({ symbol: 'ETH', size: 0.5 })])));
  assert.ok(tracker.applyState(walletState(b, 1e6, [position({ symbol: 'ETH', size: 5 })])));
  assert.ok(tracker.has(b) && !tracker.has(a));
});

test('trade events track both sides with their own direction', () => {
  const tracker = new WalletTracker();
  const trade: TradeEvent = {
    type: 'trade', symbol: 'BTC', tsMs: 5, price: 100, size: 3, side: -1, tradeId: '1',
    buyer: a.toUpperCase().replace('0X', '0x'), seller: b,
  };
  tracker.observeTradeEvent(trade);
  assert.is(tracker.record(a)!.metrics.buyNotional, 300);
  assert.is(tracker.record(b)!.metrics.sellNotional, 300);
  assert.is(tracker.record(b)!.metrics.buyNotional, 0);
});

test('invalid input is counted and ignored, never thrown', () => {
  const tracker = new WalletTracker();
  assert.not.ok(tracker.observeTrade('0x123', 100, 1, 'BTC', 1));
  assert.not.ok(tracker.observeTrade(a, 0, 1, 'BTC', 1));
  assert.not.ok(tracker.observeTrade(a, Number.NaN, 1, 'BTC', 1));
  assert.not.ok(tracker.observeTrade(a, 10, 0 as 1, 'BTC', 1));
  tracker.observeMark('BTC', -1, 1);
  assert.not.ok(tracker.applyState(walletState('nope', 1, [])));
  assert.is(tracker.size, 0);
  assert.is(tracker.stats().invalidInputs, 6);
  assert.throws(() => new WalletTracker({ walletsMax: 0 }), /walletsMax/);
});

test('poll schedule: never-polled first, by relevance, in flight until answered or late', () => {
  const tracker = new WalletTracker({ pollIntervalMs: 60_000, pollTimeoutMs: 10_000 });
  tracker.observeTrade(a, 100, 1, 'BTC', 1);
  tracker.observeTrade(b, 200, 1, 'BTC', 1);
  tracker.observeTrade(c, 300, 1, 'BTC', 1);
  assert.equal(tracker.dueForPoll(1_000, 2), [c, b]);
  assert.equal(tracker.dueForPoll(1_000, 5), [a]);
  assert.equal(tracker.dueForPoll(1_000, 5), [], 'all in flight');
  tracker.applyState(walletState(c, 1_000, [], 2));
  tracker.pollFailed(a, 1_000);
  assert.equal(tracker.dueForPoll(11_000, 5), [b], 'b timed out; c and a wait an interval');
  assert.equal(tracker.dueForPoll(61_000, 5), [b, a, c], 'never-polled wallets come first');
  assert.equal(tracker.dueForPoll(61_000, 0), []);
});

test('poll failures back off linearly', () => {
  const tracker = new WalletTracker({ pollIntervalMs: 1_000 });
  tracker.observeTrade(a, 100, 1, 'BTC', 1);
  tracker.dueForPoll(0, 1);
  tracker.pollFailed(a, 0);
  tracker.dueForPoll(1_000, 1);
  tracker.pollFailed(a, 1_000);
  assert.equal(tracker.dueForPoll(2_999, 1), []);
  assert.equal(tracker.dueForPoll(3_000, 1), [a]);
});

test('realized PnL is estimated from reductions between states', () => {
  const tracker = new WalletTracker();
  tracker.applyState(walletState(a, 10_000, [position({ symbol: 'BTC', size: 10 })], 1_000));
  tracker.applyState(walletState(a, 10_000,
    [position({ symbol: 'BTC', size: 4, positionValue: 480 })], 2_000)); // mark 120: +6 * 20
  assert.is(tracker.record(a)!.metrics.realizedPnl, 120);
  tracker.observeMark('BTC', 90, 2_500);
  tracker.applyState(walletState(a, 10_000, [], 3_000)); // closed at the last mark: 4 * -10
  assert.is(tracker.record(a)!.metrics.realizedPnl, 80);
  assert.not.ok(tracker.applyState(walletState(a, 1, [], 500)), 'an older state is refused');
  assert.is(tracker.record(a)!.state!.tsMs, 3_000);
});

test('a short reduced at a lower mark realizes a gain', () => {
  const tracker = new WalletTracker();
  tracker.applyState(walletState(a, 10_000, [position({ symbol: 'ETH', size: -10 })], 1));
  tracker.applyState(walletState(a, 10_000,
    [position({ symbol: 'ETH', size: 5, positionValue: 400 })], 2)); // flipped at mark 80
  assert.is(tracker.record(a)!.metrics.realizedPnl, 200);
});

test('entries before large favourable moves make an insider; a label overrides', () => {
  const tracker = new WalletTracker({ largeMovePct: 5, largeMoveHorizonMs: hourMs });
  for (let i = 0; i < 3; i++) tracker.observeTrade(a, 100_000, 1, 'SOL', 1_000 + i, 100);
  tracker.observeTrade(b, 100_000, -1, 'SOL', 1_000, 100);
  tracker.observeTrade(b, 10_000, -1, 'SOL', 1_000, 100); // too small to be judged
  assert.is(tracker.stats().entriesPending, 4);
  tracker.observeMark('SOL', 104.9, 2_000);
  assert.is(tracker.record(a)!.metrics.entriesEvaluated, 0, 'not yet a large move');
  tracker.observeMark('SOL', 105, 3_000);
  assert.equal([tracker.record(a)!.metrics.entriesPrescient, tracker.record(a)!.category],
    [3, 'insider']);
  tracker.observeMark('SOL', 105, 1_000 + hourMs);
  assert.equal([tracker.record(b)!.metrics.entriesEvaluated,
    tracker.record(b)!.metrics.entriesPrescient], [1, 0], 'horizon passed, not prescient');
  tracker.setLabels(new Map([[a, { label: 'Desk', category: 'fund' }]]));
  const labelled = tracker.record(a)!;
  assert.equal([labelled.label, labelled.category, labelled.categoryReason],
    ['Desk', 'fund', 'label file']);
});

test('pending entries are bounded per symbol, oldest dropped', () => {
  const tracker = new WalletTracker({ pendingEntriesPerSymbolMax: 2 });
  for (let i = 0; i < 5; i++) tracker.observeTrade(a, 100_000, 1, 'SOL', i, 100);
  assert.equal([tracker.stats().entriesPending, tracker.stats().entriesDropped], [2, 3]);
});

test('records are ordered by address and carry the category', () => {
  const tracker = new WalletTracker();
  tracker.observeTrade(c, 100, 1, 'BTC', 1);
  tracker.observeTrade(a, 100, 1, 'BTC', 1);
  assert.equal(tracker.records().map((r) => r.address), [a, c]);
  assert.is(tracker.records()[0].category, 'directional_whale');
  assert.is(tracker.record('0xnope'), null);
});

test.run();
