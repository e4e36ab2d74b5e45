// The signal pipeline with its real parts: lmdb store, webhook supervisor, a loopback receiver.
// An entry signal goes out once (also when seen again), to the endpoint of the matching Entry
// Signal alert, with the event id derived from signal_id; 4 hours of 5m bars later (market
// time) its outcome follows with entry_event_id.
import { createServer, type Server } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { Bar } from '../../core/messages.js';
import { SignalPipeline } from '../../actors/runtime/signal-pipeline.js';
import { signalTimeMs } from '../../actors/signals/types.js';
import type { AlertRecord } from '../../actors/signals/alerts.js';
import { eventIdForSignal } from '../../actors/webhooks/ids.js';
import { createWebhookSupervisor, type WebhookSupervisor } from
  '../../actors/webhooks/supervisor.js';
import { openAlertStore, newAlertId } from '../../persistence/alerts.js';
import { openStore, type Store } from '../../persistence/store.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { entrySignalAt } from './entry-signal-fixture.js';

const pipelineSuite = suite('signal pipeline');
const barMs = 300_000;
const signalOpenMs = Date.UTC(2026, 10, 20, 12, 0);
const received: { type: string; body: any }[] = [];
let store: Store;
let webhooks: WebhookSupervisor;
let pipeline: SignalPipeline;
let receiver: Server;
const clock = new ManualClock(Date.UTC(2026, 10, 22));

const signal = entrySignalAt('BTC', signalOpenMs);

function bar(openMs: number, low: number, high: number, close: number): Bar {
  return { symbol: 'BTC', timeframe: '5m', openMs, open: close, high, low, close, volume: 1,
    buyNotional: 50, sellNotional: 50, cvdClose: 0, trades: 2 };
}

