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

const candle = (s: number, intervalMs: number, ohlc: readonly number[], volume: number):
  MarketEvent => ({ type: 'candle', symbol: 'ETH', tsMs: T0 + s * 1_000, intervalMs,
  open: ohlc[0]!, high: ohlc[1]!, low: ohlc[2]!, close: ohlc[3]!, volume });

test('a candle (warm-up, backfill) is one point of its length with its prices and notional', () => {
  const engine = createPairEngine('ETH', { cadenceMs: 1_000 });
  for (const e of [ctx(0, 100), candle(0, 3_600_000, [100, 110, 90, 104], 50),
    candle(3_600, 300_000, [104, 106, 103, 105], 4), ctx(3_900, 105),
    trade(3_910, 105, 1)]) engine.onEvent(e);
  const [hour, fiveMinutes, ...none] = engine.publish(T0)!.history!;
  assert.is(none.length, 0, 'the minute of the ctx and the trade is still open');
  assert.is(hour.tMs, T0);
  // The minute the ctx opened at the mark takes the candle in: 100 opens, the candle's range.
  assert.equal([hour.open, hour.high, hour.low, hour.close], [100, 110, 90, 104]);
  // The BVC split's prints, priced between low and high: about volume x price in USD.
  assert.ok(hour.volume > 50 * 90 && hour.volume < 50 * 110, `hour volume ${hour.volume}`);
  assert.type(hour.cvd, 'number');
  assert.is(fiveMinutes.tMs, T0 + 3_600_000, 'the next candle closes the hour');
  assert.equal([fiveMinutes.open, fiveMinutes.high, fiveMinutes.low, fiveMinutes.close],
    [104, 106, 103, 105], 'opens at the previous close');
  assert.ok(fiveMinutes.volume > 4 * 103 && fiveMinutes.volume < 4 * 106);
  assert.is.not(fiveMinutes.cvd, hour.cvd, 'each point carries the kernels at its close');
});

test('a candle older than the open minute records no point', () => {
  const engine = createPairEngine('ETH', { cadenceMs: 1_000 });
  engine.onEvent(ctx(600, 100));
  engine.onEvent(candle(0, 60_000, [99, 101, 98, 100], 5));
  engine.onEvent(ctx(700, 100));
  const points = engine.publish(T0)!.history!;
  assert.equal(points.map((p) => [p.tMs, p.volume]), [[T0 + 600_000, 0]]);
});

test.run();
