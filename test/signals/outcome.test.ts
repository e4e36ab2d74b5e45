// The 4-hour outcome: every first_level_hit value, the conservative t2 rule and the window edge.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bar } from '../../core/messages.js';
import { evaluateOutcome, OUTCOME_WINDOW_BARS } from '../../actors/signals/outcome.js';
import { resultR } from '../../actors/signals/track-record.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { ohlc, T0 } from './bars.js';

const BAR = 300_000;
/** The signal bar opened at T0, so the signal is known at its close, S. */
const S = T0 + BAR;

function signal(side: 'long' | 'short'): EntrySignal {
  const long = side === 'long';
  return {
    signal_id: `BTC-5m-${T0}-${side}`, symbol: 'BTC', timeframe: '5m', side, grade: 'B',
    score: 10, bar_time: new Date(T0).toISOString(), regime: 'ranging', confirmed: true,
    flow_source: 'bar_delta',
    logics: { liquidity_grab: true, flow_rejection: false, absorption: false,
      cvd_divergence: false, structure_shift: false, level_confluence: false },
    plan: long ? { entry: 100, stop: 98, t1: 103, t2: 106, r_t1: 1.5, r_t2: 3 }
      : { entry: 100, stop: 102, t1: 97, t2: 94, r_t1: 1.5, r_t2: 3 },
    price_at_signal: 100,
  };
}

/** n quiet bars (99.5..100.5) after the signal, with overrides by index. */
function window(n: number, overrides: Record<number, [number, number, number, number]> = {}):
  Bar[] {
  const rows = Array.from({ length: n }, (_, i) => overrides[i] ?? [100, 100.5, 99.5, 100]);
  return ohlc('BTC', S, rows as [number, number, number, number][]);
}

test('first_level_hit: none over a quiet, complete window', () => {
  const outcome = evaluateOutcome(signal('long'), window(48), { entryEventId: 'evt_1' });
  assert.is(outcome.first_level_hit, 'none');
  assert.is(outcome.t2_hit, false);
  assert.is(outcome.complete, true);
  assert.is(outcome.bars, OUTCOME_WINDOW_BARS);
  assert.is(outcome.horizon, '4h');
  assert.is(outcome.entry_event_id, 'evt_1');
  assert.is(outcome.signaled_at, new Date(S).toISOString());
  assert.is(outcome.evaluated_at, new Date(S + 4 * 3_600_000).toISOString());
  assert.is(outcome.price_after, 100);
  assert.is(outcome.max_favorable_pct, 0.5);
  assert.is(outcome.max_adverse_pct, -0.5);
});

test('first_level_hit: stop, touched inclusively by the low', () => {
  const outcome = evaluateOutcome(signal('long'), window(48, { 3: [99, 99, 98, 98.5] }));
  assert.is(outcome.first_level_hit, 'stop');
  assert.is(outcome.t2_hit, false);
});

test('first_level_hit: t1, touched inclusively by the high', () => {
  const outcome = evaluateOutcome(signal('long'), window(48, { 3: [100, 103, 100, 102],
    10: [100, 100, 97, 97] }));
  assert.is(outcome.first_level_hit, 't1');
  assert.is(outcome.t2_hit, false);
  assert.is(outcome.max_adverse_pct, -3);
});

test('first_level_hit: both_same_bar when one bar spans stop and t1', () => {
  const outcome = evaluateOutcome(signal('long'), window(48, { 5: [100, 103.5, 97.5, 100],
    20: [100, 107, 100, 106] }));
  assert.is(outcome.first_level_hit, 'both_same_bar');
  assert.is(outcome.t2_hit, false, 't2 never counts once the stop was touched');
  assert.is(outcome.t2_touched_any, true);
});

