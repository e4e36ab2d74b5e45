// Deliveries to real HTTP receivers on loopback: the request exactly as the spec describes it,
// checked by an independent signature implementation, and every failure class.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { signPayload } from '../../actors/webhooks/sign.js';
import { closedPort, matchingEntries, startHarness, T0 } from './fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('a delivery carries the envelope, the headers and a verifiable signature', async () => {
  const h = await startHarness();
  try {
    const eventId = await h.publish({ symbol: 'BTC', price: 1.5 });
    assert.is(h.rx.received.length, 1);
    const r = h.rx.received[0];
    assert.equal(JSON.parse(r.body), {
      id: eventId, type: 'test', version: '1', created_at: '2026-10-01T00:00:00.000Z',
      data: { symbol: 'BTC', price: 1.5 },
    });
    assert.is(r.headers['content-type'], 'application/json');
    assert.is(r.headers['x-service-event'], 'test');
    assert.is(r.headers['x-service-event-id'], eventId);
    assert.match(String(r.headers['x-service-delivery']), UUID);
    assert.is(r.headers['x-service-attempt'], '1');
    assert.is(r.headers['x-service-timestamp'], String(T0 / 1000));
    assert.match(String(r.headers['x-service-signature']), /^v1=[0-9a-f]{64}$/);
    assert.is(await matchingEntries(r, [h.secret]), 1);
    assert.is(await matchingEntries(r, ['whsec_wrong']), 0);
    const [d] = h.sup.deliveries(h.endpointId);
    assert.equal([d.status, d.attempts, d.lastResult], ['delivered', 1, 'status 200']);
    assert.is(h.sup.stats().pending, 0);
  } finally {
    await h.close();
  }
});

test('a retry keeps id and body, with a fresh timestamp, signature and delivery id', async () => {
  const h = await startHarness({ reply: (n) => ({ status: n === 0 ? 500 : 200 }) });
  try {
    await h.publish();
    await h.travel(5_000);
    const [a, b] = h.rx.received;
    assert.is(a.body, b.body);
    assert.is(a.headers['x-service-event-id'], b.headers['x-service-event-id']);
    assert.equal([a.headers['x-service-attempt'], b.headers['x-service-attempt']], ['1', '2']);
    assert.is(b.headers['x-service-timestamp'], String((T0 + 5_000) / 1000));
    assert.is.not(a.headers['x-service-signature'], b.headers['x-service-signature']);
    assert.is.not(a.headers['x-service-delivery'], b.headers['x-service-delivery']);
    assert.is(b.headers['x-service-signature'],
      'v1=' + signPayload(h.secret, (T0 + 5_000) / 1000, b.body));
  } finally {
    await h.close();
  }
});

async function failureClass(
  reply: Parameters<typeof startHarness>[0], expected: string,
): Promise<void> {
  const h = await startHarness(reply);
  try {
    await h.publish();
    const [d] = h.sup.deliveries(h.endpointId);
    assert.equal([d.status, d.attempts, d.lastResult, d.nextAttemptAtMs],
      ['pending', 1, expected, T0 + 5_000], expected);
    assert.is(h.sup.stats().pending, 1);
    assert.is(h.sup.endpoints.get(h.endpointId)?.failingSinceMs, T0);
  } finally {
    await h.close();
  }
}

test('500 is a failure, retried on the schedule', async () => {
  await failureClass({ reply: () => ({ status: 500 }) }, 'status 500');
});

test('a 3xx is a failure and is not followed', async () => {
  const h = await startHarness({
    reply: (n) => (n === 0
      ? { status: 302, headers: { Location: '/elsewhere' } } : { status: 200 }),
  });
  try {
    await h.publish();
    assert.is(h.rx.received.length, 1);
    assert.is(h.sup.deliveries(h.endpointId)[0].lastResult, 'status 302');
  } finally {
    await h.close();
  }
  await failureClass({ reply: () => ({ status: 304 }) }, 'status 304');
});

test('no answer within the time limit is a timeout', async () => {
  await failureClass({ reply: () => 'hang', overrides: { attemptTimeoutMs: 200 } }, 'timeout');
});

test('connection refused is a failure', async () => {
  const port = await closedPort();
  const h = await startHarness();
  try {
    const other = await h.sup.endpoints.add('ofk_aaaaaaaa', `http://127.0.0.1:${port}/x`);
    await h.sup.publish('test', {}, [other.id]);
    await h.sup.idle();
    const [d] = h.sup.deliveries(other.id);
    assert.equal([d.status, d.lastResult], ['pending', 'connection_refused']);
  } finally {
    await h.close();
  }
});

test('410 disables the endpoint at once and dead-letters its pending deliveries', async () => {
  const h = await startHarness({ reply: (n) => ({ status: n === 0 ? 500 : 410 }) });
  try {
    await h.publish({ n: 1 });
    await h.travel(5_000); // event 1 attempt 2: 410
    const view = h.sup.endpoints.get(h.endpointId);
    assert.equal([view?.disabledReason, view?.disabledAtMs], ['gone', T0 + 5_000]);
    const [d] = h.sup.deliveries(h.endpointId);
    assert.equal([d.status, d.deadReason], ['dead', 'gone']);
    await h.sup.publish('test', {}, [h.endpointId]);
    await h.travel(10_000_000);
    assert.is(h.rx.received.length, 2, 'nothing is sent to a disabled endpoint');
    assert.is(h.sup.stats().pending, 0);
  } finally {
    await h.close();
  }
});

test('429 with Retry-After later than the schedule is honoured', async () => {
  const h = await startHarness({
    reply: (n) => (n === 0 ? { status: 429, headers: { 'Retry-After': '3600' } } : { status: 200 }),
  });
  try {
    await h.publish();
    assert.is(h.sup.deliveries(h.endpointId)[0].nextAttemptAtMs, T0 + 3_600_000);
    await h.travel(5_000);
    await h.travel(3_000_000);
    assert.is(h.rx.received.length, 1, 'not before Retry-After');
    await h.travel(600_000);
    assert.is(h.rx.received.length, 2);
    assert.is(h.rx.received[1].headers['x-service-attempt'], '2');
    assert.is(h.sup.deliveries(h.endpointId)[0].status, 'delivered');
    assert.is(h.sup.endpoints.get(h.endpointId)?.failingSinceMs, null, 'healthy again');
  } finally {
    await h.close();
  }
});

test('503 with a short Retry-After keeps the schedule', async () => {
  const h = await startHarness({
    reply: () => ({ status: 503, headers: { 'Retry-After': '1' } }),
  });
  try {
    await h.publish();
    assert.is(h.sup.deliveries(h.endpointId)[0].nextAttemptAtMs, T0 + 5_000);
  } finally {
    await h.close();
  }
});

test.run();
