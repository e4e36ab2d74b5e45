// The retry schedule on a travelling clock: every attempt at its time and not before, the
// dead letter after the eighth, replay by id, the rotation window and the 5-day disable.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../helpers/eventually.js';
import { RETRY_DELAYS_MS } from '../../actors/webhooks/schedule.js';
import { matchingEntries, startHarness, T0 } from './fixtures.js';

test('eight attempts at their scheduled times, then a dead letter, then replay', async () => {
  let status = 500;
  const h = await startHarness({ reply: () => ({ status }) });
  try {
    const eventId = await h.publish();
    let dueMs = T0;
    for (const delayMs of RETRY_DELAYS_MS) {
      const before = h.rx.received.length;
      await h.travel(delayMs - 1);
      assert.is(h.rx.received.length, before, 'no attempt before its time');
      assert.is(h.sup.stats().inFlight, 0);
      await h.travel(1);
      dueMs += delayMs;
      assert.is(h.rx.received.length, before + 1);
      const r = h.rx.received[before];
      assert.is(r.headers['x-service-attempt'], String(before + 1));
      assert.is(r.headers['x-service-timestamp'], String(dueMs / 1000));
      assert.is(r.headers['x-service-event-id'], eventId);
    }
    assert.is(h.rx.received.length, 8);
    assert.is(dueMs - T0, 99_305_000, 'about 27.5 h after the first attempt');
    const [dead] = h.sup.deliveries(h.endpointId);
    assert.equal([dead.status, dead.deadReason, dead.attempts, dead.history.length],
      ['dead', 'attempts_exhausted', 8, 8]);
    await h.travel(100_000_000);
    assert.is(h.rx.received.length, 8, 'a dead letter is not retried');

    status = 200;
    const replayed = await h.sup.replay(eventId);
    assert.is(replayed.deliveries, 1);
    await h.sup.idle();
    assert.is(h.rx.received.length, 9);
    assert.is(h.rx.received[8].body, h.rx.received[0].body, 'same event, same body');
    assert.is(h.rx.received[8].headers['x-service-attempt'], '1', 'a replay starts a new round');
    const [done] = h.sup.deliveries(h.endpointId);
    assert.equal([done.status, done.replays], ['delivered', 1]);
    await h.sup.replay('evt_000000000000000000000000').then(
      () => assert.unreachable('unknown event id'),
      (error) => assert.is(error.code, 'not_found'));
  } finally {
    await h.close();
  }
});

test('jitter delays an attempt by at most 10 %', async () => {
  const h = await startHarness({
    reply: () => ({ status: 500 }), overrides: { random: () => 0.5 },
  });
  try {
    await h.publish();
    assert.is(h.sup.deliveries(h.endpointId)[0].nextAttemptAtMs, T0 + 5_250);
    await h.travel(5_249);
    assert.is(h.rx.received.length, 1);
    await h.travel(1);
    assert.is(h.rx.received.length, 2);
  } finally {
    await h.close();
  }
});

test('rotation signs with both secrets for 24 h, then with the new one only', async () => {
  const h = await startHarness();
  try {
    const rotated = h.sup.endpoints.rotate(h.endpointId);
    assert.is.not(rotated.secret, h.secret);
    assert.is(rotated.previousSecretExpiresAtMs, T0 + 86_400_000);
    await h.publish();
    const during = h.rx.received[0];
    const entries = String(during.headers['x-service-signature']).split(',');
    assert.is(entries.length, 2);
    assert.is(await matchingEntries({ ...during, headers: { ...during.headers,
      'x-service-signature': entries[0] } }, [rotated.secret]), 1, 'new secret first');
    assert.is(await matchingEntries(during, [h.secret]), 1, 'old secret still verifies');
    await h.travel(86_400_000 - 1);
    await h.publish();
    assert.is(String(h.rx.received[1].headers['x-service-signature']).split(',').length, 2);
    await h.travel(1);
    await h.publish();
    const after = h.rx.received[2];
    assert.is(String(after.headers['x-service-signature']).split(',').length, 1);
    assert.is(await matchingEntries(after, [rotated.secret]), 1);
    assert.is(await matchingEntries(after, [h.secret]), 0, 'the old secret no longer signs');
  } finally {
    await h.close();
  }
});

test('an endpoint failing every attempt for 5 days is disabled; a success resets it', async () => {
  let status = 500;
  const h = await startHarness({ reply: () => ({ status }) });
  try {
    const dayMs = 86_400_000;
    await h.publish();
    await h.travel(3 * dayMs);
    status = 200;
    await h.publish();
    assert.is(h.sup.endpoints.get(h.endpointId)?.failingSinceMs, null);
    status = 500;
    await h.publish(); // failing since day 3
    for (let day = 1; day <= 4; day++) {
      await h.travel(dayMs);
      await h.publish();
      assert.is(h.sup.endpoints.get(h.endpointId)?.disabledAtMs, null, `day ${day}`);
    }
    await h.travel(dayMs);
    await h.publish();
    const view = h.sup.endpoints.get(h.endpointId);
    assert.equal([view?.disabledReason, view?.disabledAtMs], ['failing', T0 + 8 * dayMs]);
    // Dead-lettering the pending deliveries is recorded after the disabling attempt settles.
    await eventually(async () => {
      await h.sup.tick();
      await h.sup.idle();
      return h.sup.stats().pending === 0;
    // 15 s: each pass commits to lmdb (fsync), which a busy CI disk can stall for seconds.
    }, { timeoutMs: 15_000, message: 'its pending deliveries are dead-lettered' });
    assert.ok(h.sup.deliveries(h.endpointId).every((d) => d.status !== 'pending'));
    h.sup.endpoints.enable(h.endpointId);
    status = 200;
    await h.publish();
    assert.is(h.sup.deliveries(h.endpointId)[0].status, 'delivered');
  } finally {
    await h.close();
  }
});

test.run();
