// The view builders: deterministic ordering, stale states left out, bounds, pair positioning.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TradeEvent } from '../../core/messages.js';
import {
  buildPairPositioning, buildSmartMoneyView, buildWalletsView, buildWalletView, whaleTradeOf,
} from '../../actors/positioning/views.js';
import type { WhaleTrade } from '../../actors/positioning/types.js';
import { addressOf, position, record, walletState } from './helpers.js';

const [a, b, c] = [1, 2, 3].map(addressOf);
const hourMs = 3_600_000;

const records = [
  record(walletState(b, 2_000, [position({ symbol: 'BTC', size: 10 }),
    position({ symbol: 'ETH', size: -5 })], 10 * hourMs), { category: 'fund', label: 'B' }),
  record(walletState(a, 3_000, [position({ symbol: 'BTC', size: -10 })], 10 * hourMs),
    { category: 'degen' }),
  record(walletState(c, 9_000, [position({ symbol: 'BTC', size: 50 })], 1 * hourMs)),
  record(null, { address: addressOf(4) }),
];

test('smart money: current states only, largest first, ties by address then symbol', () => {
  const view = buildSmartMoneyView(records, 12 * hourMs);
  assert.is(view.wallets, 2, 'c is 11 h old and the fourth has no state');
  assert.equal(view.positions.map((p) => [p.address, p.symbol, p.side, p.notional]), [
    [a, 'BTC', 'short', 1_000], [b, 'BTC', 'long', 1_000], [b, 'ETH', 'short', 500],
  ]);
  assert.equal([view.positions[1].label, view.positions[1].category], ['B', 'fund']);
  const capped = buildSmartMoneyView(records, 12 * hourMs, { positionsMax: 1 });
  assert.is(capped.positions.length, 1);
  const all = buildSmartMoneyView(records, 12 * hourMs, { stateAgeMsMax: 24 * hourMs,
    notionalMinUsd: 600 });
  assert.equal(all.positions.map((p) => p.address), [c, a, b]);
  assert.equal(buildSmartMoneyView([...records].reverse(), 12 * hourMs), view, 'order-free');
});

test('wallets: largest account first; a wallet without a state has no view', () => {
  const view = buildWalletsView(records);
  assert.equal(view.wallets.map((w) => w.address), [c, a, b]);
  assert.is(view.count, 3);
  assert.is(buildWalletView(records[3]), null);
  assert.is(buildWalletView(undefined), null);
  const wallet = buildWalletView(records[0])!;
  assert.equal(wallet.positions.map((p) => [p.symbol, p.side, p.size]),
    [['BTC', 'long', 10], ['ETH', 'short', 5]]);
  assert.is(wallet.stateAt, new Date(10 * hourMs).toISOString());
});

test('pair positioning: whales newest first for the pair, net notional by category', () => {
  const trades: WhaleTrade[] = [
    { symbol: 'BTC', address: a, side: 'buy', notional: 1e6, price: 100, tsMs: 1_000 },
    { symbol: 'ETH', address: a, side: 'buy', notional: 1e6, price: 10, tsMs: 3_000 },
    { symbol: 'BTC', address: b, side: 'sell', notional: 2e6, price: 99, tsMs: 2_000 },
  ];
  const pair = buildPairPositioning('BTC', records, trades);
  assert.equal(pair.whales, [
    { address: b, side: 'sell', notional: 2e6, price: 99, time: '1970-01-01T00:00:02.000Z' },
    { address: a, side: 'buy', notional: 1e6, price: 100, time: '1970-01-01T00:00:01.000Z' },
  ]);
  assert.equal(pair.smartMoney.long, { fund: 1_000, smart_money: 0, directional_whale: 5_000,
    market_maker: 0, degen: 0, insider: 0 });
  assert.equal(pair.smartMoney.short.degen, 1_000);
  assert.is(pair.smartMoney.net, 5_000);
  assert.is(buildPairPositioning('BTC', records, trades, 1).whales.length, 1);
  assert.equal(buildPairPositioning('DOGE', records, trades).smartMoney.net, 0);
});

test('a print belongs to its aggressor', () => {
  const trade: TradeEvent = {
    type: 'trade', symbol: 'BTC', tsMs: 7, price: 100, size: 2, side: -1, tradeId: 't',
    buyer: a, seller: b.toUpperCase().replace('0X', '0x'),
  };
  assert.equal(whaleTradeOf(trade),
    { symbol: 'BTC', address: b, side: 'sell', notional: 200, price: 100, tsMs: 7 });
  assert.is(whaleTradeOf({ ...trade, side: 1, buyer: null }), null);
});

test.run();
