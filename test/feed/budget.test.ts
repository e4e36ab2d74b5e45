// The process-wide venue budget: token buckets that refill on the clock, a subscription cap,
// and one state seen by every thread that attaches the same buffer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Worker } from 'node:worker_threads';
import { ManualClock } from '../../core/clock.js';
import { attachBudget, createSharedBudget, venueLimits } from '../../actors/feed/budget.js';

test('rest bucket: spends, refuses with a wait, refills with time', () => {
  const clock = new ManualClock(0);
  const budget = createSharedBudget(clock);
  assert.is(budget.take('rest', 1_200), 0);
  const waitMs = budget.take('rest', 20);
  assert.is(waitMs, 1_000);
  clock.advance(1_000);
  assert.is(budget.take('rest', 20), 0);
  assert.throws(() => budget.take('rest', 0), /cost/);
  assert.throws(() => budget.take('rest', 5_000), /exceeds/);
});

test('subscriptions are capped at the venue maximum and released', () => {
  const budget = createSharedBudget(new ManualClock(0));
  assert.ok(budget.reserveSubscriptions(venueLimits.wsSubscriptionsMax - 3));
  assert.not.ok(budget.reserveSubscriptions(4));
  assert.ok(budget.reserveSubscriptions(3));
  budget.releaseSubscriptions(10);
  assert.is(budget.subscriptions(), venueLimits.wsSubscriptionsMax - 10);
});

test('attach checks the buffer; a second view shares the state', () => {
  const clock = new ManualClock(0);
  const budget = createSharedBudget(clock);
  const other = attachBudget(budget.buffer, clock);
  other.take('ws', 500);
  assert.is(budget.available('ws'), 1_500);
  assert.throws(() => attachBudget(new SharedArrayBuffer(8), clock), /was 8/);
});

test('a worker thread spends from the same budget', async () => {
  const clock = new ManualClock(0);
  const budget = createSharedBudget(clock);
  // The worker writes the raw slots the way attachBudget does (no tsx loader needed there).
  const source = `const { workerData, parentPort } = require('node:worker_threads');
    const slots = new Float64Array(workerData, 8, 5); slots[0] -= 100; parentPort.postMessage(1);`;
  const worker = new Worker(source, { eval: true, workerData: budget.buffer });
  await new Promise((resolve) => worker.once('message', resolve));
  await worker.terminate();
  assert.is(budget.available('rest'), 1_100);
});

test.run();
