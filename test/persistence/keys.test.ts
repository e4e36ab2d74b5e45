// API keys: key material, the key table's operations, and a server-side directory that sees
// changes made by the admin command line in another process.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { digestOf, generateApiKey, isApiKey, keyPrefixOf } from '../../persistence/keys.js';
import { parsePlan } from '../../core/plans.js';
import { openStore } from '../../persistence/store.js';
import { eventually, tempDir } from '../helpers/eventually.js';

const cliPath = fileURLToPath(new URL('../../bin/orderflow.js', import.meta.url));
const clock = new ManualClock(Date.parse('2026-06-01T08:00:00Z'));

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test('keys are ofk_ + 32 lower-case hex; prefix and SHA-256 digest', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 1_000; i++) {
    const key = generateApiKey();
    assert.ok(isApiKey(key), key);
    seen.add(key);
  }
  assert.is(seen.size, 1_000);
  assert.is(keyPrefixOf('ofk_0123456789abcdef0123456789abcdef'), 'ofk_01234567');
  assert.is(digestOf('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.not.ok(isApiKey('ofk_0123456789ABCDEF0123456789abcdef'));
  assert.not.ok(isApiKey('ofk_0123'));
});

test('plans parse in any case and print canonically', () => {
  assert.is(parsePlan('whale'), 'Whale');
  assert.is(parsePlan('API'), 'API');
  assert.is(parsePlan(' tRaDeR '), 'Trader');
  assert.is(parsePlan('gold'), undefined);
  assert.is(parsePlan(''), undefined);
});

test('create returns the key once; only its digest reaches the disk', async () => {
  const dataDir = await tempDir();
  const store = await openStore({ dataDir, clock, watchKeys: false });
  const { key, record } = await store.keys.create({
    plan: 'Whale', label: 'desk', subscriptionStartMs: Date.parse('2026-09-07T22:00:00Z'),
  });
  assert.is(record.prefix, keyPrefixOf(key));
  assert.is(record.digest, digestOf(key));
  assert.is(record.createdAtMs, clock.nowMs());
  assert.is(store.keys.byDigest(digestOf(key))?.prefix, record.prefix);
  assert.is(store.keys.byPrefix(record.prefix)?.plan, 'Whale');
  assert.is(store.keys.byDigest(digestOf(generateApiKey())), undefined);
  await store.close();
  const bytes = readFileSync(`${dataDir}/store/data.mdb`, 'latin1');
  assert.not.ok(bytes.includes(key.slice(4)), 'the key itself is not stored');
  assert.ok(bytes.includes(record.digest), 'the digest is');
});

test('revoke is durable and idempotent; set-plan moves live keys only', async () => {
  const dataDir = await tempDir();
  const store = await openStore({ dataDir, clock, watchKeys: false });
  const { record } = await store.keys.create({ plan: 'Pro' });
  const moved = await store.keys.setPlan(record.prefix, 'Trader');
  assert.ok(moved.ok && moved.changed && moved.record.plan === 'Trader');
  const same = await store.keys.setPlan(record.prefix, 'Trader');
  assert.ok(same.ok && !same.changed);
  clock.advance(1_000);
  const revoked = await store.keys.revoke(record.prefix);
  assert.ok(revoked.ok && revoked.changed && revoked.record.revokedAtMs === clock.nowMs());
  clock.advance(1_000);
  const again = await store.keys.revoke(record.prefix);
  assert.ok(again.ok && !again.changed && again.record.revokedAtMs === clock.nowMs() - 1_000);
  const refused = await store.keys.setPlan(record.prefix, 'Whale');
  assert.ok(!refused.ok && refused.error.code === 'key_revoked');
  const unknown = await store.keys.revoke('ofk_00000000');
  assert.ok(!unknown.ok && unknown.error.code === 'unknown_prefix');
  await store.close();
  const reopened = await openStore({ dataDir, clock, watchKeys: false });
  const [only] = reopened.keys.list();
  assert.is(only.plan, 'Trader');
  assert.is(only.revokedAtMs, clock.nowMs() - 1_000);
  await reopened.close();
});

test('list is oldest first; a bad plan is a programmer error', async () => {
  const store = await openStore({ dataDir: await tempDir(), clock, watchKeys: false });
  const a = await store.keys.create({ plan: 'Free' });
  clock.advance(5);
  const b = await store.keys.create({ plan: 'API', label: 'b' });
  assert.equal(store.keys.list().map((r) => r.prefix), [a.record.prefix, b.record.prefix]);
  assert.throws(() => store.keys.setPlan(a.record.prefix, 'Gold' as never), /plan/);
  let thrown: unknown = null;
  await store.keys.create({ plan: 'gold' as never }).catch((error) => (thrown = error));
  assert.instance(thrown, TypeError);
  await store.close();
});

test('a running directory sees CLI creates, revokes and re-plans without a restart',
  async () => {
    const dataDir = await tempDir();
    const server = await openStore({ dataDir, clock, keyPollMs: 100 });
    try {
      const created =
        await cli(['keys', 'create', '--plan', 'pro', '--json', '--data-dir', dataDir]);
      assert.is(created.code, 0, created.stderr);
      const { key, prefix } = JSON.parse(created.stdout) as { key: string; prefix: string };
      await eventually(() => server.keys.byDigest(digestOf(key)), { message: 'create seen' });
      assert.is((await cli(['keys', 'set-plan', prefix, 'WHALE', '--data-dir', dataDir])).code, 0);
      await eventually(() => server.keys.byPrefix(prefix)?.plan === 'Whale', { message: 'plan' });
      assert.is((await cli(['keys', 'revoke', prefix, '--data-dir', dataDir])).code, 0);
      await eventually(() => server.keys.byPrefix(prefix)?.revokedAtMs !== null,
        { message: 'revocation seen' });
    } finally {
      await server.close();
    }
  });

test('a key the CLI just created is accepted on its first request, before any poll', async () => {
  const dataDir = await tempDir();
  const server = await openStore({ dataDir, clock, watchKeys: false });
  try {
    const created = await cli(['keys', 'create', '--plan', 'pro', '--json', '--data-dir', dataDir]);
    assert.is(created.code, 0, created.stderr);
    const { key, prefix } = JSON.parse(created.stdout) as { key: string; prefix: string };
    assert.is(server.keys.byDigest(digestOf(key))?.prefix, prefix);
    assert.is(server.keys.byDigest(digestOf(`${key}x`)), undefined, 'an unknown key stays unknown');
  } finally {
    await server.close();
  }
});

test.run();
