// The dashboard on two scale-out fronts sharing a real redis-server: a user signed in through
// front 1 is signed in on front 2 at once, keys made on one are listed on the other, sign-out on
// one ends the session on both, failed sign-ins count across both fronts, the pages are served by
// fronts, usage days are the shared counts, an account's session keys share one daily quota and
// burst window over both fronts, the webhook and alert routes say they are ingest's, and
// `orderflow users` with ORDERFLOW_REDIS_URL manages the shared accounts (docs/scale-out.md).
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { resolveConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { romeDayKey } from '../../core/rome-time.js';
import { SnapshotStore } from '../../http/snapshots.js';
import { hashPassword } from '../../persistence/passwords.js';
import { SnapshotPublisher } from '../../scale-out/publisher.js';
import { startFrontService, type FrontService } from '../../bin/scale-out/front-service.js';
import { openSharedState, type SharedState } from '../../scale-out/shared-state.js';
import { Browser } from '../dashboard/dashboard-server.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { binPath } from '../helpers/service-process.js';
import { T0 } from '../http/helpers/seed.js';

const dash = suite('scale-out dashboard');
const clock = new ManualClock(T0);
const PASSWORD = 'correct horse battery';
/** A bound on waits for a change to reach the other front (event-driven; never a timing). */
const settleMs = 10_000;
let redis: RedisServer;
const fronts: FrontService[] = [];
const shareds: SharedState[] = [];

async function startFront(): Promise<FrontService> {
  const shared = await openSharedState(redis.url, clock, silentLogger);
  shareds.push(shared);
  const config = resolveConfig({ host: '127.0.0.1', port: 0, dataDir: await tempDir() });
  return startFrontService(config, { logger: silentLogger, shared, clock });
}

/** A browser on `front` carrying the session (cookie and CSRF token) of `other`. */
function sameSession(other: Browser, front: FrontService): Browser {
  const b = new Browser(front.baseUrl);
  b.cookie = other.cookie;
  b.csrf = other.csrf;
  return b;
}

dash.before(async () => {
  redis = await startRedisServer();
  fronts.push(await startFront(), await startFront());
  const digest = await hashPassword(PASSWORD);
  await shareds[0]!.accounts.create({ email: 'ana@example.com', plan: 'Pro',
    passwordDigest: digest }, clock.nowMs());
  await shareds[0]!.accounts.create({ email: 'bo@example.com', plan: 'Free',
    passwordDigest: digest }, clock.nowMs());
  await eventually(() => shareds.every((s) => s.accounts.byEmail('bo@example.com')),
    { timeoutMs: settleMs, message: 'accounts on both fronts' });
});

dash.after(async () => {
  for (const front of fronts) await front.stop();
  await redis?.stop();
});

/** A view to count on: ingest's publisher puts the screener, both fronts serve it. */
function publishScreener(): void {
  const publisher = new SnapshotPublisher(shareds[0]!.link, silentLogger);
  publisher.sink(new SnapshotStore()).put('screener', Buffer.from('{"pairs":[]}'),
    { version: 1, updatedAtMs: clock.nowMs(), cadenceMs: 5_000 });
}

dash('signed in on front 1 is signed in on front 2 at once; keys and sign-out are shared',
  async () => {
    const one = new Browser(fronts[0]!.baseUrl);
    assert.is((await one.signIn('ana@example.com', PASSWORD)).status, 200);
    // At once: front 2 reads a session it has not heard of from Redis itself.
    const two = sameSession(one, fronts[1]!);
    const me = await two.call('GET', '/api/v1/account/session');
    assert.is(me.status, 200);
    assert.is(me.body.account.email, 'ana@example.com');
    assert.is(me.body.csrfToken, one.csrf);
    const made = await two.call('POST', '/api/v1/account/keys', { plan: 'Pro', label: 'bot' });
    assert.is(made.status, 201);
    await eventually(async () => {
      const list = await one.call('GET', '/api/v1/account/keys');
      return list.body.keys.some((k: { prefix: string }) => k.prefix === made.body.prefix);
    }, { timeoutMs: settleMs, message: 'the key listed on front 1' });
    // The key made on front 2 reads data on front 1.
    const usage = await fetch(`${fronts[0]!.baseUrl}/api/v1/usage`,
      { headers: { authorization: `Bearer ${made.body.key}` } });
    assert.is(usage.status, 200);
    // A CSRF token is still required on the other front.
    const forged = await one.call('POST', '/api/v1/account/keys', { plan: 'Pro' },
      { csrf: null });
    assert.is(forged.status, 403);
    assert.is((await two.call('DELETE', '/api/v1/account/session')).status, 200);
    await eventually(async () =>
      (await one.call('GET', '/api/v1/account/session')).status === 401,
    { timeoutMs: settleMs, message: 'signed out on front 1 too' });
  });

dash('usage days are the shared counts on every front, yesterday included', async () => {
  const one = new Browser(fronts[0]!.baseUrl);
  assert.is((await one.signIn('ana@example.com', PASSWORD)).status, 200);
  const made = await one.call('POST', '/api/v1/account/keys', { plan: 'Pro', label: 'usage' });
  assert.is(made.status, 201);
  const { key, prefix } = made.body as { key: string; prefix: string };
  publishScreener();
  const poll = async (front: FrontService) => (await fetch(`${front.baseUrl}/api/v1/screener`,
    { headers: { authorization: `Bearer ${key}` } })).status;
  await eventually(async () => await poll(fronts[1]!) === 200 && await poll(fronts[0]!) === 200,
    { timeoutMs: settleMs, message: 'the screener served by both fronts' });
  // 2 counted so far (one on each front); 1 more on front 1, 2 on front 2.
  assert.is(await poll(fronts[0]!), 200);
  const yesterday = romeDayKey(clock.nowMs());
  clock.advance(24 * 3_600_000);
  assert.is(await poll(fronts[1]!), 200);
  assert.is(await poll(fronts[1]!), 200);
  const today = romeDayKey(clock.nowMs());
  // A day later the session has expired: sign in again.
  const again = new Browser(fronts[1]!.baseUrl);
  assert.is((await again.signIn('ana@example.com', PASSWORD)).status, 200);
  for (const front of fronts) {
    const usage = await sameSession(again, front).call('GET', '/api/v1/account/usage');
    assert.is(usage.status, 200);
    const row = (usage.body.keys as { prefix: string; usedToday: number;
      days: { day: string; used: number }[] }[]).find((k) => k.prefix === prefix)!;
    assert.is(row.usedToday, 2);
    assert.equal(row.days.slice(0, 2), [{ day: today, used: 2 }, { day: yesterday, used: 3 }]);
  }
  // A key's counter outlives its day in Redis, for the 30 days the dashboard shows.
  const ttlSeconds = await shareds[0]!.link.command.ttl(
    `orderflow:daily:${yesterday}:key:${prefix}`);
  assert.ok(ttlSeconds > 30 * 86_400, `ttl ${ttlSeconds} s`);
});

/** An account signed in `n` times, alternating fronts: each session's browser and key, once
 *  every front knows the keys. */
async function signIns(email: string, plan: 'Free' | 'Trader', n: number) {
  await shareds[0]!.accounts.create({ email, plan, passwordDigest: await hashPassword(PASSWORD) },
    clock.nowMs());
  await eventually(() => shareds.every((s) => s.accounts.byEmail(email)),
    { timeoutMs: settleMs, message: 'the account on both fronts' });
  const sessions: { browser: Browser; key: string }[] = [];
  for (let i = 0; i < n; i++) {
    const browser = new Browser(fronts[i % 2]!.baseUrl);
    const answer = await browser.signIn(email, PASSWORD);
    assert.is(answer.status, 200);
    sessions.push({ browser, key: answer.body.dashboardKey.key as string });
  }
  await eventually(() => sessions.every(({ key }) => shareds.every((s) =>
    s.keys.byPrefix(key.slice(0, 12)))), { timeoutMs: settleMs, message: 'keys on both fronts' });
  publishScreener();
  await eventually(() => fronts.every((f) => f.snapshots.get('screener')),
    { timeoutMs: settleMs, message: 'the screener on both fronts' });
  return sessions;
}

async function keyed(front: FrontService, path: string, key: string) {
  const response = await fetch(`${front.baseUrl}${path}`,
    { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status,
    body: await response.json() as { code?: string; used?: number; scope?: string } };
}

dash('three sessions over two fronts spend one daily quota; sign-out revokes one key only',
  async () => {
    const sessions = await signIns('dee@example.com', 'Free', 3);
    for (let i = 0; i < 20; i++) {
      const answer = await keyed(fronts[i % 2]!, '/api/v1/screener', sessions[i % 3]!.key);
      assert.is(answer.status, 200, `request ${i + 1}`);
    }
    for (const front of fronts) {
      for (const { key } of sessions) {
        const refused = await keyed(front, '/api/v1/screener', key);
        assert.is(refused.status, 429, 'whichever key and front');
        assert.is(refused.body.code, 'quota_exceeded');
        assert.is(refused.body.used, 20);
      }
    }
    const page = await sameSession(sessions[0]!.browser, fronts[1]!)
      .call('GET', '/api/v1/account/usage');
    const row = page.body.keys.find((k: { session: boolean }) => k.session);
    assert.is(row.usedToday, 20);
    // The account's counts are kept as long as a key's: the Usage page shows 30 days of them.
    const account = shareds[0]!.accounts.byEmail('dee@example.com')!;
    const ttlSeconds = await shareds[0]!.link.command.ttl(`orderflow:limits:account:${account.id}`);
    assert.ok(ttlSeconds > 30 * 86_400, `ttl ${ttlSeconds} s`);
    assert.is((await sameSession(sessions[0]!.browser, fronts[1]!)
      .call('DELETE', '/api/v1/account/session')).status, 200);
    await eventually(async () =>
      (await keyed(fronts[0]!, '/api/v1/usage', sessions[0]!.key)).status === 401,
    { timeoutMs: settleMs, message: 'the signed-out key refused on the other front' });
    for (const front of fronts) {
      assert.is((await keyed(front, '/api/v1/usage', sessions[1]!.key)).status, 200);
      assert.is((await keyed(front, '/api/v1/usage', sessions[2]!.key)).status, 200);
    }
  });

dash('two sessions over two fronts share one burst window', async () => {
  const sessions = await signIns('eve@example.com', 'Trader', 2);
  for (let i = 0; i < 60; i++) {
    const answer = await keyed(fronts[i % 2]!, '/api/v1/screener', sessions[(i >> 1) % 2]!.key);
    assert.is(answer.status, 200, `request ${i + 1}`);
  }
  for (const front of fronts) {
    for (const { key } of sessions) {
      const refused = await keyed(front, '/api/v1/screener', key);
      assert.is(refused.status, 429);
      assert.is(refused.body.code, 'rate_limited');
      assert.is(refused.body.scope, 'v1');
    }
  }
});

dash('five failed sign-ins over both fronts refuse the sixth on either, with Retry-After',
  async () => {
    clock.advance(16 * 60_000);
    for (let i = 0; i < 5; i++) {
      const b = new Browser(fronts[i % 2]!.baseUrl);
      assert.is((await b.signIn('bo@example.com', 'not the password')).status, 401);
    }
    for (const front of fronts) {
      const refused = await new Browser(front.baseUrl).signIn('bo@example.com', PASSWORD);
      assert.is(refused.status, 429);
      assert.is(refused.body.code, 'rate_limited');
      assert.is(refused.headers.get('retry-after'), String(15 * 60));
    }
    // The window is 15 minutes on the shared clock: past it, the right password works.
    clock.advance(15 * 60_000);
    assert.is((await new Browser(fronts[1]!.baseUrl).signIn('bo@example.com', PASSWORD)).status,
      200);
  });

dash('fronts serve the pages; webhook and alert routes answer 503 naming ingest', async () => {
  const page = await fetch(`${fronts[1]!.baseUrl}/`);
  assert.is(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  assert.is(page.headers.get('content-security-policy'),
    "default-src 'self'; frame-ancestors 'none'");
  const b = new Browser(fronts[1]!.baseUrl);
  assert.is((await b.signIn('ana@example.com', PASSWORD)).status, 200);
  for (const path of ['/api/v1/account/endpoints', '/api/v1/account/alerts']) {
    const answer = await b.call('GET', path);
    assert.is(answer.status, 503, path);
    assert.is(answer.headers.get('content-type'), 'application/problem+json');
    assert.match(answer.body.detail, /ingest/);
  }
});

/** `orderflow users ...` against the shared Redis; its exit status and output. */
function users(args: string[], input = '') {
  const result = spawnSync(process.execPath, [binPath, 'users', ...args], { input,
    encoding: 'utf8', env: { ...process.env, ORDERFLOW_REDIS_URL: redis.url } });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

dash('users create and disable with ORDERFLOW_REDIS_URL act on every front', async () => {
  const made = users(['create', '--email', 'cy@example.com', '--plan', 'Pro', '--json'],
    PASSWORD);
  assert.is(made.status, 0, made.err);
  await eventually(() => shareds.every((s) => s.accounts.byEmail('cy@example.com')),
    { timeoutMs: settleMs, message: 'the new account on both fronts' });
  const b = new Browser(fronts[1]!.baseUrl);
  assert.is((await b.signIn('cy@example.com', PASSWORD)).status, 200);
  assert.is(users(['create', '--email', 'cy@example.com', '--plan', 'Pro'], PASSWORD).status, 1,
    'a second account with the same email is refused');
  assert.is(users(['disable', 'cy@example.com']).status, 0);
  await eventually(async () =>
    (await sameSession(b, fronts[0]!).call('GET', '/api/v1/account/session')).status === 401,
  { timeoutMs: settleMs, message: 'the disabled account signed out on front 1' });
});

dash.run();
