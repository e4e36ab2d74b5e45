// Outcomes across a restart: the schedule and the 5m bars persist in lmdb, and an outcome
// due while the service was down is computed at start from the stored bars.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import { createSignalDetector } from '../../actors/signals/detector.js';
import { createOutcomeScheduler } from '../../actors/signals/outcome-scheduler.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { openBarStore } from '../../persistence/bars.js';
import { openSignalStore } from '../../persistence/signals.js';
import { openStore, type Store } from '../../persistence/store.js';
import { tempDir } from '../helpers/eventually.js';
import { bars, ohlc, replay, T0, type BarInput } from './bars.js';

const HOUR = 3_600_000;
const open = (dataDir: string) =>
  openStore({ dataDir, clock: new ManualClock(T0), watchKeys: false });

function grabSignal(): EntrySignal {
  const seq: BarInput[] = [
    { o: 1049, h: 1050, l: 1048, c: 1049 }, { o: 1048, h: 1050, l: 1047, c: 1048 },
    { o: 1047, h: 1050, l: 1045, c: 1047 }, { o: 1047, h: 1050, l: 1047, c: 1048 },
    { o: 1048, h: 1050, l: 1048, c: 1049 }, { o: 1047.5, h: 1048, l: 1044, c: 1047 },
  ];
  const signal = replay(createSignalDetector('BTC'), bars('BTC', seq))[5];
  if (signal === null) throw new Error('the crafted sequence must make a signal');
  return signal;
}

