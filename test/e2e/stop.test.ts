// The stop of `orderflow serve` (docs/operations.md, "Stopping"), on the real process and a real
// store: a stop that cannot finish (a test hook hangs a shard's stop, or the main thread after
// its first step) ends with its documented exit, and every write the service acknowledged before
// the signal (a key, usage, an outbox event, an alert) is there after a restart; a second signal
// during a stop ends it at once, and the store opens cleanly afterwards.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, tempDir } from '../helpers/eventually.js';
import { binPath, startServeProcess, type ServiceProcess } from '../helpers/service-process.js';

/** `orderflow serve`'s exit code for a stop cut short (bin/stop-deadline.ts). */
const CUT_SHORT = 3;
const EMAIL = 'stop@example.com';
const PASSWORD = 'stop test passphrase';
const running = new Set<ServiceProcess>();

async function serve(dataDir: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const service = await startServeProcess(['--data-dir', dataDir, '--shards', '2'],
    { ORDERFLOW_LOG_LEVEL: 'info', ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS: '1', ...env });
  running.add(service);
  void service.exited.then(() => running.delete(service));
  return service;
}

/** A signed-in dashboard session: its cookie and CSRF token, for the account API. */
interface Session {
  readonly base: string;
  readonly cookie: string;
  readonly csrf: string;
}

async function signIn(base: string): Promise<Session> {
  const answer = await fetch(`${base}/api/v1/account/session`, {
    method: 'POST', headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  const body = await answer.json() as { csrfToken: string };
  assert.is(answer.status, 200, JSON.stringify(body));
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0];
  return { base, cookie, csrf: body.csrfToken };
}

async function account(s: Session, method: string, path: string, body?: unknown):
  Promise<any> {
  const answer = await fetch(`${s.base}/api/v1/account/${path}`, {
    method, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, origin: s.base,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await answer.json();
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(json)}`);
  return json;
}

interface Acknowledged {
  readonly prefix: string;
  readonly used: number;
  readonly endpointId: string;
  readonly eventId: string;
  readonly alertId: string;
}

/** Writes through the service and waits for each answer: what it acknowledged. */
async function acknowledge(base: string): Promise<Acknowledged> {
  const s = await signIn(base);
  const created = await account(s, 'POST', 'keys', { plan: 'Pro', label: 'before the stop' });
  const endpoint = await account(s, 'POST', 'endpoints',
    { keyPrefix: created.prefix, url: 'https://127.0.0.1:9/hook' });
  const event = await account(s, 'POST', `endpoints/${endpoint.id}/test`);
  const alert = await account(s, 'POST', 'alerts', { endpointId: endpoint.id, kind: 'price',
    symbol: 'BTC', level: '1', direction: 'below' });
  // Usage is kept behind and written every 250 ms: these are answered just before the signal.
  const used = 7;
  for (let i = 0; i < used; i++) {
    const answer = await fetch(`${base}/api/v1/screener`,
      { headers: { authorization: `Bearer ${created.key}` } });
    await answer.arrayBuffer();
    assert.is(answer.status, 200);
  }
  return { prefix: created.prefix, used, endpointId: endpoint.id, eventId: event.eventId,
    alertId: alert.id };
}

/** After a restart: every acknowledged write is there. */
async function assertKept(base: string, before: Acknowledged, when: string): Promise<void> {
  const s = await signIn(base);
  const { keys } = await account(s, 'GET', 'usage');
  const key = keys.find((k: { prefix: string }) => k.prefix === before.prefix);
  assert.ok(key, `${when}: the key is kept`);
  const used = key.days.reduce((sum: number, d: { used: number }) => sum + d.used, 0);
  assert.ok(used >= before.used, `${when}: usage ${used} of ${before.used} kept`);
  const { deliveries } = await account(s, 'GET', `endpoints/${before.endpointId}/deliveries`);
  assert.ok(deliveries.some((d: { eventId: string }) => d.eventId === before.eventId),
    `${when}: the outbox event is kept: ${JSON.stringify(deliveries)}`);
  const { alerts } = await account(s, 'GET', 'alerts');
  assert.ok(alerts.some((a: { id: string }) => a.id === before.alertId), `${when}: alert kept`);
}

function createAccount(dataDir: string): void {
  const created = spawnSync(process.execPath, [binPath, 'users', 'create', '--email', EMAIL,
    '--plan', 'Pro', '--data-dir', dataDir], { encoding: 'utf8', input: `${PASSWORD}\n` });
  assert.is(created.status, 0, created.stderr);
}

const log = (service: ServiceProcess) => service.stdout() + service.stderr();

async function stoppedWith(service: ServiceProcess, signal: NodeJS.Signals):
  Promise<number | string> {
  service.child.kill(signal);
  return await service.exited;
}

/**
 * Stopped once ready: the 5 s deadline runs from the signal, so a stop asked while a loaded box
 * is still restoring the shards may rightly be cut short, and a clean exit is not what it tests.
 */
async function stoppedWhenReady(service: ServiceProcess): Promise<number | string> {
  await eventually(async () => {
    const ready = await fetch(`${service.baseUrl}/readyz`);
    await ready.arrayBuffer();
    return ready.status === 200;
  }, { timeoutMs: 120_000, intervalMs: 100, message: '/readyz turned ready' });
  return await stoppedWith(service, 'SIGTERM');
}

test('a shard that never finishes its stop: exit 3, acknowledged writes kept', async () => {
  const dataDir = await tempDir();
  createAccount(dataDir);
  const first = await serve(dataDir, { ORDERFLOW_TEST_STOP_HANG: 'shard' });
  const before = await acknowledge(first.baseUrl);
  const code = await stoppedWith(first, 'SIGTERM');
  assert.is(code, CUT_SHORT, log(first).slice(-3_000));
  assert.match(log(first), /did not finish its stop in time/);
  const second = await serve(dataDir);
  await assertKept(second.baseUrl, before, 'after a stop cut short');
  assert.is(await stoppedWhenReady(second), 0, log(second).slice(-3_000));
});

test('a main thread stuck after its first step is killed; acknowledged writes kept',
  async () => {
    const dataDir = await tempDir();
    createAccount(dataDir);
    const first = await serve(dataDir, { ORDERFLOW_TEST_STOP_HANG: 'main' });
    const before = await acknowledge(first.baseUrl);
    assert.is(await stoppedWith(first, 'SIGTERM'), 'SIGKILL', log(first).slice(-3_000));
    assert.match(log(first), /did not exit; killing it/);
    const second = await serve(dataDir);
    await assertKept(second.baseUrl, before, 'after the watchdog');
    assert.is(await stoppedWhenReady(second), 0, log(second).slice(-3_000));
  });

test('a second signal during a stop ends it at once; the store opens after', async () => {
  const dataDir = await tempDir();
  createAccount(dataDir);
  const first = await serve(dataDir, { ORDERFLOW_TEST_STOP_HANG: 'shard' });
  const before = await acknowledge(first.baseUrl);
  first.child.kill('SIGTERM');
  await eventually(() => /"stopping"/.test(log(first)), { message: 'stopping logged' });
  first.child.kill('SIGINT');
  assert.is(await first.exited, CUT_SHORT, log(first).slice(-3_000));
  assert.match(log(first), /second signal: stopping at once/);
  assert.not.match(log(first), /did not finish its stop in time/, 'it did not wait for them');
  const second = await serve(dataDir);
  await assertKept(second.baseUrl, before, 'after a second signal');
  assert.is(await stoppedWhenReady(second), 0, log(second).slice(-3_000));
});

test.after(() => {
  for (const service of running) service.child.kill('SIGKILL');
});

test.run();
