// The past does not move with the start: warm-ups whose starts are 1 min, 7 min and 1 h apart
// emit the same candles for the same market time, and the real pair engine closes the same bars
// and CVD points from them, up to an hour before the earlier start (tiers on a fixed UTC grid,
// a fresh warm-up from a UTC midnight, the candle split's volatility per UTC day).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import { createPairFeed } from '../../actors/feed/pair-feed.js';
import {
  candleIntervalAt, freshWarmupPlan, hourlyTierEndMs, hourlyTierGridMs,
} from '../../actors/feed/sim/sim-warmup.js';
import { createPairEngine } from '../../actors/shard/pair-engine.js';
import { eventually } from '../helpers/eventually.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** An odd minute of the morning: the later starts stay in the hourly tier's grid cell. */
const START_MS = Date.parse('2026-03-02T10:23:00Z');
const WARMUP_MS = 40 * HOUR_MS;
const SYMBOLS = ['BTC', 'ETH', 'xyz:GOLD'];

interface Past {
  /** Closed bars by symbol, timeframe and open, as JSON. */
  readonly bars: Map<string, string>;
  /** The CVD view's points by symbol, interval and time: `cvd`. */
  readonly cvd: Map<string, number>;
  /** Candles emitted, by symbol and open: their JSON. */
  readonly candles: Map<string, string>;
}

/** A fresh warm-up at startMs through the sim feed and a real pair engine per symbol. */
async function warmUp(startMs: number): Promise<Past> {
  const clock = new ManualClock(startMs);
  const feed = createPairFeed({ kind: 'sim', seed: 11, speed: 1, startMs, warmupMs: WARMUP_MS },
    { clock, logger: silentLogger });
  const engines = new Map(SYMBOLS.map((s) => [s, createPairEngine(s,
    { cadenceMs: 1_000, wallNowMs: () => 0 })]));
  const past: Past = { bars: new Map(), cvd: new Map(), candles: new Map() };
  feed.setSymbols(SYMBOLS);
  feed.start((event: MarketEvent) => {
    if (!('symbol' in event)) return;
    engines.get(event.symbol)?.onEvent(event);
    if (event.type === 'candle') past.candles.set(`${event.symbol} ${event.tsMs}`,
      JSON.stringify(event));
  });
  await eventually(() => feed.stats().warming === 0, { timeoutMs: 60_000 });
  await feed.stop();
  for (const [symbol, engine] of engines) {
    const out = engine.publish(0)!;
    for (const o of out.outbound) {
      if (o.kind !== 'bar') continue;
      const bar = o.data as { timeframe: string; openMs: number };
      past.bars.set(`${symbol} ${bar.timeframe} ${bar.openMs}`, JSON.stringify(o.data));
    }
    const view = JSON.parse(Buffer.from(out.views.views.cvd).toString()) as
      { history: Record<string, [string | number, number][]> };
    for (const [interval, points] of Object.entries(view.history)) {
      for (const [t, cvd] of points) {
        past.cvd.set(`${symbol} ${interval} ${typeof t === 'number' ? t : Date.parse(t)}`, cvd);
      }
    }
  }
  return past;
}

const TIMEFRAME_MS: Record<string, number> = { '1m': MINUTE_MS, '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS, '1h': HOUR_MS };

/** Entries of `a` that `b` also has and that closed by `beforeMs`; asserts they are equal. */
function assertSamePast<T>(what: string, a: Map<string, T>, b: Map<string, T>,
  beforeMs: number): number {
  let compared = 0;
  let differing = 0;
  let first = '';
  for (const [key, value] of a) {
    const [, frame, t] = key.split(' ');
    const endMs = Number(t) + (TIMEFRAME_MS[frame] ?? 0);
    if (endMs > beforeMs || !b.has(key)) continue;
    compared++;
    if (b.get(key) !== value) {
      differing++;
      first ||= `${key}: ${String(value)} / ${String(b.get(key))}`;
    }
  }
  assert.is(differing, 0, `${what}: ${differing} of ${compared} differ (first ${first})`);
  return compared;
}

const base = warmUp(START_MS);

for (const [label, laterMs] of [['1 min', MINUTE_MS], ['7 min', 7 * MINUTE_MS],
  ['1 h', HOUR_MS]] as const) {
  test(`starts ${label} apart: the same bars and CVD points up to 1 h before the earlier`,
    async () => {
      const a = await base;
      const b = await warmUp(START_MS + laterMs);
      const beforeMs = START_MS - HOUR_MS;
      const bars = assertSamePast('bars', a.bars, b.bars, beforeMs);
      const points = assertSamePast('CVD points', a.cvd, b.cvd, beforeMs);
      // Each start reaches a day and more back: these are not a handful of points.
      assert.ok(bars > 3 * 24 * 12, `bars compared ${bars}`);
      assert.ok(points > 2 * 24 * 12, `CVD points compared ${points}`);
      let candles = 0;
      for (const [key, candle] of a.candles) {
        if (Number(key.split(' ').pop()) >= beforeMs - HOUR_MS || !b.candles.has(key)) continue;
        assert.is(b.candles.get(key), candle, key);
        candles++;
      }
      assert.ok(candles > 100, `candles compared ${candles}`);
    });
}

test('the tiers are on a fixed UTC grid: hourly to a 6-hour mark, then 5-minute, 1-minute', () => {
  const plan = freshWarmupPlan(START_MS, WARMUP_MS);
  assert.is(plan.fromMs, Date.parse('2026-02-28T00:00:00Z'), 'from a UTC midnight');
  const hourlyEndMs = hourlyTierEndMs(START_MS);
  assert.is(hourlyEndMs, Date.parse('2026-03-02T00:00:00Z'));
  assert.is(hourlyEndMs % hourlyTierGridMs, 0);
  assert.is(candleIntervalAt(plan, hourlyEndMs - HOUR_MS), HOUR_MS);
  assert.is(candleIntervalAt(plan, hourlyEndMs), 5 * MINUTE_MS);
  assert.is(candleIntervalAt(plan, Date.parse('2026-03-02T09:20:00Z')), 5 * MINUTE_MS);
  assert.is(candleIntervalAt(plan, Date.parse('2026-03-02T09:25:00Z')), MINUTE_MS);
  // A start 5 h later moves the hourly tier's end by a whole grid cell, never by an hour.
  assert.is(hourlyTierEndMs(START_MS + 4 * HOUR_MS), hourlyEndMs);
  assert.is(hourlyTierEndMs(START_MS + 5 * HOUR_MS), hourlyEndMs + hourlyTierGridMs);
  for (let t = START_MS; t < START_MS + 6 * HOUR_MS; t += 7 * MINUTE_MS) {
    assert.is(hourlyTierEndMs(t) % hourlyTierGridMs, 0);
    assert.ok(t - hourlyTierEndMs(t) >= 9 * HOUR_MS && t - hourlyTierEndMs(t) < 15 * HOUR_MS);
  }
});

test.run();
