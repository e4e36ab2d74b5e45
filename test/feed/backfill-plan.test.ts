// The backfill's candle plan (backfill.ts, candlePlan): 1-minute candles for the newest hours,
// whole 5-minute candles before, 1-minute ones for the minutes before the first whole 5-minute
// candle; every minute of the range exactly once, only closed candles, newest segment first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { candlePlan, type CandleSegment } from '../../actors/feed/home/backfill.js';

const minuteMs = 60_000;
const hourMs = 3_600_000;
const fineMs = 4 * hourMs;
const coarseMs = 5 * minuteMs;
const nowMs = Date.UTC(2026, 10, 20, 12, 7, 30);

/** Every minute the plan's candles cover, oldest first (a 5-minute candle covers five). */
function minutes(plan: readonly CandleSegment[]): number[] {
  const out: number[] = [];
  for (const s of plan) {
    for (let t = s.firstOpenMs; t <= s.lastOpenMs; t += s.intervalMs) {
      for (let m = t; m < t + s.intervalMs; m += minuteMs) out.push(m);
    }
  }
  return out.sort((a, b) => a - b);
}

function assertCovers(plan: readonly CandleSegment[], fromMs: number, toMs: number): void {
  const covered = minutes(plan);
  const first = Math.ceil(fromMs / minuteMs) * minuteMs;
  const last = Math.floor(toMs / minuteMs) * minuteMs - minuteMs;
  assert.is(covered.length, (last - first) / minuteMs + 1, 'every minute');
  assert.is(new Set(covered).size, covered.length, 'no minute twice');
  assert.is(covered[0], first);
  assert.is(covered[covered.length - 1], last, 'up to the last closed minute');
}

test('a range within the fine span: 1-minute candles only', () => {
  const plan = candlePlan(nowMs - 3 * hourMs, nowMs, fineMs, coarseMs);
  assert.is(plan.length, 1);
  assert.is(plan[0].intervalMs, minuteMs);
  assertCovers(plan, nowMs - 3 * hourMs, nowMs);
});

test('83 hours from a 5-minute boundary: minutes for 4 h, whole 5-minute candles before', () => {
  const fromMs = Math.floor((nowMs - 83 * hourMs) / coarseMs) * coarseMs;
  const plan = candlePlan(fromMs, nowMs, fineMs, coarseMs);
  assert.equal(plan.map((s) => s.intervalMs), [minuteMs, coarseMs], 'newest first, no head');
  assert.ok(plan[1].firstOpenMs % coarseMs === 0 && plan[1].lastOpenMs % coarseMs === 0);
  assert.is(plan[1].lastOpenMs + coarseMs, plan[0].firstOpenMs, 'the tiers meet');
  assert.ok(nowMs - plan[0].firstOpenMs >= fineMs, 'at least the fine span in minutes');
  assertCovers(plan, fromMs, nowMs);
});

test('a long gap off a boundary: its first minutes as 1-minute candles', () => {
  const fromMs = nowMs - 9 * hourMs - 2 * minuteMs - 10_000;
  const plan = candlePlan(fromMs, nowMs, fineMs, coarseMs);
  assert.equal(plan.map((s) => s.intervalMs), [minuteMs, coarseMs, minuteMs]);
  assertCovers(plan, fromMs, nowMs);
});

test('no whole 5-minute candle before the fine span, a former plan, an empty range', () => {
  const fromMs = nowMs - fineMs - 7 * minuteMs;
  assert.is(candlePlan(fromMs, nowMs, fineMs, coarseMs).length, 1);
  assertCovers(candlePlan(fromMs, nowMs, fineMs, coarseMs), fromMs, nowMs);
  const all = candlePlan(nowMs - 83 * hourMs, nowMs, Infinity, coarseMs);
  assert.equal(all.map((s) => s.intervalMs), [minuteMs]);
  assert.equal(candlePlan(nowMs - 20_000, nowMs, fineMs, coarseMs), []);
});

test.run();
