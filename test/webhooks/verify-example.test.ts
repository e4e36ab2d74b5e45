// The receiver example of the docs, checked against real signed deliveries: good, tampered,
// stale, duplicate, and both entries of a rotated signature.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SeenEvents, verifyDelivery } from '../../examples/verify-webhook.js';
import { startHarness, T0 } from './fixtures.js';

const nowSec = T0 / 1000;

test('a real delivery verifies; tampering, staleness and wrong secrets do not', async () => {
  const h = await startHarness();
  try {
    await h.publish({ a: 1 });
    const r = h.rx.received[0];
    const seen = new SeenEvents();
    const good = verifyDelivery([h.secret], r.headers, r.body, seen, nowSec);
    assert.equal(good, { ok: true, eventId: r.headers['x-service-event-id'], duplicate: false });
    assert.equal(verifyDelivery([h.secret], r.headers, r.body.replace('1', '2'), seen, nowSec),
      { ok: false, reason: 'bad_signature' });
    assert.equal(verifyDelivery(['whsec_other'], r.headers, r.body, seen, nowSec),
      { ok: false, reason: 'bad_signature' });
    assert.is(verifyDelivery([h.secret], r.headers, r.body, seen, nowSec + 300).ok, true);
    assert.equal(verifyDelivery([h.secret], r.headers, r.body, seen, nowSec + 301),
      { ok: false, reason: 'stale_timestamp' });
    assert.equal(verifyDelivery([h.secret], r.headers, r.body, seen, nowSec - 301),
      { ok: false, reason: 'stale_timestamp' });
    const { 'x-service-signature': _s, ...unsigned } = r.headers;
    assert.equal(verifyDelivery([h.secret], unsigned, r.body, seen, nowSec),
      { ok: false, reason: 'missing_header' });
    seen.add(String(r.headers['x-service-event-id']));
    const again = verifyDelivery([h.secret], r.headers, r.body, seen, nowSec);
    assert.ok(again.ok && again.duplicate);
  } finally {
    await h.close();
  }
});

test('header names match in any case, as HTTP defines them', async () => {
  const h = await startHarness();
  try {
    await h.publish({ a: 1 });
    const r = h.rx.received[0];
    const titled = Object.fromEntries(Object.entries(r.headers).map(([k, v]) =>
      [k.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('-'), v]));
    assert.ok('X-Service-Signature' in titled);
    assert.equal(verifyDelivery([h.secret], titled, r.body, new SeenEvents(), nowSec),
      { ok: true, eventId: r.headers['x-service-event-id'], duplicate: false });
  } finally {
    await h.close();
  }
});

test('after a rotation, a receiver holding either secret accepts the delivery', async () => {
  const h = await startHarness();
  try {
    const { secret: fresh } = h.sup.endpoints.rotate(h.endpointId);
    await h.publish();
    const r = h.rx.received[0];
    assert.ok(verifyDelivery([h.secret], r.headers, r.body, new SeenEvents(), nowSec).ok);
    assert.ok(verifyDelivery([fresh], r.headers, r.body, new SeenEvents(), nowSec).ok);
    assert.not.ok(verifyDelivery(['whsec_x'], r.headers, r.body, new SeenEvents(), nowSec).ok);
  } finally {
    await h.close();
  }
});

test('the seen-id memory is bounded, oldest forgotten first', () => {
  const seen = new SeenEvents(2);
  seen.add('a');
  seen.add('b');
  seen.add('c');
  assert.equal([seen.has('a'), seen.has('b'), seen.has('c')], [false, true, true]);
});

test.run();
