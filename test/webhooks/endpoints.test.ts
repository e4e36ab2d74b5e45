// The endpoint registry: plan gate and per-plan limits, duplicates, secrets shown once,
// byUrl, removal, and the supervisor picking up writes made by another registry (the CLI's).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createEndpointRegistry } from '../../actors/webhooks/endpoints.js';
import { SECRET_PATTERN } from '../../actors/webhooks/ids.js';
import { createWebhookSupervisor } from '../../actors/webhooks/supervisor.js';
import { systemLookup } from '../../actors/webhooks/url-check.js';
import { openOutbox } from '../../persistence/outbox.js';
import { openEndpointTables } from '../../persistence/webhooks.js';
import { eventually } from '../helpers/eventually.js';
import { fakeKeys, openTestRoot, startReceiver, T0 } from './fixtures.js';

const accounts = {
  ofk_00000001: 'Free', ofk_00000002: 'Trader', ofk_00000003: 'Pro', ofk_00000004: 'Whale',
  ofk_00000005: 'API',
} as const;

async function registry() {
  const db = await openTestRoot();
  const keys = fakeKeys(accounts);
  const reg = createEndpointRegistry({
    tables: openEndpointTables(db.root), outbox: openOutbox(db.root), keys,
    clock: new ManualClock(T0), allowPrivate: true, lookup: systemLookup,
  });
  return { db, keys, reg };
}

async function refused(promise: Promise<unknown>, code: string, message: RegExp) {
  await promise.then(() => assert.unreachable(`expected ${code}`), (error) => {
    assert.is(error.code, code);
    assert.match(error.message, message);
  });
}

test('plans below Pro are refused with a clear message; unknown and revoked keys too', async () => {
  const { db, keys, reg } = await registry();
  try {
    await refused(reg.add('ofk_00000001', 'http://127.0.0.1:1/a'), 'plan_required',
      /need the Pro plan or above \(plan was Free\)/);
    await refused(reg.add('ofk_00000002', 'http://127.0.0.1:1/a'), 'plan_required', /Trader/);
    await refused(reg.add('ofk_ffffffff', 'http://127.0.0.1:1/a'), 'unknown_account',
      /was "ofk_ffffffff"/);
    keys.records.set('ofk_00000003', { ...keys.records.get('ofk_00000003')!, revokedAtMs: 1 });
    await refused(reg.add('ofk_00000003', 'http://127.0.0.1:1/a'), 'unknown_account', /ofk_/);
    assert.is(reg.list().length, 0);
  } finally {
    await db.close();
  }
});

test('5 endpoints on Pro, 20 on Whale and API; duplicates refused', async () => {
  const { db, reg } = await registry();
  try {
    for (let i = 0; i < 5; i++) await reg.add('ofk_00000003', `http://127.0.0.1:1/p${i}`);
    await refused(reg.add('ofk_00000003', 'http://127.0.0.1:1/p5'), 'endpoint_limit',
      /Pro plan allows at most 5/);
    for (let i = 0; i < 20; i++) await reg.add('ofk_00000004', `http://127.0.0.1:1/w${i}`);
    await refused(reg.add('ofk_00000004', 'http://127.0.0.1:1/w20'), 'endpoint_limit', /20/);
    await reg.add('ofk_00000005', 'http://127.0.0.1:1/p0');
    await refused(reg.add('ofk_00000005', 'http://127.0.0.1:1/p0'), 'duplicate_endpoint',
      /must not already be registered/);
    assert.is(reg.list('ofk_00000003').length, 5);
    assert.is(reg.list().length, 26);
  } finally {
    await db.close();
  }
});

test('the secret is returned once; listings and byUrl never carry it', async () => {
  const { db, reg } = await registry();
  try {
    const { id, secret } = await reg.add('ofk_00000003', 'http://127.0.0.1:1/Hook?x=1');
    assert.match(secret, SECRET_PATTERN);
    const view = reg.get(id) as Record<string, unknown>;
    assert.is(view.secret, undefined);
    assert.is(view.previousSecret, undefined);
    assert.not.match(JSON.stringify(reg.list()), /whsec_/);
    assert.is(reg.byUrl('ofk_00000003', 'HTTP://127.0.0.1:1/Hook?x=1')?.id, id);
    assert.is(reg.byUrl('ofk_00000004', 'http://127.0.0.1:1/Hook?x=1'), undefined);
    const rotated = reg.rotate(id);
    assert.is.not(rotated.secret, secret);
    assert.throws(() => reg.rotate('we_0000000000000000'), /endpoint id must exist/);
    await reg.remove(id);
    assert.is(reg.get(id), undefined);
    await refused(reg.remove(id), 'not_found', /we_/);
  } finally {
    await db.close();
  }
});

test('the supervisor sees another registry\'s endpoint and test event within a second',
  async () => {
    const db = await openTestRoot();
    const rx = await startReceiver();
    const keys = fakeKeys(accounts);
    const sup = createWebhookSupervisor({
      root: db.root, clock: new ManualClock(T0), logger: silentLogger, keys, allowPrivate: true,
    });
    sup.start();
    try {
      // The admin command line writes through its own registry on the same store.
      const cli = createEndpointRegistry({
        tables: openEndpointTables(db.root), outbox: openOutbox(db.root), keys,
        clock: new ManualClock(T0), allowPrivate: true, lookup: systemLookup,
      });
      const { id } = await cli.add('ofk_00000004', rx.url);
      await eventually(() => sup.endpoints.byUrl('ofk_00000004', rx.url)?.id === id,
        { timeoutMs: 5_000 });
      const { command } = await import('./cli-harness.js').then((m) => m.cliOn(db.root, keys));
      const out: string[] = [];
      const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t),
        env: {} };
      assert.is(await command.run(['test', id], io), 0);
      await eventually(() => rx.received.length === 1, { timeoutMs: 5_000 });
      assert.is(rx.received[0].headers['x-service-event'], 'test');
      await eventually(() => sup.deliveries(id)[0]?.status === 'delivered');
      // The commit is visible to readers a moment before the supervisor's own bookkeeping.
      await eventually(() => sup.stats().pending === 0);
    } finally {
      await sup.stop();
      await rx.close();
      await db.close();
    }
  });

test('a lookup by URL right after another registry\'s write finds it, before any tick',
  async () => {
    const db = await openTestRoot();
    const keys = fakeKeys(accounts);
    // Not started: no tick refreshes its cache, as when the event loop was busy meanwhile.
    const sup = createWebhookSupervisor({
      root: db.root, clock: new ManualClock(T0), logger: silentLogger, keys, allowPrivate: true,
    });
    try {
      const cli = createEndpointRegistry({
        tables: openEndpointTables(db.root), outbox: openOutbox(db.root), keys,
        clock: new ManualClock(T0), allowPrivate: true, lookup: systemLookup,
      });
      assert.is(sup.endpoints.byUrl('ofk_00000004', 'http://127.0.0.1:9/hook'), undefined);
      const { id } = await cli.add('ofk_00000004', 'http://127.0.0.1:9/hook');
      assert.is(sup.endpoints.byUrl('ofk_00000004', 'http://127.0.0.1:9/hook')?.id, id);
    } finally {
      await sup.stop();
      await db.close();
    }
  });

test.run();
