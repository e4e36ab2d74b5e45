// The candle split's volatility is learned per UTC day: a day's candles split the same whatever
// came before that day, so warm-ups that begin on different days agree on the days they share.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCandleSplit, resetCandleSplit, splitCandle } from '../../kernels/candle-split.js';

const DAY_MS = 86_400_000;
const FIVE_MINUTES_MS = 300_000;

/** A day of 5-minute candles from a seeded walk: [open, high, low, close, volume]. */
function dayOfCandles(seed: number): number[][] {
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  let px = 100;
  return Array.from({ length: 288 }, () => {
    const close = px * Math.exp((next() - 0.5) * 0.01);
    const high = Math.max(px, close) * (1 + next() * 0.003);
    const low = Math.min(px, close) * (1 - next() * 0.003);
    const candle = [px, high, low, close, 1 + next()];
    px = close;
    return candle;
  });
}

/** The buy shares of `day`'s candles (opening at dayStartMs) after `before` (the day before). */
function sharesOf(dayStartMs: number, day: number[][], before: number[][]): number[] {
  const split = createCandleSplit();
  before.forEach(([o, h, l, c, v], i) =>
    splitCandle(split, dayStartMs - DAY_MS + i * FIVE_MINUTES_MS, FIVE_MINUTES_MS, o, h, l, c, v));
  return day.map(([o, h, l, c, v], i) => {
    splitCandle(split, dayStartMs + i * FIVE_MINUTES_MS, FIVE_MINUTES_MS, o, h, l, c, v);
    return split.buyShare;
  });
}

test('a day splits the same after any previous day, or none', () => {
  const dayStartMs = Date.parse('2026-03-02T00:00:00Z');
  const day = dayOfCandles(1);
  const alone = sharesOf(dayStartMs, day, []);
  assert.equal(sharesOf(dayStartMs, day, dayOfCandles(2)), alone);
  assert.equal(sharesOf(dayStartMs, day, dayOfCandles(3).slice(100)), alone);
  assert.ok(alone.some((share) => share > 0.6) && alone.some((share) => share < 0.4));
});

test('within a day the estimate learns from every candle so far; a reset forgets it', () => {
  const split = createCandleSplit();
  const t0 = Date.parse('2026-03-02T00:00:00Z');
  splitCandle(split, t0, FIVE_MINUTES_MS, 100, 101, 99, 100.5, 1);
  assert.is(split.samples, 1);
  splitCandle(split, t0 + FIVE_MINUTES_MS, FIVE_MINUTES_MS, 100.5, 100.6, 100.4, 100.5, 1);
  assert.is(split.samples, 2);
  splitCandle(split, t0 + DAY_MS, FIVE_MINUTES_MS, 100.5, 100.6, 100.4, 100.5, 1);
  assert.is(split.samples, 1, 'a new UTC day starts over');
  resetCandleSplit(split);
  assert.is(split.samples, 0);
  assert.is(split.dayEndMs, -Infinity);
});

test.run();
