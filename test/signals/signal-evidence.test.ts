// Evidence grades through the signal pipeline with its real parts (lmdb store, webhook
// supervisor, a loopback receiver): a signal whose setup has 40 good outcomes before its bar
// earns a letter from them, the stored signal and its webhook carry the same letter with
// grade_basis and grade_evidence, a minimum-grade alert matches the earned letter, an outcome
// evaluated live joins the evidence, and all of it holds across a restart.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { Bar } from '../../core/messages.js';
import { SignalPipeline } from '../../actors/runtime/signal-pipeline.js';
import type { AlertRecord } from '../../actors/signals/alerts.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { createWebhookSupervisor, type WebhookSupervisor } from
  '../../actors/webhooks/supervisor.js';
import { openAlertStore, newAlertId } from '../../persistence/alerts.js';
import { openSignalStore } from '../../persistence/signals.js';
import { openStore, type Store } from '../../persistence/store.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { startReceiver, type Receiver } from '../webhooks/fixtures.js';
import {
  HOUR, longSignal, outcomeOf, seededResults, T0,
} from './evidence-fixtures.js';

const evidenceSuite = suite('evidence grades in the pipeline');
const barMs = 300_000;
const clock = new ManualClock(T0 + 30 * 24 * HOUR);
/** The graded signal's bar opens two days after the seeded history starts. */
const subjectOpenMs = T0 + 48 * HOUR;
/** Rule grade D: a minimum-grade-A alert would not match it on the rules. */
const subject = eth(subjectOpenMs, 'D');
let dataDir: string;
let store: Store;
let webhooks: WebhookSupervisor;
let pipeline: SignalPipeline;
let receiver: Receiver;

function eth(openMs: number, grade: EntrySignal['grade'] = 'C'): EntrySignal {
  return longSignal(openMs, { symbol: 'ETH', signal_id: `ETH-5m-${openMs}-long`, grade });
}

async function start(): Promise<void> {
  store = await openStore({ dataDir, clock });
  webhooks = createWebhookSupervisor({ root: store.root, clock, logger: silentLogger,
    keys: store.keys, allowPrivate: true, random: () => 0 });
  webhooks.start();
  pipeline = new SignalPipeline({ root: store.root, webhooks, keys: store.keys, clock,
    logger: silentLogger, chartBaseUrl: 'https://charts.example/c',
    fundingAnnualizedPct: () => null });
}

async function stop(): Promise<void> {
  await webhooks.stop();
  await pipeline.close();
  await store.close();
}

const stored = (id: string) => pipeline.signalStore.get(id)?.signal;
const gradeFields = (s: EntrySignal | undefined) => s && { grade: s.grade,
  grade_rules: s.grade_rules, grade_basis: s.grade_basis, grade_evidence: s.grade_evidence };

/** The entry_signal.created deliveries' data, in order. */
const entries = (): EntrySignal[] => receiver.received
  .filter((r) => r.headers['x-service-event'] === 'entry_signal.created')
  .map((r) => JSON.parse(r.body).data);

function sendSignal(signal: EntrySignal): void {
  pipeline.onOutbound([{ kind: 'entry_signal', symbol: signal.symbol,
    tsMs: Date.parse(signal.bar_time), data: { ...signal } }]);
}

evidenceSuite.before(async () => {
  receiver = await startReceiver();
  const url = receiver.url;
  dataDir = await tempDir();
  store = await openStore({ dataDir, clock });
  // 40 outcomes of the subject's setup (+0.9 R on average) evaluated before its bar, written
  // to the store as an earlier process would have: the pipeline reads them at start.
  const signals = openSignalStore<EntrySignal>(store.root);
  const results = seededResults(40, 17, 0.9);
  for (let i = 0; i < results.length; i++) {
    const past = eth(T0 + i * barMs);
    const outcome = outcomeOf(past, results[i], T0 + i * barMs + barMs + 4 * HOUR);
    assert.ok(await signals.claim(past, clock.nowMs()));
    assert.ok(await signals.scheduleOutcome(past.signal_id, '', 0, 0));
    await signals.completeOutcome(past.signal_id, outcome as unknown as Record<string, unknown>);
  }
  const { record } = await store.keys.create({ plan: 'Pro', label: null,
    subscriptionStartMs: null });
  const alert: AlertRecord = { id: newAlertId(), keyPrefix: record.prefix, webhookUrl: url,
    cooldownMs: 0, createdAtMs: clock.nowMs(), kind: 'entry_signal', symbols: ['ETH'],
    timeframes: ['5m'], minGrade: 'A' };
  assert.ok((await openAlertStore<AlertRecord>(store.root).add(alert)).ok);
  await store.close();
  await start();
  await webhooks.endpoints.add(record.prefix, url);
});

