// Entry-signal detection: each logic on crafted bars fires exactly when it should, once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createSignalDetector, onClosedBar, resetSignalDetector,
} from '../../actors/signals/detector.js';
import { isValidPlan } from '../../actors/signals/plan.js';
import type { EntrySignal, LogicName } from '../../actors/signals/types.js';
import { bars, firedAt, quiet, replay, T0, type BarInput } from './bars.js';

const flat = (n: number, low = 1045, high = 1049, mid = 1047): BarInput[] =>
  Array.from({ length: n }, () => ({ o: mid, h: high, l: low, c: mid }));

function onlyLogics(signal: EntrySignal | null, names: LogicName[]): void {
  assert.ok(signal, 'expected a signal');
  const on = Object.entries(signal.logics).filter(([, v]) => v).map(([k]) => k).sort();
  assert.equal(on, [...names].sort());
}

function assertPlan(signal: EntrySignal): void {
  const sign = signal.side === 'long' ? 1 : -1;
  assert.ok(isValidPlan(signal.plan, sign), `plan ${JSON.stringify(signal.plan)}`);
  const risk = sign * (signal.plan.entry - signal.plan.stop);
  const rewardT1 = (sign * (signal.plan.t1 - signal.plan.entry)) / risk;
  assert.ok(Math.abs(signal.plan.r_t1 - rewardT1) < 0.01);
  assert.ok(signal.plan.r_t2 >= signal.plan.r_t1);
  assert.is(signal.plan.entry, signal.price_at_signal);
}

// Swing low 1045 at index 2, confirmed after index 4; index 5 sweeps it and closes back above.
const grabLong: BarInput[] = [
  { o: 1049, h: 1050, l: 1048, c: 1049 }, { o: 1048, h: 1050, l: 1047, c: 1048 },
  { o: 1047, h: 1050, l: 1045, c: 1047 }, { o: 1047, h: 1050, l: 1047, c: 1048 },
  { o: 1048, h: 1050, l: 1048, c: 1049 },
  { o: 1047.5, h: 1048, l: 1044, c: 1047 },
  { o: 1047, h: 1048, l: 1043, c: 1046 },
];

test('liquidity_grab long: fires on the sweep bar only, once per swing', () => {
  const results = replay(createSignalDetector('BTC'), bars('BTC', grabLong));
  assert.equal(firedAt(results), [5]);
  const signal = results[5] as EntrySignal;
  onlyLogics(signal, ['liquidity_grab']);
  assert.is(signal.side, 'long');
  assert.is(signal.grade, 'C');
  assert.is(signal.signal_id, `BTC-5m-${T0 + 5 * 300_000}-long`);
  assert.is(signal.bar_time, new Date(T0 + 5 * 300_000).toISOString());
  assert.is(signal.regime, 'unknown');
  assert.is(signal.flow_source, 'none');
  assert.is(signal.confirmed, false);
  assert.ok(signal.plan.stop < 1044, 'stop beyond the swept low');
  assertPlan(signal);
  assert.not.ok('session' in signal);
  assert.not.ok('grade_before_session' in signal);
});

test('liquidity_grab short mirrors long', () => {
  const mirrored = grabLong.map((b) => ({ o: 2094 - b.o, h: 2094 - b.l, l: 2094 - b.h,
    c: 2094 - b.c }));
  const results = replay(createSignalDetector('ETH'), bars('ETH', mirrored));
  assert.equal(firedAt(results), [5]);
  onlyLogics(results[5], ['liquidity_grab']);
  assert.is(results[5]?.side, 'short');
  assert.ok((results[5] as EntrySignal).plan.stop > 1050);
  assertPlan(results[5] as EntrySignal);
});

test('a sweep that closes beyond the swing is not a grab', () => {
  const seq = [...grabLong.slice(0, 5), { o: 1047.5, h: 1048, l: 1043, c: 1043.5 }];
  assert.equal(firedAt(replay(createSignalDetector('BTC'), bars('BTC', seq))), []);
});

test('flow_rejection long: a rejected probe of the low with buying flow', () => {
  const seq = [...flat(6), { o: 1047, h: 1048.5, l: 1045, c: 1048, buy: 130, sell: 70 }];
  const results = replay(createSignalDetector('BTC'), bars('BTC', seq));
  assert.equal(firedAt(results), [6]);
  onlyLogics(results[6], ['flow_rejection']);
  assert.is(results[6]?.flow_source, 'bar_delta');
  assert.is(results[6]?.confirmed, true);
  assertPlan(results[6] as EntrySignal);
});

test('flow_rejection needs the flow: selling into the wick does not fire', () => {
  const seq = [...flat(6), { o: 1047, h: 1048.5, l: 1045, c: 1048, buy: 70, sell: 130 }];
  assert.equal(firedAt(replay(createSignalDetector('BTC'), bars('BTC', seq))), []);
});

