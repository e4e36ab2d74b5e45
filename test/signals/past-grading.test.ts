// The warm-up's signals are graded by evidence (docs/signals.md, "Unproven setups grade C"): the
// warm-up replays a week in a minute, before any of its outcomes is evaluated, so the pipeline
// holds them until its past is in and then grades them in market-time order, each from the
// outcomes due before its bar, as a service that had run through that week would have. Real
// parts: lmdb store, webhook supervisor, the pipeline.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { Bar } from '../../core/messages.js';
import { SignalPipeline } from '../../actors/runtime/signal-pipeline.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { createWebhookSupervisor, type WebhookSupervisor } from
  '../../actors/webhooks/supervisor.js';
import { openStore, type Store } from '../../persistence/store.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { entrySignalAt } from './entry-signal-fixture.js';

const pastSuite = suite('the warm-up\'s signals graded in market-time order');
const BAR_MS = 300_000;
const HOUR_MS = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 0, 0);
const WARMUP_END_MS = T0 + 30 * HOUR_MS;
const clock = new ManualClock(T0 + 40 * HOUR_MS);
let store: Store;
let webhooks: WebhookSupervisor;
let pipeline: SignalPipeline;
let settled = false;

/** 40 signals of one setup in the warm-up's first 3.3 h, and one 20 h in, after their outcomes. */
const early = Array.from({ length: 40 }, (_, i) => entrySignalAt('ETH', T0 + i * BAR_MS));
const subject = entrySignalAt('ETH', T0 + 20 * HOUR_MS);

/** ETH's 5m bars to the warm-up's end: each reaches t1 (103) and never the stop (98). */
function bars(): { kind: 'bar'; symbol: string; tsMs: number; data: Record<string, unknown> }[] {
  const items = [];
  for (let openMs = T0; openMs < WARMUP_END_MS; openMs += BAR_MS) {
    const bar: Bar = { symbol: 'ETH', timeframe: '5m', openMs, open: 100, high: 103.5, low: 99.5,
      close: 100, volume: 1, buyNotional: 50, sellNotional: 50, cvdClose: 0, trades: 2 };
    items.push({ kind: 'bar' as const, symbol: 'ETH', tsMs: openMs + BAR_MS, data: { ...bar } });
  }
  return items;
}

const send = (signal: EntrySignal) => pipeline.onOutbound([{ kind: 'entry_signal',
  symbol: signal.symbol, tsMs: Date.parse(signal.bar_time), data: { ...signal } }]);
const stored = (signal: EntrySignal) => pipeline.signalStore.get(signal.signal_id);

pastSuite.before(async () => {
  store = await openStore({ dataDir: await tempDir(), clock });
  webhooks = createWebhookSupervisor({ root: store.root, clock, logger: silentLogger,
    keys: store.keys, allowPrivate: true, random: () => 0 });
  pipeline = new SignalPipeline({ root: store.root, webhooks, keys: store.keys, clock,
    logger: silentLogger, chartBaseUrl: 'https://charts.example/c',
    fundingAnnualizedPct: () => null });
  pipeline.setWarmupEnd(WARMUP_END_MS);
  pipeline.setPastSettled(() => settled);
});

pastSuite.after(async () => {
  await pipeline?.close();
  await store?.close();
});

pastSuite('held until the past is in, then graded from the outcomes due before each bar',
  async () => {
    // Arrival order is not market order: the later pair's slice came first.
    send(subject);
    for (const signal of early) send(signal);
    pipeline.onOutbound(bars());
    assert.is(pipeline.pastHeld, 41);
    assert.is(await pipeline.evaluateOutcomes(), 0, 'nothing scheduled while held');
    assert.is(stored(subject), undefined);
    settled = true;
    await pipeline.evaluateOutcomes();
    assert.is(pipeline.pastHeld, 0);
    const graded = stored(subject)!.signal;
    assert.is(graded.grade_basis, 'evidence');
    assert.is(graded.grade_evidence?.n, 40);
    assert.is(graded.grade_evidence?.expectancy_r, 1.5);
    assert.is(graded.grade, 'A+');
    // The early ones had nothing due before their bars (the first outcome is due 4 h in).
    for (const signal of early) {
      const record = stored(signal)!;
      assert.is(record.signal.grade_basis, 'rules', signal.signal_id);
      assert.is(record.signal.grade_evidence?.n, 0, signal.signal_id);
      assert.is(record.outcomeDone, true, `${signal.signal_id} evaluated with the past`);
      assert.is(record.result?.first_level_hit, 't1');
    }
    assert.is(stored(subject)!.outcomeDone, true);
  });

pastSuite('a signal after the warm-up is graded on arrival from the outcomes so far', async () => {
  const live = entrySignalAt('ETH', WARMUP_END_MS + HOUR_MS);
  send(live);
  assert.is(pipeline.pastHeld, 0);
  await eventually(() => stored(live) !== undefined, { message: 'the live signal stored' });
  const graded = stored(live)?.signal;
  assert.is(graded?.grade_basis, 'evidence');
  assert.is(graded?.grade_evidence?.n, 41);
});

pastSuite('a stop before the past is in stores the held signals, graded with what is known',
  async () => {
    const other = await openStore({ dataDir: await tempDir(), clock });
    const supervisor = createWebhookSupervisor({ root: other.root, clock, logger: silentLogger,
      keys: other.keys, allowPrivate: true, random: () => 0 });
    const stopped = new SignalPipeline({ root: other.root, webhooks: supervisor,
      keys: other.keys, clock, logger: silentLogger, chartBaseUrl: 'https://charts.example/c',
      fundingAnnualizedPct: () => null });
    stopped.setWarmupEnd(WARMUP_END_MS);
    stopped.setPastSettled(() => false);
    stopped.onOutbound([{ kind: 'entry_signal', symbol: 'ETH', tsMs: T0,
      data: { ...early[0] } }]);
    assert.is(stopped.pastHeld, 1);
    await stopped.close();
    assert.is(stopped.pastHeld, 0);
    assert.is(stopped.signalStore.get(early[0].signal_id)?.signal.grade_basis, 'rules');
    await other.close();
  });

pastSuite.run();
