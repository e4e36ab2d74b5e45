// The footprint inside the pair engine: the recorded BTC tape through the engine gives the bars
// (every level) the kernel alone gives, they leave as outbound records and the 'footprint' view,
// and a saved state restored into a fresh engine goes on as if nothing had stopped.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPairEngine, type PairEngine } from '../../actors/shard/pair-engine.js';
import { pairFootprintOptions } from '../../actors/shard/pair-footprint.js';
import {
  closedFootprintAgo, createFootprintBar, createFootprintState, openFootprint, updateFootprint,
  type FootprintBar,
} from '../../kernels/footprint.js';
import { BAR_TIMEFRAMES } from '../../kernels/timeframes.js';
import type { FootprintRecord } from '../../core/footprint.js';
import { roundSignificant } from '../../core/json-numbers.js';
import { realBtcTrades } from '../kernels/helpers/streams.js';

const decoder = new TextDecoder();
/** The 6-minute tape stretched 24 times: 5m, 15m and 1h bars close inside it. */
const stretch = 24;

function tape() {
  const t = realBtcTrades();
  const t0 = t.tsMs[0];
  return t.tsMs.map((ts, i) => ({ tsMs: t0 + (ts - t0) * stretch, price: t.price[i],
    size: t.size[i], side: t.side[i] as 1 | -1 }));
}
type Tape = ReturnType<typeof tape>;

/** The engines' last 'footprint' view, parsed. */
const lastView = new WeakMap<PairEngine, any>();

/** Feeds trades [from, to) and publishes every 500 trades; returns the footprint records. */
function feed(engine: PairEngine, trades: Tape, from: number, to: number): FootprintRecord[] {
  const records: FootprintRecord[] = [];
  const take = () => {
    const out = engine.publish(0);
    if (out === null) return;
    lastView.set(engine, JSON.parse(decoder.decode(out.views.views.footprint)));
    for (const item of out.outbound) {
      if (item.kind === 'footprint') records.push(item.data as unknown as FootprintRecord);
    }
  };
  for (let i = from; i < to; i++) {
    const t = trades[i];
    engine.onEvent({ type: 'trade', symbol: 'BTC', tsMs: t.tsMs, price: t.price, size: t.size,
      side: t.side, tradeId: String(i), buyer: null, seller: null });
    if (i % 500 === 0) take();
  }
  take();
  return records;
}

/** `rounded`: the view's numbers are written to 10 significant digits (core/json-numbers.ts). */
function sameBar(record: FootprintRecord, bar: FootprintBar, what: string, rounded = false):
  void {
  const numbers = (a: Float64Array) =>
    Array.from(a.subarray(0, bar.levels), (x) => (rounded ? roundSignificant(x) : x));
  assert.is(record.openMs, bar.openMs, what);
  assert.is(record.timeframe, bar.timeframe, what);
  assert.is(record.basis, bar.basis, what);
  assert.is(record.firstLevel, bar.firstLevel, what);
  assert.is(record.levelTicks, bar.levelTicks, what);
  assert.is(record.pocIndex, bar.pocIndex, what);
  assert.equal(record.buy, numbers(bar.buy), what);
  assert.equal(record.sell, numbers(bar.sell), what);
}

test('the tape through the engine: every closed bar, level by level, as the kernel alone', () => {
  const trades = tape();
  const engine = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 0 });
  const records = feed(engine, trades, 0, trades.length);
  const kernel = createFootprintState(pairFootprintOptions);
  const bar = createFootprintBar(pairFootprintOptions.levelsMax);
  const expected: FootprintBar[] = [];
  const seen = [0, 0, 0];
  for (const t of trades) {
    updateFootprint(kernel, t.tsMs, t.price, t.size, t.side);
    for (let tf = 0; tf < BAR_TIMEFRAMES.length; tf++) {
      if (kernel.ring.closedTotal[tf] === seen[tf]) continue;
      seen[tf] = kernel.ring.closedTotal[tf];
      assert.ok(closedFootprintAgo(kernel, tf, 0, bar));
      const copy = createFootprintBar(pairFootprintOptions.levelsMax);
      closedFootprintAgo(kernel, tf, 0, copy);
      expected.push(copy);
    }
  }
  const count = (tf: string) => records.filter((r) => r.timeframe === tf).length;
  assert.ok(count('5m') >= 20 && count('15m') >= 6 && count('1h') >= 1,
    `bars of each timeframe closed (${count('5m')}, ${count('15m')}, ${count('1h')})`);
  assert.is(records.length, expected.length);
  const byKey = (r: { timeframe: string; openMs: number }) => `${r.timeframe}@${r.openMs}`;
  const engineBars = new Map(records.map((r) => [byKey(r), r]));
  for (const want of expected) {
    const got = engineBars.get(byKey(want));
    assert.ok(got, `bar ${byKey(want)} sent`);
    sameBar(got!, want, byKey(want));
  }
  // The view's open bars are the kernel's.
  const view = lastView.get(engine);
  for (let tf = 0; tf < BAR_TIMEFRAMES.length; tf++) {
    assert.ok(openFootprint(kernel, tf, bar));
    sameBar(view.timeframes[BAR_TIMEFRAMES[tf]].open, bar, `open ${BAR_TIMEFRAMES[tf]}`,
      true);
  }
});

test('a saved state restored into a fresh engine sends what one engine would have', () => {
  const trades = tape();
  const half = trades.length >> 1;
  const whole = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 0 });
  const expected = feed(whole, trades, 0, trades.length);
  const first = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 0 });
  const before = feed(first, trades, 0, half);
  const saved = first.saveState()!;
  const second = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 0 });
  assert.equal(second.restoreState(saved).restored, true);
  const after = feed(second, trades, half, trades.length);
  assert.equal([...before, ...after], expected);
  assert.equal(lastView.get(second).timeframes, lastView.get(whole).timeframes,
    'open bars carry over the restart');
});

test('a gap drops the open bars: nothing is sent for them', () => {
  const trades = tape().slice(0, 2_000);
  const engine = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 0 });
  feed(engine, trades, 0, trades.length);
  engine.onEvent({ type: 'gap', symbol: 'BTC', tsMs: trades[trades.length - 1].tsMs } as never);
  const view = JSON.parse(decoder.decode(engine.publish(3)!.views.views.footprint));
  assert.is(view.timeframes['5m'].open, null);
});

test.run();
