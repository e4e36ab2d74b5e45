// The simulator's warm-up: candles split by BVC, the warm-up plan's tiers, a warm-up that is the
// same byte for byte for the same seed and start, and a warmed pair whose headline metrics are
// numbers from its first snapshot (through the real pair engine and kernels).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import { createPairFeed } from '../../actors/feed/pair-feed.js';
import { PairSimulator } from '../../actors/feed/sim/pair-sim.js';
import {
  candleIntervalAt, freshWarmupPlan, marketWarmupPlan, PairWarmup, simCandleAt, warmupPlan,
  warmupTicksMs,
} from '../../actors/feed/sim/sim-warmup.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { encodeEvent } from '../../actors/feed/replay/event-codec.js';
import { validateEvent } from '../../actors/feed/replay/event-validate.js';
import { createPairEngine } from '../../actors/shard/pair-engine.js';
import { createCandleSplit, splitCandle } from '../../kernels/candle-split.js';
import { eventually } from '../helpers/eventually.js';

const START_MS = Date.parse('2026-03-02T12:00:00Z');
const HOUR_MS = 3_600_000;

test('a candle splits into path-ordered prints whose volume is the candle volume', () => {
  const split = createCandleSplit();
  // A flat candle first teaches the split nothing about volatility: an even split.
  assert.is(splitCandle(split, 0, 60_000, 100, 100, 100, 100, 10), 5);
  assert.is(split.buyShare, 0.5);
  for (let i = 1; i <= 20; i++) splitCandle(split, i * 60_000, 60_000, 100, 100.2, 99.8, 100, 10);
  const n = splitCandle(split, 21 * 60_000, 60_000, 100, 100.6, 99.9, 100.5, 8);
  assert.is(n, 5);
  assert.ok(split.buyShare > 0.9, `an up candle is mostly bought (${split.buyShare})`);
  // The opening tick first (its side from the candle's place on the grid: minute 21 is odd).
  assert.equal([...split.price.subarray(0, n)], [100, 100, 99.9, 100.6, 100.5]);
  assert.equal([...split.side.subarray(0, n)], [-1, -1, -1, 1, 1]);
  assert.equal([...split.tsMs.subarray(0, n)],
    [1_260_000, 1_260_000, 1_275_000, 1_290_000, 1_305_000]);
  const total = [...split.size.subarray(0, n)].reduce((a, b) => a + b, 0);
  // The candle's volume and the opening tick's billionth of it.
  assert.ok(Math.abs(total - 8) < 1e-7);
  const down = splitCandle(split, 22 * 60_000, 60_000, 100.5, 100.5, 99.5, 99.6, 8);
  assert.ok(split.buyShare < 0.1 && down > 0);
  assert.equal([...split.side.subarray(0, down)].slice(-1), [-1]);
  assert.throws(() => splitCandle(split, 0, 60_000, 100, 99, 98, 100, 1), /low <= open/);
  assert.throws(() => splitCandle(split, 0, 60_000, 100, 101, 99, 100, -1), /volume/);
});

test('a candle\'s first print tells nothing of its direction (it closes the bars before it)',
  () => {
    // The first print closes the previous bars and is in the snapshot their signals read: were
    // it the open leg's BVC print (sold when the candle rises), a bar's score would see the next
    // candle (the null world's information coefficient was -0.044 [-0.076, -0.012] with it).
    const first = (open: number, high: number, low: number, close: number) => {
      const split = createCandleSplit();
      for (let i = 0; i < 20; i++) {
        splitCandle(split, i * 60_000, 60_000, 100, 100.2, 99.8, 100, 10);
      }
      splitCandle(split, 20 * 60_000, 60_000, open, high, low, close, 10);
      return { side: split.side[0], size: split.size[0] };
    };
    const up = first(100, 101, 99.9, 100.9);
    const down = first(100, 100.1, 99, 99.1);
    assert.equal(up, down);
    assert.ok(up.size < 1e-6, `an opening tick of ${up.size}`);
  });

test('candles are replay events: encoded canonically and validated field by field', () => {
  const world = simWorld(42);
  const candle = simCandleAt(42, world.bySymbol.get('BTC')!, START_MS)!;
  const line = encodeEvent(candle);
  assert.equal(validateEvent(JSON.parse(line)), candle);
  assert.match(validateEvent({ ...candle, high: candle.low / 2 }) as string, /^high/);
  assert.match(validateEvent({ ...candle, volume: -1 }) as string, /^volume/);
});

test('the plan: hourly candles far back, 5-minute, then 1-minute, then ticks', () => {
  const plan = warmupPlan(START_MS + 30_000, 48 * HOUR_MS);
  assert.is(plan.fromMs, START_MS - 48 * HOUR_MS);
  assert.is(plan.ticksFromMs, START_MS - warmupTicksMs);
  assert.is(candleIntervalAt(plan, plan.fromMs), HOUR_MS);
  assert.is(candleIntervalAt(plan, START_MS - 6 * HOUR_MS), 300_000);
  assert.is(candleIntervalAt(plan, START_MS - 30 * 60_000), 60_000);
  const none = warmupPlan(START_MS, 60_000);
  assert.is(none.ticksFromMs, none.fromMs);
});

/** Every event the sim feed emits for `symbols` until each pair's warm-up is done. */
async function warmupEvents(symbols: string[], warmupHours: number): Promise<string[]> {
  const clock = new ManualClock(START_MS);
  const feed = createPairFeed({ kind: 'sim', seed: 7, speed: 1, startMs: START_MS,
    warmupMs: warmupHours * HOUR_MS }, { clock, logger: silentLogger });
  const lines: string[] = [];
  feed.setSymbols(symbols);
  feed.start((event: MarketEvent) => lines.push(encodeEvent(event)));
  await eventually(() => feed.stats().warming === 0, { timeoutMs: 30_000 });
  await feed.stop();
  return lines;
}

