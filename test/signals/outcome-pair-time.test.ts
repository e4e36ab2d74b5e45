// An outcome in a warm-up waits for its own pair's bars: the simulator warms pairs in slices,
// so another pair's market time runs hours ahead, and judging the grace by it gave outcomes
// of 4 bars of 48 (`complete: false`) for windows whose bars were still to come. A signal
// that sent no entry event has `entry_event_id: null`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { Bar } from '../../core/messages.js';
import { SignalPipeline } from '../../actors/runtime/signal-pipeline.js';
import { signalTimeMs } from '../../actors/signals/types.js';
import { createWebhookSupervisor } from '../../actors/webhooks/supervisor.js';
import { openStore, type Store } from '../../persistence/store.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { entrySignalAt } from './entry-signal-fixture.js';

const pairTime = suite('outcomes on each pair\'s own market time');
const BAR_MS = 300_000;
const HOUR_MS = 3_600_000;
const signalOpenMs = Date.UTC(2026, 10, 20, 12, 0);
const clock = new ManualClock(Date.UTC(2026, 10, 22));
let store: Store;
let pipeline: SignalPipeline;

const signal = entrySignalAt('SOL', signalOpenMs);

/** The pair's 5m bars from the signal's close, bar `from` to bar `to` (exclusive). */
function barItems(symbol: string, from: number, to: number) {
  const startMs = signalTimeMs(signal);
  const items = [];
  for (let k = from; k < to; k++) {
    const openMs = startMs + k * BAR_MS;
    const bar: Bar = { symbol, timeframe: '5m', openMs, open: 100, high: 100.5, low: 99.5,
      close: 100, volume: 1, buyNotional: 50, sellNotional: 50, cvdClose: 0, trades: 2 };
    // A bar goes out when it closes.
    items.push({ kind: 'bar' as const, symbol, tsMs: openMs + BAR_MS, data: { ...bar } });
  }
  return items;
}

pairTime.before(async () => {
  store = await openStore({ dataDir: await tempDir(), clock });
  const webhooks = createWebhookSupervisor({ root: store.root, clock, logger: silentLogger,
    keys: store.keys, allowPrivate: true });
  pipeline = new SignalPipeline({ root: store.root, webhooks, keys: store.keys, clock,
    logger: silentLogger, chartBaseUrl: 'https://charts.example/c',
    fundingAnnualizedPct: () => null });
  // The whole day is the simulator's warm-up: its past, sent nowhere.
  pipeline.setWarmupEnd(signalOpenMs + 24 * HOUR_MS);
});

pairTime.after(async () => {
  await pipeline?.close();
  await store?.close();
});

pairTime('a warm-up pair behind another is not given up on: its outcome is complete',
  async () => {
    pipeline.onOutbound([{ kind: 'entry_signal', symbol: 'SOL', tsMs: signalOpenMs,
      data: { ...signal } }]);
    await eventually(() => pipeline.signalStore.get(signal.signal_id)?.outcome != null,
      { message: 'outcome scheduled' });
    // SOL is four bars in; ETH, warmed in larger slices, is six hours past the signal.
    pipeline.onOutbound(barItems('SOL', 0, 4));
    pipeline.onOutbound(barItems('ETH', 0, 72));
    assert.is(await pipeline.evaluateOutcomes(), 0, 'SOL\'s window is still to come');
    pipeline.onOutbound(barItems('SOL', 4, 50));
    assert.is(await pipeline.evaluateOutcomes(), 1);
    const stored = pipeline.signalStore.get(signal.signal_id)!;
    assert.is(stored.result?.complete, true);
    assert.is(stored.result?.bars, 48);
    assert.is(stored.result?.entry_event_id, null, 'no entry event was sent');
  });

pairTime('a pair with truly missing bars is evaluated incomplete once its own time passed',
  async () => {
    const openMs = signalOpenMs + 6 * HOUR_MS;
    const quiet = { ...signal, signal_id: `SOL-5m-${openMs}-long`,
      bar_time: new Date(openMs).toISOString() };
    pipeline.onOutbound([{ kind: 'entry_signal', symbol: 'SOL', tsMs: openMs, data: quiet }]);
    await eventually(() => pipeline.signalStore.get(quiet.signal_id)?.outcome != null,
      { message: 'outcome scheduled' });
    // Ten bars, then none for five hours (a closed session), then a trade's bar.
    const startMs = signalTimeMs(quiet);
    const bar = (k: number) => ({ kind: 'bar' as const, symbol: 'SOL', tsMs: startMs + k * BAR_MS,
      data: { symbol: 'SOL', timeframe: '5m', openMs: startMs + (k - 1) * BAR_MS, open: 100,
        high: 100.5, low: 99.5, close: 100, volume: 1, buyNotional: 50, sellNotional: 50,
        cvdClose: 0, trades: 2 } });
    pipeline.onOutbound(Array.from({ length: 10 }, (_, i) => bar(i + 1)));
    assert.is(await pipeline.evaluateOutcomes(), 0);
    pipeline.onOutbound([bar(61)]);
    assert.is(await pipeline.evaluateOutcomes(), 1);
    const stored = pipeline.signalStore.get(quiet.signal_id)!;
    assert.is(stored.result?.complete, false);
    assert.is(stored.result?.bars, 10);
  });

pairTime.run();
