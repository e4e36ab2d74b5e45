// The footprint kernel against a plain recomputation on the recorded Binance BTCUSDT tape, its
// day-fixed levels, and stacked imbalances on a built bar.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  applyFootprint, closedFootprintAgo, createFootprintBar, createFootprintState,
  defaultFootprintOptions, footprintBarsKept, openFootprint, updateFootprint,
  updateFootprintCandle, type FootprintBar, type FootprintState,
} from '../../kernels/footprint.js';
import { analyzeFootprintBar } from '../../kernels/footprint-bar.js';
import { addSessionBar, createVolumeSessions } from '../../kernels/volume-sessions.js';
import { BAR_TIMEFRAMES, BAR_TIMEFRAME_MS, DAY_MS } from '../../kernels/timeframes.js';
import { realBtcTrades } from './helpers/streams.js';

const TICK = 0.1;
/** Copies of the 6-minute tape laid end to end, from 4 hours before its midnight to 2 after. */
const COPY_MS = 360_000;
const COPIES_BEFORE = 40;
const COPIES_AFTER = 20;

interface Tape { tsMs: Float64Array; price: Float64Array; size: Float64Array; side: Int8Array }

function stitchedTape(): Tape {
  const t = realBtcTrades();
  const n = t.tsMs.length * (COPIES_BEFORE + COPIES_AFTER + 1);
  const tape: Tape = { tsMs: new Float64Array(n), price: new Float64Array(n),
    size: new Float64Array(n), side: new Int8Array(n) };
  let k = 0;
  for (let copy = -COPIES_BEFORE; copy <= COPIES_AFTER; copy++) {
    const shiftMs = copy * COPY_MS;
    for (let i = 0; i < t.tsMs.length; i++, k++) {
      tape.tsMs[k] = t.tsMs[i] + shiftMs;
      tape.price[k] = t.price[i];
      tape.size[k] = t.size[i];
      tape.side[k] = t.side[i];
    }
  }
  return tape;
}

const options = { ...defaultFootprintOptions, tickSize: TICK, historyBars: 400 };
const tape = stitchedTape();
const lastMs = tape.tsMs[tape.tsMs.length - 1];

/** Every bar the kernel holds (closed ones and, after the tape, the open ones), keyed. */
function kernelBars(s: FootprintState): Map<string, FootprintBar> {
  const bars = new Map<string, FootprintBar>();
  for (let t = 0; t < 3; t++) {
    for (let back = 0; back < footprintBarsKept(s, t); back++) {
      const bar = createFootprintBar(options.levelsMax);
      assert.ok(closedFootprintAgo(s, t, back, bar));
      bars.set(`${t}:${bar.openMs}`, bar);
    }
    const open = createFootprintBar(options.levelsMax);
    assert.ok(openFootprint(s, t, open));
    bars.set(`${t}:${open.openMs}`, open);
  }
  return bars;
}

function feedTape(): FootprintState {
  const s = createFootprintState(options);
  for (let i = 0; i < tape.tsMs.length; i++) {
    updateFootprint(s, tape.tsMs[i], tape.price[i], tape.size[i], tape.side[i]);
  }
  return s;
}

/** Sizes in thousandths of a BTC (the tape's size step), so sums compare exactly. */
const milli = (x: number) => Math.round(x * 1000);

