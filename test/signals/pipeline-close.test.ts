// A stop meets an outcome evaluation in flight: its slices span turns and each outcome is a
// store write, so close() waits for it rather than let the store close under it (which failed
// the evaluation with "the store's environment is closed" and left the outcomes pending).
// Real parts: lmdb store, webhook supervisor, the pipeline.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { Bar } from '../../core/messages.js';
import { SignalPipeline } from '../../actors/runtime/signal-pipeline.js';
import { createWebhookSupervisor } from '../../actors/webhooks/supervisor.js';
import { openStore } from '../../persistence/store.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { entrySignalAt } from './entry-signal-fixture.js';

const closeSuite = suite('closing the signal pipeline');
const BAR_MS = 300_000;
const HOUR_MS = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 0, 0);

closeSuite('close waits for the outcome evaluation in flight, then evaluates no more',
  async () => {
    const clock = new ManualClock(T0 + 40 * HOUR_MS);
    const store = await openStore({ dataDir: await tempDir(), clock });
    const webhooks = createWebhookSupervisor({ root: store.root, clock, logger: silentLogger,
      keys: store.keys, allowPrivate: true, random: () => 0 });
    const pipeline = new SignalPipeline({ root: store.root, webhooks, keys: store.keys, clock,
      logger: silentLogger, chartBaseUrl: 'https://charts.example/c',
      fundingAnnualizedPct: () => null });
    const signals = Array.from({ length: 300 }, (_, i) => entrySignalAt('ETH', T0 + i * 60_000));
    pipeline.onOutbound(signals.map((signal) => ({ kind: 'entry_signal' as const,
      symbol: 'ETH', tsMs: Date.parse(signal.bar_time), data: { ...signal } })));
    const items = [];
    for (let openMs = T0; openMs < T0 + 30 * HOUR_MS; openMs += BAR_MS) {
      const bar: Bar = { symbol: 'ETH', timeframe: '5m', openMs, open: 100, high: 103.5,
        low: 99.5, close: 100, volume: 1, buyNotional: 50, sellNotional: 50, cvdClose: 0,
        trades: 2 };
      items.push({ kind: 'bar' as const, symbol: 'ETH', tsMs: openMs + BAR_MS, data: { ...bar } });
    }
    pipeline.onOutbound(items);
    const stored = (i: number) => pipeline.signalStore.get(signals[i].signal_id);
    await eventually(() => signals.every((_, i) => stored(i)?.outcome != null),
      { message: 'every signal claimed and scheduled' });

    const running = pipeline.evaluateOutcomes();
    await pipeline.close();
    const done = signals.filter((_, i) => stored(i)?.outcomeDone === true).length;
    assert.is(await pipeline.evaluateOutcomes(), 0, 'none once closing');
    await store.close();
    assert.is(await running, done, 'the evaluation completed every outcome it took');
    assert.ok(done > 0, 'outcomes were due');
  });

closeSuite.run();
