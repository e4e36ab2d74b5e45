// Bounded concurrency (per endpoint and overall) where one slow endpoint never delays another,
// the bounded outbox with its explicit refusal, idempotent event ids and the plan gate at publish.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdForSignal } from '../../actors/webhooks/supervisor.js';
import { eventually } from '../helpers/eventually.js';
import { startHarness, startReceiver } from './fixtures.js';

test('a slow endpoint holds only its own slots; a fast one is served meanwhile', async () => {
  const h = await startHarness({ reply: () => 'hang', overrides: { attemptTimeoutMs: 30_000 } });
  const fast = await startReceiver();
  try {
    const other = await h.sup.endpoints.add('ofk_aaaaaaaa', fast.url);
    for (let i = 0; i < 6; i++) await h.sup.publish('test', { i }, [h.endpointId]);
    await eventually(() => h.rx.received.length === 4);
    assert.is(h.sup.stats().inFlight, 4, 'per-endpoint bound');
    for (let i = 0; i < 5; i++) await h.sup.publish('test', { i }, [other.id]);
    await eventually(() => fast.received.length === 5);
    await eventually(() => h.sup.deliveries(other.id).every((d) => d.status === 'delivered'));
    assert.is(h.rx.received.length, 4, 'the slow endpoint still has only its 4 attempts');
  } finally {
    await h.close();
    await fast.close();
  }
});

test('the overall in-flight bound holds across endpoints', async () => {
  const h = await startHarness({
    reply: () => 'hang',
    overrides: { inFlightMax: 5, inFlightPerEndpointMax: 4, attemptTimeoutMs: 30_000 },
  });
  const second = await startReceiver(() => 'hang');
  try {
    const other = await h.sup.endpoints.add('ofk_aaaaaaaa', second.url);
    for (let i = 0; i < 4; i++) await h.sup.publish('test', { i }, [h.endpointId, other.id]);
    await eventually(() => h.rx.received.length + second.received.length === 5);
    assert.is(h.sup.stats().inFlight, 5);
    assert.ok(h.rx.received.length <= 4 && second.received.length <= 4);
  } finally {
    await h.close();
    await second.close();
  }
});

test('stop() abandons hanging attempts without recording them', async () => {
  const h = await startHarness({ reply: () => 'hang', overrides: { stopGraceMs: 50 } });
  try {
    await h.sup.publish('test', {}, [h.endpointId]);
    await eventually(() => h.rx.received.length === 1);
    await h.sup.stop();
    const [d] = h.sup.deliveries(h.endpointId);
    assert.equal([d.status, d.attempts], ['pending', 0], 'repeated as attempt 1 after restart');
    assert.is(h.sup.stats().state, 'stopped');
    await h.sup.publish('test', {}, [h.endpointId]).then(
      () => assert.unreachable('publish after stop'), (e) => assert.match(e.message, /after stop/));
  } finally {
    await h.close();
  }
});

test('a full outbox refuses new events explicitly and writes nothing', async () => {
  const h = await startHarness({ reply: () => ({ status: 500 }), overrides: { outboxMax: 3 } });
  try {
    for (let i = 0; i < 3; i++) await h.publish({ i });
    assert.is(h.sup.stats().pending, 3);
    await h.sup.publish('test', { i: 3 }, [h.endpointId]).then(
      () => assert.unreachable('expected outbox_full'),
      (error) => {
        assert.is(error.code, 'outbox_full');
        assert.match(error.message, /3 deliveries pending, limit 3; event refused/);
      });
    assert.is(h.sup.deliveries(h.endpointId).length, 3);
  } finally {
    await h.close();
  }
});

test('publishing an event id again is a no-op: one delivery, one id', async () => {
  const h = await startHarness();
  try {
    const eventId = eventIdForSignal('BTC-15m-1790000000000-long');
    const a = await h.sup.publish('entry_signal.created', { signal_id: 'x' }, [h.endpointId],
      { eventId });
    const b = await h.sup.publish('entry_signal.created', { signal_id: 'x' }, [h.endpointId],
      { eventId });
    await h.sup.idle();
    assert.equal([a.eventId, b.eventId], [eventId, eventId]);
    assert.is(h.rx.received.length, 1);
    assert.is(h.sup.deliveries(h.endpointId).length, 1);
    await h.sup.publish('test', {}, [h.endpointId], { eventId: 'evt_bad' }).then(
      () => assert.unreachable('malformed id'), (e) => assert.match(e.message, /evt_ \+ 24 hex/));
  } finally {
    await h.close();
  }
});

test('endpoints of accounts below Pro, revoked or unknown receive nothing', async () => {
  const h = await startHarness();
  try {
    const record = h.keys.records.get('ofk_aaaaaaaa')!;
    h.keys.records.set('ofk_aaaaaaaa', { ...record, plan: 'Trader' });
    await h.publish();
    await h.sup.publish('test', {}, ['we_0000000000000000']);
    await h.sup.idle();
    assert.is(h.rx.received.length, 0);
    h.keys.records.set('ofk_aaaaaaaa', record);
    await h.publish();
    assert.is(h.rx.received.length, 1);
  } finally {
    await h.close();
  }
});

test.run();