test('absorption: the kernel event inside the bar, matching side only', () => {
  const seq = bars('BTC', flat(4));
  const inBar = { kind: 'sell_absorbed' as const, tsMs: seq[3].openMs + 1_000 };
  const results = replay(createSignalDetector('BTC'), seq,
    (_bar, i) => ({ ...quiet, absorption: i === 3 ? inBar : null }));
  assert.equal(firedAt(results), [3]);
  onlyLogics(results[3], ['absorption']);
  assert.is(results[3]?.side, 'long');
  assert.is(results[3]?.flow_source, 'absorption');
  const early = { kind: 'sell_absorbed' as const, tsMs: seq[3].openMs - 1 };
  const late = replay(createSignalDetector('BTC'), seq, { ...quiet, absorption: early });
  assert.equal(firedAt(late), [2], 'an event belongs to the bar it fell in');
  const bearish = replay(createSignalDetector('BTC'), seq,
    (_bar, i) => ({ ...quiet, absorption: i === 3 ? { ...inBar, kind: 'buy_absorbed' } : null }));
  assert.is(bearish[3]?.side, 'short');
});

test('cvd_divergence long: a new low the cumulative delta does not confirm', () => {
  const down: BarInput[] = [1049, 1048, 1047, 1046, 1045].map((l) =>
    ({ o: l + 2, h: l + 3, l, c: l + 1, buy: 0, sell: 100 }));
  const bounce: BarInput[] = [{ o: 1047, h: 1049, l: 1046, c: 1048 },
    { o: 1048, h: 1050, l: 1047, c: 1049 }];
  const seq = [...down, ...bounce, { o: 1046, h: 1047, l: 1044, c: 1045, buy: 55, sell: 45 }];
  const results = replay(createSignalDetector('BTC'), bars('BTC', seq));
  assert.equal(firedAt(results), [7]);
  onlyLogics(results[7], ['cvd_divergence']);
  assert.is(results[7]?.flow_source, 'cvd_divergence');
  const confirmedLow = [...down, ...bounce,
    { o: 1046, h: 1047, l: 1044, c: 1045, buy: 0, sell: 100 }];
  assert.equal(firedAt(replay(createSignalDetector('BTC'), bars('BTC', confirmedLow))), []);
  const slide = [...down, { o: 1046, h: 1047, l: 1044, c: 1045, buy: 55, sell: 45 }];
  assert.equal(firedAt(replay(createSignalDetector('BTC'), bars('BTC', slide))), [],
    'a new low one bar after the last one is a slide, not a divergence');
});

test('cvd_divergence short: a new high on falling delta', () => {
  const up: BarInput[] = [1045, 1046, 1047, 1048, 1049].map((h) =>
    ({ o: h - 2, h, l: h - 3, c: h - 1, buy: 100, sell: 0 }));
  const dip: BarInput[] = [{ o: 1047, h: 1048, l: 1045, c: 1046 },
    { o: 1046, h: 1047, l: 1044, c: 1045 }];
  const seq = [...up, ...dip, { o: 1048, h: 1050, l: 1047, c: 1049, buy: 45, sell: 55 }];
  const results = replay(createSignalDetector('BTC'), bars('BTC', seq));
  assert.equal(firedAt(results), [7]);
  onlyLogics(results[7], ['cvd_divergence']);
  assert.is(results[7]?.side, 'short');
});

test('structure_shift long: after a break down, a close above the last swing high', () => {
  const seq: BarInput[] = [
    { o: 1048, h: 1050, l: 1046, c: 1048 }, { o: 1050, h: 1052, l: 1048, c: 1050 },
    { o: 1052, h: 1055, l: 1050, c: 1052 }, { o: 1050, h: 1053, l: 1047, c: 1050 },
    { o: 1048, h: 1051, l: 1044, c: 1048 }, { o: 1047, h: 1049, l: 1046, c: 1047 },
    { o: 1048, h: 1050, l: 1047, c: 1048 },
    { o: 1045, h: 1046, l: 1040, c: 1041 },
    { o: 1041, h: 1045, l: 1039, c: 1044 },
    { o: 1046, h: 1057, l: 1045, c: 1056 },
  ];
  const results = replay(createSignalDetector('BTC'), bars('BTC', seq));
  assert.equal(firedAt(results), [9]);
  onlyLogics(results[9], ['structure_shift']);
  assert.is(results[9]?.side, 'long');
  assertPlan(results[9] as EntrySignal);
});