test('every level of every bar equals a plain per-trade sum on the real BTC tape', () => {
  const bars = kernelBars(feedTape());
  // The plain computation: each trade straight into its bar and level of every timeframe.
  const expected = new Map<string, Map<number, [number, number]>>();
  for (let i = 0; i < tape.tsMs.length; i++) {
    for (let t = 0; t < 3; t++) {
      const ms = BAR_TIMEFRAME_MS[t];
      const key = `${t}:${Math.floor(tape.tsMs[i] / ms) * ms}`;
      const bar = bars.get(key);
      assert.ok(bar, `the kernel has no bar ${key}`);
      const level = Math.floor(Math.round(tape.price[i] / TICK) / bar.levelTicks);
      const levels = expected.get(key) ?? new Map<number, [number, number]>();
      expected.set(key, levels);
      const cell = levels.get(level) ?? [0, 0];
      cell[tape.side[i] > 0 ? 0 : 1] += milli(tape.size[i]);
      levels.set(level, cell);
    }
  }
  assert.equal(bars.size, expected.size, 'bars');
  for (const [key, levels] of expected) {
    const bar = bars.get(key)!;
    assert.is(bar.basis, 'trades');
    assert.is(bar.clippedVolume, 0, key);
    const got = new Map<number, [number, number]>();
    for (let i = 0; i < bar.levels; i++) {
      if (bar.buy[i] + bar.sell[i] > 0) {
        got.set(bar.firstLevel + i, [milli(bar.buy[i]), milli(bar.sell[i])]);
      }
    }
    assert.equal([...got].sort((a, b) => a[0] - b[0]),
      [...levels].sort((a, b) => a[0] - b[0]), key);
    const poc = [...levels].reduce((a, b) => (b[1][0] + b[1][1] > a[1][0] + a[1][1] ? b : a));
    assert.is(milli(bar.buy[bar.pocIndex] + bar.sell[bar.pocIndex]), poc[1][0] + poc[1][1]);
  }
  assert.ok(expected.size > 90, `only ${expected.size} bars`);
});

test('levels stay fixed within a UTC day and follow the rule at midnight', () => {
  const bars = [...kernelBars(feedTape()).values()];
  const midnight = Math.ceil(tape.tsMs[0] / DAY_MS) * DAY_MS;
  for (let t = 0; t < 3; t++) {
    for (const day of [midnight - DAY_MS, midnight]) {
      const ofDay = bars.filter((b) => b.timeframe === BAR_TIMEFRAMES[t] &&
        Math.floor(b.openMs / DAY_MS) * DAY_MS === day);
      assert.ok(ofDay.length > 0);
      assert.equal(new Set(ofDay.map((b) => b.levelTicks)).size, 1, `${t} ${day}`);
      assert.ok(ofDay.every((b) => b.tickSize === TICK));
    }
  }
  // The new day's 5m level from the median 5m range of the day before, by hand.
  const before = bars.filter((b) => b.timeframe === '5m' && b.openMs < midnight)
    .map((b) => b.high - b.low).sort((a, b) => a - b);
  const m = before.length >> 1;
  const median = before.length % 2 ? before[m] : (before[m - 1] + before[m]) / 2;
  const ticks = Math.max(1, 2 ** Math.round(Math.log2(median / (TICK * options.targetLevels))));
  const after = bars.filter((b) => b.timeframe === '5m' && b.openMs >= midnight);
  assert.ok(after.every((b) => b.levelTicks === ticks), `expected ${ticks} ticks`);
  // A typical bar then spans 20-60 levels.
  const spans = after.map((b) => b.levels).sort((a, b) => a - b);
  const typical = spans[spans.length >> 1];
  assert.ok(typical >= 20 && typical <= 60, `typical 5m bar spans ${typical} levels`);
  // Longer bars' levels are whole multiples of their day's 5m level.
  const dayOf = (b: FootprintBar) => Math.floor(b.openMs / DAY_MS);
  for (const b of bars) {
    const fine = bars.find((f) => f.timeframe === '5m' && dayOf(f) === dayOf(b))!;
    assert.is((b.levelTicks / fine.levelTicks) % 1, 0);
  }
  assert.ok(lastMs > midnight);
});

