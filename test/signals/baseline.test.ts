// Baselines on the same bars: the signal's distances mirrored to the other side over the same
// window of known 5m bars, the trend side of the 4 h before, and their storage with the record
// (outcomes stored before baselines still load and count, without one).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import {
  evaluateBaseline, mirroredResultR, mirroredSignal, trendSide,
} from '../../actors/signals/baseline.js';
import { evaluateOutcome } from '../../actors/signals/outcome.js';
import { createOutcomeScheduler } from '../../actors/signals/outcome-scheduler.js';
import { resultR, signalPerformance, trackedSignals } from '../../actors/signals/track-record.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { openBarStore } from '../../persistence/bars.js';
import { openSignalStore } from '../../persistence/signals.js';
import { openStore } from '../../persistence/store.js';
import { tempDir } from '../helpers/eventually.js';
import { ohlc, T0 } from './bars.js';

const BAR = 300_000;
const HOUR = 3_600_000;
type Row = [number, number, number, number];

/** A long 5m BTC signal at T0 + 5 h (bar open), entry 100, stop 98, t1 103, t2 106. */
function longSignal(barMs = T0 + 5 * HOUR): EntrySignal {
  return {
    signal_id: `BTC-5m-${barMs}-long`, symbol: 'BTC', timeframe: '5m', side: 'long',
    grade: 'B', score: 40, bar_time: new Date(barMs).toISOString(), regime: 'ranging',
    confirmed: true, flow_source: 'bar_delta',
    logics: { liquidity_grab: true, flow_rejection: false, absorption: false,
      cvd_divergence: false, structure_shift: false, level_confluence: false },
    plan: { entry: 100, stop: 98, t1: 103, t2: 106, r_t1: 1.5, r_t2: 3 },
    price_at_signal: 100,
  };
}

/** 48 bars after the signal (quiet 99.5..100.5 closing 100), with overrides by index. */
function after(s: EntrySignal, overrides: Record<number, Row>) {
  const fromMs = Date.parse(s.bar_time) + BAR;
  return ohlc('BTC', fromMs, Array.from({ length: 48 },
    (_, i) => overrides[i] ?? [100, 100.5, 99.5, 100] as Row));
}

test('the mirror takes the same distances on the other side', () => {
  const m = mirroredSignal(longSignal());
  assert.is(m.side, 'short');
  assert.equal([m.plan.entry, m.plan.stop, m.plan.t1, m.plan.t2, m.plan.r_t1],
    [100, 102, 97, 94, 1.5]);
});

test('mirrored outcomes on known bars: stop for one side is t1 for the other, and back', () => {
  const s = longSignal();
  // Down to 96.9 in bar 3: the long's stop (98) first; the short's t1 (97) first.
  const down = after(s, { 3: [100, 100.2, 96.9, 97] });
  const own = evaluateOutcome(s, down);
  assert.is(own.first_level_hit, 'stop');
  const base = evaluateBaseline(s, down, []);
  assert.is(base.mirror_first_level_hit, 't1');
  assert.is(mirroredResultR(s, own, base), 1.5);
  // Up to 103.5 in bar 2: the long's t1 first; the short's stop (102) first.
  const up = after(s, { 2: [100, 103.5, 99.9, 103] });
  assert.is(evaluateOutcome(s, up).first_level_hit, 't1');
  assert.is(evaluateBaseline(s, up, []).mirror_first_level_hit, 'stop');
  // Neither side touched, closing at 101: +0.5 R for the long, -0.5 R for its mirror.
  const drift = after(s, { 47: [100, 101.2, 99.9, 101] });
  const quiet = evaluateOutcome(s, drift);
  const quietBase = evaluateBaseline(s, drift, []);
  assert.is(quietBase.mirror_first_level_hit, 'none');
  assert.is(resultR(s, quiet), 0.5);
  assert.is(mirroredResultR(s, quiet, quietBase), -0.5);
});

test('the trend side is the 4 h before the signal, first open to last close', () => {
  const s = longSignal();
  const signalMs = Date.parse(s.bar_time) + BAR;
  const rising = ohlc('BTC', signalMs - 4 * HOUR, Array.from({ length: 48 },
    (_, i) => [95 + i / 10, 96 + i / 10, 94 + i / 10, 95.1 + i / 10] as Row));
  assert.is(trendSide(s, rising), 'long');
  assert.is(trendSide(s, rising.map((b) => ({ ...b, open: 200 - b.open, close: 200 - b.close }))),
    'short');
  const flat = ohlc('BTC', signalMs - 4 * HOUR, [[100, 101, 99, 100.5], [100.5, 101, 99, 100]]);
  assert.is(trendSide(s, flat), null, 'back where it started: no trend');
  assert.is(trendSide(s, []), null);
  // Bars after the signal or older than 4 h do not count.
  const outside = [...ohlc('BTC', signalMs - 5 * HOUR, [[90, 91, 89, 90]]),
    ...ohlc('BTC', signalMs - HOUR, [[100, 101, 99, 99]]), ...ohlc('BTC', signalMs, [[99, 120,
      99, 120]])];
  assert.is(trendSide(s, outside), 'short');
});

test('the scheduler stores the baseline apart from the outcome; old records still count',
  async () => {
    const dir = await tempDir();
    const store = await openStore({ dataDir: dir, clock: new ManualClock(T0), watchKeys: false });
    try {
      const signals = openSignalStore<EntrySignal>(store.root);
      const bars = openBarStore(store.root);
      const s = longSignal();
      const old = longSignal(T0 + 6 * HOUR);
      const signalMs = Date.parse(s.bar_time) + BAR;
      for (const x of [s, old]) {
        await signals.claim(x, signalMs);
        await signals.scheduleOutcome(x.signal_id, '', Date.parse(x.bar_time) + BAR,
          Date.parse(x.bar_time) + BAR + 4 * HOUR);
      }
      // Falling over the 4 h before: 101 down to 100.04.
      ohlc('BTC', signalMs - 4 * HOUR, Array.from({ length: 48 }, (_, i) =>
        [101 - i * 0.02, 101.1 - i * 0.02, 100 - i * 0.02, 101 - (i + 1) * 0.02] as Row))
        .forEach((b) => bars.add(b));
      after(s, { 3: [100, 100.2, 96.9, 97] }).forEach((b) => bars.add(b));
      await bars.flush();
      // An outcome stored before baselines existed: a result and no baseline.
      const oldOutcome = evaluateOutcome(old, after(old, {}));
      await signals.completeOutcome(old.signal_id,
        oldOutcome as unknown as Record<string, unknown>);
      const scheduler = createOutcomeScheduler(signals, bars);
      const [due] = await scheduler.evaluateDue(signalMs + 4 * HOUR);
      assert.equal(due.baseline, { mirror_first_level_hit: 't1', trend_side: 'short',
        mirror_exit_price: 97 });
      await scheduler.complete(s.signal_id, due.outcome, due.baseline);
      const record = signals.get(s.signal_id)!;
      assert.equal(record.baseline, due.baseline);
      assert.not.ok('mirror_first_level_hit' in record.result!, 'the outcome stays as delivered');
      const tracked = trackedSignals(signals.list());
      assert.equal(tracked.map((t) => t.baseline), [due.baseline, null]);
      const [row] = signalPerformance(tracked, 0, Infinity, 'grade');
      assert.equal([row.count, row.evaluated], [2, 2]);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

test.run();