evidenceSuite.after(async () => {
  await stop();
  await receiver?.close();
});

evidenceSuite('the stored signal and its webhook carry the earned letter', async () => {
  sendSignal(subject);
  await eventually(async () => {
    await webhooks.tick();
    return entries().length > 0;
  }, { message: 'the evidence-graded signal matched the minimum-grade-A alert' });
  const graded = stored(subject.signal_id)!;
  assert.is(graded.grade_basis, 'evidence');
  assert.is(graded.grade_rules, 'D');
  assert.is(graded.grade_evidence!.n, 40);
  assert.ok(graded.grade === 'A+' || graded.grade === 'A', graded.grade);
  const sent = entries()[0];
  assert.equal(gradeFields(sent), gradeFields(graded));
});

evidenceSuite('an outcome evaluated live joins the evidence of later signals', async () => {
  const items = [];
  for (let k = 1; k <= 50; k++) {
    const openMs = subjectOpenMs + k * barMs;
    const bar: Bar = { symbol: 'ETH', timeframe: '5m', openMs, open: 100, high: 100.5,
      low: 99.5, close: 100, volume: 1, buyNotional: 1, sellNotional: 1, cvdClose: 0, trades: 1 };
    items.push({ kind: 'bar' as const, symbol: 'ETH', tsMs: openMs, data: { ...bar } });
  }
  pipeline.onOutbound(items);
  assert.is(await pipeline.evaluateOutcomes(), 1);
  // Its signal.outcome carries the stored (earned) letter, not the rule grade.
  await eventually(async () => {
    await webhooks.tick();
    return receiver.received.some((r) => r.headers['x-service-event'] === 'signal.outcome');
  }, { message: 'outcome delivered' });
  const outcome = JSON.parse(receiver.received.find((r) =>
    r.headers['x-service-event'] === 'signal.outcome')!.body).data;
  assert.is(outcome.grade, stored(subject.signal_id)!.grade);
  const laterMs = subjectOpenMs + 6 * HOUR;
  sendSignal(eth(laterMs));
  await eventually(() => stored(`ETH-5m-${laterMs}-long`) !== undefined,
    { message: 'later signal stored' });
  assert.is(stored(`ETH-5m-${laterMs}-long`)!.grade_evidence!.n, 41);
});

evidenceSuite('after a restart: the stored grades stand and the evidence is the same',
  async () => {
    const laterMs = subjectOpenMs + 6 * HOUR;
    const before = [subject.signal_id, `ETH-5m-${laterMs}-long`].map((id) =>
      gradeFields(stored(id)));
    await stop();
    await start();
    const after = [subject.signal_id, `ETH-5m-${laterMs}-long`].map((id) =>
      gradeFields(stored(id)));
    assert.equal(after, before);
    // Seen again (a replay after the restart): claimed once, so nothing changes.
    sendSignal({ ...subject, grade: 'C' });
    // A signal at the same bar time in another symbol sees the same evidence as before.
    const twin = { ...eth(laterMs), symbol: 'SOL', signal_id: `SOL-5m-${laterMs}-long` };
    sendSignal(twin);
    await eventually(() => stored(twin.signal_id) !== undefined, { message: 'twin stored' });
    assert.equal(stored(twin.signal_id)!.grade_evidence, before[1]!.grade_evidence);
    assert.equal(gradeFields(stored(subject.signal_id)), before[0]);
    await webhooks.tick();
    await webhooks.idle();
    // The subject went out once, before the restart (the later ETH signal earned its own).
    assert.is(entries().filter((s) => s.signal_id === subject.signal_id).length, 1);
  });

evidenceSuite.run();