test('same seed and start: the same warm-up, byte for byte; it ends at the start', async () => {
  const a = await warmupEvents(['ETH', 'xyz:GOLD'], 14);
  const b = await warmupEvents(['ETH', 'xyz:GOLD'], 14);
  assert.ok(a.length > 1_000, `events ${a.length}`);
  assert.is(a.join('\n'), b.join('\n'));
  const events = a.map((line) => JSON.parse(line) as MarketEvent);
  const times = events.map((e) => e.tsMs);
  assert.ok(Math.max(...times) <= START_MS, 'nothing after the start');
  // xyz:GOLD trades in sessions: it reaches back over 14 of its open hours.
  const gold = marketWarmupPlan(simWorld(7).bySymbol.get('xyz:GOLD')!, START_MS, 14 * HOUR_MS);
  assert.ok(Math.min(...times) >= gold.fromMs, 'nothing before the warm-up');
  // A fresh warm-up begins at the UTC midnight before its window (docs/operations.md).
  const ethFromMs = freshWarmupPlan(START_MS, 14 * HOUR_MS).fromMs;
  assert.is(ethFromMs, Date.parse('2026-03-01T00:00:00Z'));
  assert.ok(events.filter((e) => 'symbol' in e && e.symbol === 'ETH')
    .every((e) => e.tsMs >= ethFromMs), 'ETH: nothing before its warm-up');
  const candles = events.filter((e) => e.type === 'candle');
  assert.ok(candles.some((c) => c.type === 'candle' && c.intervalMs === HOUR_MS));
  assert.ok(events.some((e) => e.type === 'trade'), 'the tail is ticks');
});

test('a warmed pair has every headline metric as a number, on a mixed basis', () => {
  const world = simWorld(42);
  const market = world.bySymbol.get('ETH')!;
  const plan = warmupPlan(START_MS, 96 * HOUR_MS);
  const sim = new PairSimulator(42, market, world.picker, plan.ticksFromMs);
  const warmup = new PairWarmup(42, market, plan, sim);
  const engine = createPairEngine('ETH', { cadenceMs: 1_000, wallNowMs: () => 0 });
  const outbound: unknown[] = [];
  while (!warmup.step((event) => engine.onEvent(event))) { /* step to the end */ }
  const out = engine.publish(0)!;
  outbound.push(...out.outbound);
  const s = out.views.summary;
  for (const key of ['vpin', 'cvd', 'kyleLambda', 'score'] as const) {
    assert.type(s[key], 'number', key);
  }
  assert.ok(s.vpinLevel !== null && s.regime !== null, `${s.vpinLevel} ${s.regime}`);
  assert.is(s.basis, 'mixed');
  const deep = JSON.parse(Buffer.from(out.views.views['deep-view']).toString());
  assert.ok(deep.cvdHistory.length > 100, 'CVD history reaches into the warm-up');
  assert.is(deep.basis, 'mixed');
  // Closed bars of the warm-up leave the shard like live ones (stored, signals detected).
  assert.ok(outbound.length > 400, `outbound ${outbound.length}`);
});

test('a market with sessions is warmed over its sessions; its finer tiers end at its close', () => {
  const world = simWorld(42);
  // START is a Monday 12:00 UTC; us-equity trades 13:30-20:00 on weekdays.
  const tsla = world.bySymbol.get('xyz:TSLA')!;
  const plan = marketWarmupPlan(tsla, START_MS, 168 * HOUR_MS);
  assert.ok(START_MS - plan.fromMs > 21 * 24 * HOUR_MS, `from ${new Date(plan.fromMs)}`);
  assert.is(plan.tiersToMs, Date.parse('2026-02-27T20:00:00Z'));
  assert.is(plan.toMs, START_MS);
  assert.is(candleIntervalAt(plan, Date.parse('2026-02-27T19:30:00Z')), 60_000);
  assert.is(candleIntervalAt(plan, Date.parse('2026-02-27T15:00:00Z')), 300_000);
  // Closed from Friday's close to the start: stepped over in hours, not minutes.
  assert.is(candleIntervalAt(plan, Date.parse('2026-02-28T00:00:00Z')), HOUR_MS);
  assert.is(candleIntervalAt(plan, Date.parse('2026-02-27T20:05:00Z')), 300_000);
  // An always-open market keeps the plain plan.
  assert.equal(marketWarmupPlan(world.bySymbol.get('ETH')!, START_MS, 168 * HOUR_MS),
    freshWarmupPlan(START_MS, 168 * HOUR_MS));
});

test('a closed-session market has every headline metric at its first snapshot', () => {
  const world = simWorld(42);
  for (const symbol of ['xyz:TSLA', 'xyz:NVDA', 'flx:GOLD']) {
    const market = world.bySymbol.get(symbol)!;
    const plan = marketWarmupPlan(market, START_MS, 168 * HOUR_MS);
    const sim = new PairSimulator(42, market, world.picker, plan.ticksFromMs);
    const warmup = new PairWarmup(42, market, plan, sim);
    const engine = createPairEngine(symbol, { cadenceMs: 1_000, wallNowMs: () => 0 });
    while (!warmup.step((event) => engine.onEvent(event))) { /* step to the end */ }
    const s = engine.publish(0)!.views.summary;
    for (const key of ['vpin', 'kyleLambda', 'score'] as const) {
      assert.type(s[key], 'number', `${symbol} ${key}`);
    }
    assert.ok(s.vpinLevel !== null && s.regime !== null, `${symbol} ${s.vpinLevel} ${s.regime}`);
  }
});

test.run();