test('level_confluence adds to a trigger but never fires alone', () => {
  const near: BarInput[] = [
    { o: 1004, h: 1005, l: 1003, c: 1004 }, { o: 1003, h: 1005, l: 1002, c: 1003 },
    { o: 1002, h: 1005, l: 1001, c: 1002 }, { o: 1003, h: 1005, l: 1002, c: 1003 },
    { o: 1004, h: 1005, l: 1003, c: 1004 },
    { o: 1002.5, h: 1004, l: 999.5, c: 1003 },
  ];
  const results = replay(createSignalDetector('BTC'), bars('BTC', near));
  assert.equal(firedAt(results), [5]);
  onlyLogics(results[5], ['liquidity_grab', 'level_confluence']);
  // Two logics made a B before the rule grade was capped at C (docs/signals.md, "Grade").
  assert.is(results[5]?.grade, 'C');
  const alone = [...flat(5, 1001, 1005, 1003), { o: 1003, h: 1004.5, l: 1000.2, c: 1004 }];
  assert.equal(firedAt(replay(createSignalDetector('BTC'), bars('BTC', alone))), []);
});

test('level_confluence at the prior UTC day low', () => {
  const day1 = bars('BTC', flat(3, 1040, 1049, 1045), T0 - 3 * 300_000);
  const day2 = bars('BTC', [...flat(2, 1044, 1049, 1046),
    { o: 1046, h: 1047, l: 1040.3, c: 1045 }], T0);
  const detector = createSignalDetector('BTC');
  replay(detector, day1);
  const results = replay(detector, day2, (bar) => ({ ...quiet,
    absorption: { kind: 'sell_absorbed', tsMs: bar.openMs } }));
  onlyLogics(results[2], ['absorption', 'level_confluence']);
});

test('grade: a score against lowers one place, none raises past C; a tie makes no signal', () => {
  const seq = bars('BTC', grabLong.slice(0, 6));
  const boosted = replay(createSignalDetector('BTC'), seq, { ...quiet, score: 60 });
  assert.is(boosted[5]?.grade, 'C');
  assert.is(boosted[5]?.score, 60);
  const against = replay(createSignalDetector('BTC'), seq, { ...quiet, score: -10 });
  assert.is(against[5]?.grade, 'D');
  const tie = replay(createSignalDetector('BTC'), seq, (bar, i) => ({ ...quiet,
    absorption: i === 5 ? { kind: 'buy_absorbed', tsMs: bar.openMs } : null }));
  assert.equal(firedAt(tie), []);
  const regime = replay(createSignalDetector('BTC'), seq, { ...quiet, regime: 'trending' });
  assert.is(regime[5]?.regime, 'trending');
});

test('session rule: outside the session lowered one place with the two fields', () => {
  const seq = bars('xyz:TSLA', grabLong.slice(0, 6));
  const closed = replay(createSignalDetector('xyz:TSLA'), seq, { ...quiet, sessionOpen: false });
  assert.is(closed[5]?.grade, 'D');
  assert.is(closed[5]?.session, 'closed');
  assert.is(closed[5]?.grade_before_session, 'C');
  const open = replay(createSignalDetector('xyz:TSLA'), seq, { ...quiet, sessionOpen: true });
  assert.is(open[5]?.grade, 'C');
  assert.not.ok(open[5] && 'session' in open[5]);
  assert.not.ok(open[5] && 'grade_before_session' in open[5]);
  const top = replay(createSignalDetector('xyz:TSLA'), seq,
    { ...quiet, sessionOpen: false, score: 90 });
  assert.is(top[5]?.grade_before_session, 'C');
  assert.is(top[5]?.grade, 'D');
});

test('a bar replayed or out of order is ignored; timeframes are independent', () => {
  const detector = createSignalDetector('BTC');
  const seq = bars('BTC', grabLong.slice(0, 6));
  assert.equal(firedAt(replay(detector, seq)), [5]);
  assert.is(onClosedBar(detector, seq[5], quiet), null);
  assert.is(onClosedBar(detector, seq[2], quiet), null);
  assert.is(detector.staleBars, 2);
  const hourly = bars('BTC', grabLong.slice(0, 6), T0, '1h');
  assert.equal(firedAt(replay(detector, hourly)), [5]);
  resetSignalDetector(detector);
  assert.equal(firedAt(replay(detector, seq)), [5], 'a reset forgets the consumed swing');
});

test('programmer errors throw: wrong symbol, corrupt bar, bad options', () => {
  const detector = createSignalDetector('BTC');
  const [bar] = bars('ETH', flat(1));
  assert.throws(() => onClosedBar(detector, bar, quiet), /ETH/);
  const [nan] = bars('BTC', [{ o: 1, h: NaN, l: 1, c: 1 }]);
  assert.throws(() => onClosedBar(detector, nan, quiet), /corrupt/);
  const [inverted] = bars('BTC', [{ o: 1, h: 1, l: 2, c: 1 }]);
  assert.throws(() => onClosedBar(detector, inverted, quiet), /corrupt/);
  assert.throws(() => createSignalDetector('BTC', { swingStrengthBars: 0 }), /swingStrengthBars/);
  assert.throws(() => createSignalDetector(''), /symbol/);
});

test.run();
