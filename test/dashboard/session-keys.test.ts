// A dashboard session's key on the real front, its clock a manual one: made at sign-in, it reads
// the data endpoints; it is never listed as one of the user's keys (API Keys, `orderflow keys
// list` without --sessions); sign-out revokes it, and so does expiry (12 h idle, the sweep).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { SESSION_IDLE_MS } from '../../http/dashboard/sessions.js';
import { runCli } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { Browser, startDashboardServer, type DashboardServer } from './dashboard-server.js';

const keys = suite('dashboard session keys');
const PASSWORD = 'correct horse battery';
const clock = new ManualClock(Date.parse('2026-11-25T10:00:00Z'));
let service: DashboardServer;

keys.before(async () => {
  service = await startDashboardServer({ clock });
  await service.createAccount('ana@example.com', PASSWORD, 'Pro');
});

keys.after(async () => {
  await service?.close();
});

const usageStatus = (key: string) => fetch(`${service.baseUrl}/api/v1/usage`,
  { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

/** `orderflow keys list --json [--sessions]`: the prefixes listed. */
async function listed(...flags: string[]): Promise<string[]> {
  const out = await runCli(['keys', 'list', '--json', ...flags, '--data-dir', service.dataDir]);
  return (JSON.parse(out) as { prefix: string }[]).map((row) => row.prefix);
}

async function signedIn(): Promise<{ browser: Browser; key: string; prefix: string }> {
  const browser = new Browser(service.baseUrl);
  const answer = await browser.signIn('ana@example.com', PASSWORD);
  assert.is(answer.status, 200);
  return { browser, ...answer.body.dashboardKey };
}

keys('a session key reads data and is never listed as the user\'s key', async () => {
  const { browser, key, prefix } = await signedIn();
  assert.is(await usageStatus(key), 200);
  assert.equal((await browser.call('GET', '/api/v1/account/keys')).body.keys, []);
  assert.not.ok((await listed()).includes(prefix), 'keys list leaves session keys out');
  assert.ok((await listed('--sessions')).includes(prefix), '--sessions lists them');
  const made = await browser.call('POST', '/api/v1/account/keys', { label: 'bot' });
  assert.is(made.status, 201);
  assert.equal(await listed(), [made.body.prefix], 'an API key is listed');
});

keys('sign-out revokes the session key', async () => {
  const { browser, key, prefix } = await signedIn();
  assert.is((await browser.call('DELETE', '/api/v1/account/session')).status, 200);
  await eventually(async () => (await usageStatus(key)) === 401,
    { message: 'the key refused after sign-out' });
  assert.type(service.store.keys.byPrefix(prefix)?.revokedAtMs, 'number');
});

keys('expiry revokes it: 12 h without a request, then the sweep', async () => {
  const { browser, key, prefix } = await signedIn();
  clock.advance(SESSION_IDLE_MS - 1_000);
  assert.is((await browser.call('GET', '/api/v1/account/session')).status, 200, 'still alive');
  assert.is(await usageStatus(key), 200);
  clock.advance(SESSION_IDLE_MS + 1);
  const swept = await service.dashboard.sweeper.sweep();
  assert.ok(swept.sessionsEnded >= 1, `sessions ended: ${swept.sessionsEnded}`);
  await eventually(async () => (await usageStatus(key)) === 401,
    { message: 'the key refused after expiry' });
  assert.type(service.store.keys.byPrefix(prefix)?.revokedAtMs, 'number');
  assert.is((await browser.call('GET', '/api/v1/account/session')).status, 401);
  assert.is((await listed()).includes(prefix), false);
});

keys.run();