pipelineSuite.before(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      received.push({ type: String(req.headers['x-service-event']), body: JSON.parse(body) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/in`;
  store = await openStore({ dataDir: await tempDir(), clock });
  const { record } = await store.keys.create({ plan: 'Pro', label: null,
    subscriptionStartMs: null });
  webhooks = createWebhookSupervisor({ root: store.root, clock, logger: silentLogger,
    keys: store.keys, allowPrivate: true, random: () => 0 });
  webhooks.start();
  await webhooks.endpoints.add(record.prefix, url);
  const alert: AlertRecord = { id: newAlertId(), keyPrefix: record.prefix, webhookUrl: url,
    cooldownMs: 0, createdAtMs: clock.nowMs(), kind: 'entry_signal', symbols: ['BTC'],
    timeframes: ['5m'], minGrade: 'C' };
  const added = await openAlertStore<AlertRecord>(store.root).add(alert);
  assert.ok(added.ok);
  pipeline = new SignalPipeline({ root: store.root, webhooks, keys: store.keys, clock,
    logger: silentLogger, chartBaseUrl: 'https://charts.example/c',
    fundingAnnualizedPct: () => 8.76 });
});

pipelineSuite.after(async () => {
  await webhooks?.stop();
  await pipeline?.close();
  await store?.close();
  receiver?.close();
});

pipelineSuite('a signal is delivered once, under the id derived from signal_id', async () => {
  pipeline.onOutbound([{ kind: 'entry_signal', symbol: 'BTC', tsMs: signalOpenMs,
    data: { ...signal } }]);
  await eventually(async () => {
    await webhooks.tick();
    return received.some((r) => r.type === 'entry_signal.created');
  }, { message: 'entry signal delivered' });
  pipeline.onOutbound([{ kind: 'entry_signal', symbol: 'BTC', tsMs: signalOpenMs,
    data: { ...signal } }]);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await webhooks.tick();
  await webhooks.idle();
  const entries = received.filter((r) => r.type === 'entry_signal.created');
  assert.is(entries.length, 1, 'the same signal never fires twice');
  assert.is(entries[0].body.id, eventIdForSignal(signal.signal_id));
  assert.is(entries[0].body.data.signal_id, signal.signal_id);
  assert.match(entries[0].body.data.chart_url, /^https:\/\/charts\.example\/c\?/);
});

pipelineSuite('the outcome follows four hours of market time later, from 5m bars', async () => {
  // Not due yet: an hour of bars.
  const items = [];
  for (let k = 0; k < 12; k++) {
    items.push({ kind: 'bar' as const, symbol: 'BTC', tsMs: signalOpenMs + barMs * (k + 1),
      data: { ...bar(signalOpenMs + barMs * (k + 1), 99.5, 101, 100.5) } });
  }
  pipeline.onOutbound(items);
  assert.is(await pipeline.evaluateOutcomes(), 0);
  // The rest of the window, t1 touched on bar 20, then 4 h passes in market time.
  const rest = [];
  for (let k = 12; k < 52; k++) {
    const openMs = signalOpenMs + barMs * (k + 1);
    const high = k === 20 ? 103.5 : 101.5;
    rest.push({ kind: 'bar' as const, symbol: 'BTC', tsMs: openMs,
      data: { ...bar(openMs, 99.2, high, 101) } });
  }
  pipeline.onOutbound(rest);
  assert.is(await pipeline.evaluateOutcomes(), 1);
  await eventually(async () => {
    await webhooks.tick();
    return received.some((r) => r.type === 'signal.outcome');
  }, { message: 'outcome delivered' });
  const outcome = received.find((r) => r.type === 'signal.outcome')!.body.data;
  assert.is(outcome.entry_event_id, eventIdForSignal(signal.signal_id));
  assert.is(outcome.first_level_hit, 't1');
  assert.is(outcome.horizon, '4h');
  assert.is(outcome.t2_hit, false);
  // One clock per field: the service clock is two days past the data (a replay), yet both
  // times are market time, exactly the horizon apart; the delivery time is the envelope's.
  const event = received.find((r) => r.type === 'signal.outcome')!.body;
  assert.is(outcome.signaled_at, new Date(signalTimeMs(signal)).toISOString());
  assert.is(Date.parse(outcome.evaluated_at) - Date.parse(outcome.signaled_at), 4 * 3_600_000);
  assert.is(Date.parse(event.created_at), clock.nowMs());
  assert.is(await pipeline.evaluateOutcomes(), 0, 'an outcome is sent once');
});

pipelineSuite('every outcome is kept for the track record; sent only where asked', async () => {
  assert.is(pipeline.signalStore.get(signal.signal_id)?.result?.first_level_hit, 't1');
  // No alert watches SOL: its signal is evaluated and kept, and no webhook goes out for it.
  const solOpenMs = signalOpenMs + 6 * 3_600_000;
  const sol = { ...signal, signal_id: `SOL-5m-${solOpenMs}-long`, symbol: 'SOL',
    bar_time: new Date(solOpenMs).toISOString() };
  pipeline.onOutbound([{ kind: 'entry_signal', symbol: 'SOL', tsMs: solOpenMs, data: sol }]);
  await eventually(() => pipeline.signalStore.get(sol.signal_id)?.outcome != null,
    { message: 'SOL outcome scheduled' });
  const items = [];
  for (let k = 0; k < 50; k++) {
    const openMs = solOpenMs + barMs * (k + 1);
    items.push({ kind: 'bar' as const, symbol: 'SOL', tsMs: openMs,
      data: { ...bar(openMs, 97.5, 100.5, 99), symbol: 'SOL' } });
  }
  pipeline.onOutbound(items);
  assert.is(await pipeline.evaluateOutcomes(), 1);
  const kept = pipeline.signalStore.get(sol.signal_id)!;
  assert.is(kept.outcomeDone, true);
  assert.is(kept.result?.first_level_hit, 'stop');
  await webhooks.tick();
  await webhooks.idle();
  assert.is(received.filter((r) => r.type === 'signal.outcome').length, 1, 'BTC only');
  assert.is(received.filter((r) => r.type === 'entry_signal.created').length, 1);
});

pipelineSuite('live backfill: nothing that closed before its pair went live is sent',
  async () => {
    const at = (openMs: number) => ({ kind: 'entry_signal' as const, symbol: 'BTC', tsMs: openMs,
      data: { ...signal, signal_id: `BTC-5m-${openMs}-long`,
        bar_time: new Date(openMs).toISOString() } });
    const sent = () => received.filter((r) => r.type === 'entry_signal.created').length;
    const before = sent();
    const nowMs = Math.floor(clock.nowMs() / barMs) * barMs;
    // Filling, then late: its bars (the held trades') come when its candles do.
    pipeline.onBackfill('BTC', 'filling');
    pipeline.onBackfill('BTC', 'late');
    pipeline.onOutbound([at(nowMs - 2 * barMs)]);
    clock.set(nowMs + 60_000);
    pipeline.onBackfill('BTC', 'filled');
    // Closed before it went live: the past; closing after: sent.
    pipeline.onOutbound([at(nowMs - barMs), at(nowMs + barMs)]);
    // A reconnect's refill does not move the boundary.
    pipeline.onBackfill('BTC', 'filling');
    pipeline.onBackfill('BTC', 'filled');
    await eventually(async () => {
      await webhooks.tick();
      return sent() === before + 1;
    }, { message: 'the live signal delivered' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await webhooks.tick();
    await webhooks.idle();
    const entries = received.filter((r) => r.type === 'entry_signal.created');
    assert.is(entries.length, before + 1);
    assert.is(entries[entries.length - 1].body.data.signal_id, `BTC-5m-${nowMs + barMs}-long`);
    // The past ones are still kept for the track record, their outcomes scheduled with no
    // entry event (evaluated when due; nothing is sent for them).
    for (const openMs of [nowMs - 2 * barMs, nowMs - barMs]) {
      const past = pipeline.signalStore.get(`BTC-5m-${openMs}-long`);
      assert.ok(past?.outcome, `the outcome of the bar at ${openMs} is scheduled`);
      assert.is(past!.outcome!.entryEventId, '');
    }
  });

pipelineSuite.run();