test('exit_price: a touch fills at the barrier, a bar opening past it at its open', () => {
  const long = signal('long');
  const at = (rows: Record<number, [number, number, number, number]>) =>
    evaluateOutcome(long, window(48, rows));
  // Crossed inside the bar: the resting order fills at the level, -1 R and +1.5 R.
  const stop = at({ 3: [99, 99, 98, 98.5] });
  assert.is(stop.exit_price, 98);
  assert.is(resultR(long, stop), -1);
  assert.is(resultR(long, at({ 3: [100, 103, 100, 102] })), 1.5);
  // Opened past the stop (a gap, or a one-price bar as the warm-up's hourly samples): the open,
  // -2 R not -1; past t1: the open too, so a driftless price books 0 on average.
  const gapDown = at({ 3: [96, 96, 96, 96] });
  assert.equal([gapDown.first_level_hit, gapDown.exit_price, resultR(long, gapDown)],
    ['stop', 96, -2]);
  const gapUp = at({ 3: [104, 104.5, 103.8, 104] });
  assert.equal([gapUp.first_level_hit, gapUp.exit_price, resultR(long, gapUp)], ['t1', 104, 2]);
  // Both in one bar books the stop, at the open when it opened past it.
  const both = at({ 5: [97, 103.5, 96.5, 100] });
  assert.equal([both.first_level_hit, resultR(long, both)], ['both_same_bar', -1.5]);
  // Short mirrors; neither touched books the last close; stored before exit_price: the levels.
  const short = signal('short');
  assert.is(resultR(short, evaluateOutcome(short, window(48, { 2: [103, 103, 103, 103] }))),
    -1.5);
  const none = at({ 47: [100, 101, 99.9, 101] });
  assert.equal([none.exit_price, resultR(long, none)], [101, 0.5]);
  assert.is(resultR(long, { ...gapDown, exit_price: undefined }), -1);
});

test('t2: hit before any stop counts, even if the stop comes later', () => {
  const outcome = evaluateOutcome(signal('long'), window(48, { 2: [100, 104, 100, 103],
    4: [103, 106, 103, 105], 9: [100, 100, 97, 97.5] }));
  assert.is(outcome.first_level_hit, 't1');
  assert.is(outcome.t2_hit, true);
  assert.is(outcome.price_after, 100);
});

test('t2: a bar touching both t2 and the stop does not count; after the stop neither', () => {
  const sameBar = evaluateOutcome(signal('long'), window(48, { 2: [100, 104, 100, 103],
    6: [100, 106.5, 97, 100] }));
  assert.is(sameBar.first_level_hit, 't1');
  assert.is(sameBar.t2_hit, false);
  assert.is(sameBar.t2_touched_any, true);
  const after = evaluateOutcome(signal('long'), window(48, { 1: [100, 100, 97.9, 98],
    6: [100, 107, 100, 106] }));
  assert.is(after.first_level_hit, 'stop');
  assert.is(after.t2_hit, false);
  assert.is(after.t2_touched_any, true);
});

test('short side mirrors: stop by the high, targets by the low, signed figures', () => {
  const outcome = evaluateOutcome(signal('short'), window(48, { 4: [100, 100, 94, 95],
    47: [96, 99, 96, 98] }));
  assert.is(outcome.first_level_hit, 't1');
  assert.is(outcome.t2_hit, true);
  assert.is(outcome.move_pct, 2);
  assert.is(outcome.max_favorable_pct, 6);
  assert.is(outcome.max_adverse_pct, -0.5);
  const stopped = evaluateOutcome(signal('short'), window(48, { 0: [100, 102, 100, 101] }));
  assert.is(stopped.first_level_hit, 'stop');
});

test('window edge: a bar opened before the signal is excluded; 48 bars; end exclusive', () => {
  const before = ohlc('BTC', S - BAR, [[100, 110, 90, 100]]);
  const signalBar = ohlc('BTC', T0, [[100, 110, 90, 100]]);
  const after = ohlc('BTC', S + 48 * BAR, [[100, 110, 90, 100]]);
  const outcome = evaluateOutcome(signal('long'), [...signalBar, ...before, ...window(48),
    ...after]);
  assert.is(outcome.first_level_hit, 'none');
  assert.is(outcome.bars, 48);
  assert.is(outcome.complete, true);
  const last = evaluateOutcome(signal('long'), window(48, { 47: [100, 103, 100, 101] }));
  assert.is(last.first_level_hit, 't1', 'the bar closing exactly at +4h is inside');
  assert.is(last.price_after, 101);
});

test('incomplete windows are flagged; no bars leave the figures at zero', () => {
  const partial = evaluateOutcome(signal('long'), window(47));
  assert.is(partial.complete, false);
  assert.is(partial.bars, 47);
  const none = evaluateOutcome(signal('long'), []);
  assert.is(none.complete, false);
  assert.is(none.price_after, 100);
  assert.is(none.move_pct, 0);
  assert.is(none.first_level_hit, 'none');
});

test('an invalid plan or a bar of another timeframe is a programmer error', () => {
  const bad = { ...signal('long'), plan: { ...signal('long').plan, stop: 101 } };
  assert.throws(() => evaluateOutcome(bad, window(2)), /invalid plan/);
  const hourly = window(1).map((b) => ({ ...b, timeframe: '1h' as const }));
  assert.throws(() => evaluateOutcome(signal('long'), hourly), /5m/);
});

test.run();
