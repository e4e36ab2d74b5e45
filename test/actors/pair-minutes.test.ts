// The pair engine's 1-minute history points: the mark candle from the asset context, USD volume
// from the trades, closed by the first event of a later minute; an empty minute is no point.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPairEngine } from '../../actors/shard/pair-engine.js';
import type { MarketEvent } from '../../core/messages.js';

const T0 = Date.parse('2026-11-20T10:00:00.000Z');

const ctx = (s: number, markPx: number): MarketEvent => ({ type: 'ctx', symbol: 'ETH',
  tsMs: T0 + s * 1_000, markPx, prevDayPx: 100, dayNtlVlm: 1e6, openInterest: 50,
  fundingRate: 0.0000125, oraclePx: null, midPx: null });
const trade = (s: number, price: number, size: number): MarketEvent => ({ type: 'trade',
  symbol: 'ETH', tsMs: T0 + s * 1_000, price, size, side: 1, tradeId: String(s), buyer: null,
  seller: null });

test('candle, volume, open interest and funding per minute; no point for an empty minute', () => {
  const engine = createPairEngine('ETH', { cadenceMs: 1_000 });
  for (const e of [ctx(0, 100), trade(10, 100, 2), ctx(20, 105), ctx(30, 95), ctx(50, 101),
    trade(55, 101, 1)]) engine.onEvent(e);
  assert.equal(engine.publish(T0)?.history, [], 'the minute is still open');
  engine.onEvent(trade(125, 102, 3));
  const [first, ...none] = engine.publish(T0)!.history!;
  assert.is(none.length, 0);
  assert.is(first.tMs, T0);
  assert.equal([first.open, first.high, first.low, first.close], [100, 105, 95, 101]);
  assert.is(first.volume, 100 * 2 + 101 * 1);
  assert.is(first.openInterest, 50 * 101);
  assert.is(first.fundingRate, 0.0000125);
  assert.is(first.fundingAnnualized, 0.0000125 * 24 * 365 * 100);
  assert.type(first.cvd, 'number');
  engine.onEvent(trade(185, 103, 1));
  const [second] = engine.publish(T0)!.history!;
  // 10:01 had no event: absent. 10:02 had no mark update: flat at the previous close.
  assert.is(second.tMs, T0 + 120_000);
  assert.equal([second.open, second.high, second.low, second.close], [101, 101, 101, 101]);
  assert.is(second.volume, 102 * 3);
});

test('before any mark the candle is the last trade price', () => {
  const engine = createPairEngine('ETH', { cadenceMs: 1_000 });
  engine.onEvent(trade(1, 99, 1));
  engine.onEvent(trade(61, 98, 1));
  const [point] = engine.publish(T0)!.history!;
  assert.equal([point.open, point.close, point.openInterest, point.fundingRate],
    [99, 99, null, null]);
});

test.run();