test('restart between signal and outcome: schedule and bars survive, due at start', async () => {
  const dir = await tempDir();
  let store: Store | null = await open(dir);
  try {
    const signal = grabSignal();
    const signalMs = Date.parse(signal.bar_time) + 300_000;
    const signals = openSignalStore<EntrySignal>(store.root);
    assert.is(await signals.claim(signal, signalMs), true);
    assert.is(await signals.claim(signal, signalMs), false, 'the same signal never twice');
    const scheduler = createOutcomeScheduler(signals, openBarStore(store.root));
    assert.is(await scheduler.schedule(signal, 'evt_abc'), true);
    assert.is(await scheduler.schedule(signal, 'evt_abc'), false);
    const barStore = openBarStore(store.root);
    // Two hours of bars arrive, then the service stops.
    const first = ohlc('BTC', signalMs, Array.from({ length: 24 },
      () => [1047, 1048, 1046, 1047] as [number, number, number, number]));
    first.forEach((bar) => barStore.add(bar));
    await barStore.flush();
    assert.equal(await scheduler.evaluateDue(signalMs + 2 * HOUR), []);
    await store.close();
    store = null;

    // A recorder (or backfill) stored the rest of the window while this service was down.
    store = await open(dir);
    const laterBars = openBarStore(store.root);
    const plan = signal.plan;
    ohlc('BTC', signalMs + 2 * HOUR, Array.from({ length: 24 }, (_, i) =>
      (i === 5 ? [1047, plan.t1, 1046, plan.t1] : [1047, 1048, 1046, 1047]) as
        [number, number, number, number])).forEach((bar) => laterBars.add(bar));
    await laterBars.flush();
    await store.close();
    store = null;

    // Restart six hours after the signal: the outcome is due and is computed at once.
    store = await open(dir);
    const reopened = openSignalStore<EntrySignal>(store.root);
    assert.is(reopened.pendingCount(), 1);
    assert.is(await reopened.claim(signal, signalMs), false, 'still claimed after restart');
    const restarted = createOutcomeScheduler(reopened, openBarStore(store.root));
    const nowMs = signalMs + 6 * HOUR;
    const due = await restarted.evaluateDue(nowMs);
    assert.is(due.length, 1);
    const { outcome } = due[0];
    assert.is(outcome.entry_event_id, 'evt_abc');
    assert.is(outcome.signal_id, signal.signal_id);
    assert.is(outcome.complete, true);
    assert.is(outcome.first_level_hit, 't1');
    // Market time, the end of the horizon: not when the restarted service got round to it.
    assert.is(outcome.evaluated_at, new Date(signalMs + 4 * HOUR).toISOString());
    assert.is(outcome.signaled_at, new Date(signalMs).toISOString());
    assert.equal(await restarted.evaluateDue(nowMs), [], 'handed out once until completed');
    await restarted.complete(signal.signal_id);
    assert.is(reopened.pendingCount(), 0);
    assert.equal(restarted.due(nowMs + HOUR), []);
  } finally {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('an incomplete window waits out its grace; a full schedule refuses more', async () => {
  const dir = await tempDir();
  const store = await open(dir);
  try {
    const signal = grabSignal();
    const signalMs = Date.parse(signal.bar_time) + 300_000;
    const signals = openSignalStore<EntrySignal>(store.root, { pendingOutcomesMax: 1 });
    await signals.claim(signal, signalMs);
    const scheduler = createOutcomeScheduler(signals, openBarStore(store.root),
      { graceMs: 600_000 });
    assert.is(await scheduler.schedule(signal, 'evt_1'), true);
    const dueMs = signalMs + 4 * HOUR;
    assert.equal(await scheduler.evaluateDue(dueMs - 1), [], 'not due before 4 h');
    assert.equal(await scheduler.evaluateDue(dueMs), [], 'no bars yet: wait for them');
    const [late] = await scheduler.evaluateDue(dueMs + 600_000);
    assert.is(late.outcome.complete, false);
    assert.is(late.outcome.bars, 0);
    scheduler.release(signal.signal_id);
    assert.is((await scheduler.evaluateDue(dueMs + 600_000)).length, 1, 'released: again');
    const other = { ...signal, signal_id: 'BTC-5m-1-long' };
    await signals.claim(other, signalMs);
    assert.is(await scheduler.schedule(other, 'evt_2'), false, 'bound reached');
    assert.is(await scheduler.schedule({ ...signal, signal_id: 'unknown' }, 'e'), false);
    assert.is(await signals.prune(signalMs + 200 * 86_400_000), 1, 'only the unscheduled one');
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a start with many outcomes due evaluates them over several event-loop turns', async () => {
  const dir = await tempDir();
  const store = await open(dir);
  try {
    const signal = grabSignal();
    const signalMs = Date.parse(signal.bar_time) + 300_000;
    const signals = openSignalStore<EntrySignal>(store.root);
    // The smallest slice: every outcome ends its turn, so HTTP gets the loop in between.
    const scheduler = createOutcomeScheduler(signals, openBarStore(store.root),
      { graceMs: 0, sliceMs: Number.MIN_VALUE });
    const ids = ['BTC-5m-a', 'BTC-5m-b', 'BTC-5m-c', 'BTC-5m-d'];
    for (const id of ids) {
      await signals.claim({ ...signal, signal_id: id }, signalMs);
      assert.is(await scheduler.schedule({ ...signal, signal_id: id }, `evt_${id}`), true);
    }
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    const evaluating = scheduler.evaluateDue(signalMs + 5 * HOUR);
    setImmediate(count);
    const due = await evaluating;
    counting = false;
    assert.equal(due.map((d) => d.pending.signal.signal_id).sort(), ids);
    assert.ok(turns >= ids.length - 1, `evaluated in ${turns + 1} turns (expected one each)`);
    assert.throws(() => createOutcomeScheduler(signals, openBarStore(store.root),
      { sliceMs: 0 }), /sliceMs must be > 0/);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('bars: range by symbol and time, 5m only, pruned past retention', async () => {
  const dir = await tempDir();
  const store = await open(dir);
  try {
    const barStore = openBarStore(store.root, { batchBarsMax: 4 });
    const rows = Array.from({ length: 10 }, () => [1, 2, 0.5, 1.5] as
      [number, number, number, number]);
    ohlc('BTC', T0, rows).forEach((bar) => barStore.add(bar));
    ohlc('ETH', T0, rows).forEach((bar) => barStore.add(bar));
    await barStore.flush();
    const got = barStore.range('BTC', T0 + 300_000, T0 + 4 * 300_000);
    assert.equal(got.map((b) => b.openMs), [1, 2, 3].map((i) => T0 + i * 300_000));
    assert.equal(got[0], ohlc('BTC', T0 + 300_000, [rows[0]])[0]);
    assert.throws(() => barStore.add({ ...got[0], timeframe: '1h' }), /5m/);
    assert.throws(() => barStore.add({ ...got[0], close: NaN }), /corrupt/);
    assert.throws(() => openBarStore(store.root, { retentionMs: 86_400_000 }), /7 days/);
    const deleted = await barStore.prune(T0 + 8 * 86_400_000 + 5 * 300_000);
    assert.is(deleted, 10, 'five of each symbol are past retention');
    assert.is(barStore.range('BTC', 0, Infinity).length, 5);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