test('bars of candle prints carry no footprint and say so; trades after them make it mixed', () => {
  const s = createFootprintState(options);
  const t0 = Date.UTC(2024, 7, 8, 10);
  updateFootprintCandle(s, t0, 61800);
  updateFootprintCandle(s, t0 + 1000, 61900);
  const bar = createFootprintBar(options.levelsMax);
  assert.ok(openFootprint(s, 0, bar));
  assert.is(bar.basis, 'candles');
  assert.is(bar.levels, 0);
  assert.is(bar.high, 61900);
  applyFootprint(s, t0 + 2000, 61850, 1, 1);
  assert.ok(openFootprint(s, 1, bar));
  assert.is(bar.basis, 'mixed');
  assert.is(bar.levels, 1);
  updateFootprintCandle(s, t0 + 300_000, 61800);
  assert.ok(closedFootprintAgo(s, 0, 0, bar));
  assert.is(bar.basis, 'mixed');
});

test('the day profile from closed 5m bars equals a plain sum of the day\'s trades by level', () => {
  const s = feedTape();
  const sessions = createVolumeSessions();
  const bar = createFootprintBar(options.levelsMax);
  for (let back = footprintBarsKept(s, 0) - 1; back >= 0; back--) {
    closedFootprintAgo(s, 0, back, bar);
    addSessionBar(sessions, bar);
  }
  const today = sessions.today;
  const openMs = s.open[0].openMs;
  const expected = new Map<number, number>();
  for (let i = 0; i < tape.tsMs.length; i++) {
    if (tape.tsMs[i] < sessions.todayStartMs || tape.tsMs[i] >= openMs) continue;
    const level = Math.floor(Math.round(tape.price[i] / TICK) / today.levelTicks);
    expected.set(level, (expected.get(level) ?? 0) + milli(tape.size[i]));
  }
  const got = new Map<number, number>();
  for (let i = 0; i < today.levels; i++) {
    const v = milli(today.buy[i] + today.sell[i]);
    if (v > 0) got.set(today.firstLevel + i, v);
  }
  assert.ok(expected.size > 20);
  assert.equal([...got].sort((a, b) => a[0] - b[0]), [...expected].sort((a, b) => a[0] - b[0]));
  assert.ok(sessions.yesterday.levels > 0);
});

/** A bar of `levels` levels from [buy, sell] pairs, lowest level first. */
function builtBar(cells: [number, number][]): FootprintBar {
  const bar = createFootprintBar(64);
  bar.levels = cells.length;
  cells.forEach(([b, s], i) => {
    bar.buy[i] = b;
    bar.sell[i] = s;
  });
  return bar;
}

test('stacked imbalances: diagonal buy[i] vs sell[i-1], sell[i] vs buy[i+1]', () => {
  // Buy side: levels 1-3 each buy >= 3x the sell one level below; level 4 breaks the run.
  const bar = builtBar([[0, 10], [30, 10], [30, 10], [45, 10], [20, 5], [1, 1]]);
  analyzeFootprintBar(bar, 3, 3);
  assert.is(bar.stacks, 1);
  assert.equal([bar.stackSide[0], bar.stackFrom[0], bar.stackTo[0]], [1, 1, 3]);
  // The same volumes compared level against level (not diagonally) would stack nothing at 1.
  const runOfTwo = builtBar([[0, 10], [30, 10], [30, 10], [20, 10]]);
  analyzeFootprintBar(runOfTwo, 3, 3);
  assert.is(runOfTwo.stacks, 0);
  analyzeFootprintBar(runOfTwo, 3, 2);
  assert.is(runOfTwo.stacks, 1);
  // Sell side: sell[i] >= 3x buy[i+1] on levels 0-2.
  const sells = builtBar([[1, 30], [5, 30], [5, 60], [20, 5], [5, 1]]);
  analyzeFootprintBar(sells, 3, 3);
  assert.is(sells.stacks, 1);
  assert.equal([sells.stackSide[0], sells.stackFrom[0], sells.stackTo[0]], [-1, 0, 2]);
  analyzeFootprintBar(sells, 13, 3);
  assert.is(sells.stacks, 0, 'a ratio of 13 leaves level 2 (60 vs 20) out');
  assert.is(sells.pocIndex, 2);
});

test.run();
