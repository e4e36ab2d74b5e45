// Dashboard session keys on the real front (uWS on a port, lmdb in a temp folder, a travelling
// clock): an account's sessions share one daily quota and one burst window however often it
// signs in, sign-out revokes that session's key only, a new sign-in leaves the others alone,
// and an expired session's key is revoked by the sweep with no sign-in to trigger it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { SESSION_IDLE_MS } from '../../http/dashboard/sessions.js';
import { eventually } from '../helpers/eventually.js';
import { Browser, startDashboardServer, type DashboardServer } from './dashboard-server.js';
import { putMarketFixture } from './market-fixture.js';

const quota = suite('dashboard session quota');
const T0 = Date.parse('2026-11-25T10:00:00Z');
const PASSWORD = 'correct horse battery';
const clock = new ManualClock(T0);
let server: DashboardServer;

quota.before(async () => {
  // A sweep every 20 ms of wall time: the expiry test waits for it, never for a fixed time.
  server = await startDashboardServer({ clock, sessionSweepMs: 20 });
  putMarketFixture(server.snapshots, T0);
  await server.createAccount('free@example.com', PASSWORD, 'Free');
  await server.createAccount('whale@example.com', PASSWORD, 'Whale');
  await server.createAccount('pro@example.com', PASSWORD, 'Pro');
});

quota.after(async () => {
  await server.close();
});

/** Signs in `n` times (n sessions, as n headless scripts would): the browsers and their keys. */
async function signIns(email: string, n: number): Promise<{ browsers: Browser[];
  keys: string[] }> {
  const browsers: Browser[] = [];
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const b = new Browser(server.baseUrl);
    const answer = await b.signIn(email, PASSWORD);
    assert.is(answer.status, 200, JSON.stringify(answer.body));
    browsers.push(b);
    keys.push(answer.body.dashboardKey.key as string);
  }
  assert.is(new Set(keys).size, n, 'a key per session');
  return { browsers, keys };
}

async function get(path: string, key: string) {
  const response = await fetch(`${server.baseUrl}${path}`,
    { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  return { status: response.status, headers: response.headers,
    body: /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text };
}

quota('three sign-ins share one daily quota: the 21st request of a Free day is refused',
  async () => {
    const { browsers, keys } = await signIns('free@example.com', 3);
    for (let i = 0; i < 20; i++) {
      const answer = await get('/api/v1/screener', keys[i % 3]!);
      assert.is(answer.status, 200, `request ${i + 1}`);
      assert.match(answer.headers.get('ratelimit') ?? '', `"daily";r=${19 - i};`);
    }
    for (const key of keys) {
      const refused = await get('/api/v1/screener', key);
      assert.is(refused.status, 429, 'whichever key sends it');
      assert.is(refused.body.code, 'quota_exceeded');
      assert.is(refused.body.limit, 20);
      assert.is(refused.body.used, 20);
    }
    // A fourth sign-in buys nothing either.
    const { keys: [later] } = await signIns('free@example.com', 1);
    assert.is((await get('/api/v1/screener', later!)).status, 429);
    const usage = await get('/api/v1/usage', keys[1]!);
    assert.is(usage.body.used, 20);
    assert.is(usage.body.remaining, 0);
    // The Usage page's session row counts the account's sessions together.
    const page = await browsers[0]!.call('GET', '/api/v1/account/usage');
    const row = page.body.keys.find((k: { session: boolean }) => k.session);
    assert.is(row.usedToday, 20);
    assert.is(row.limit, 20);
    assert.is(row.days[0].used, 20);
  });

quota('three sign-ins share one burst window; an API key of the account keeps its own',
  async () => {
    const { browsers, keys } = await signIns('whale@example.com', 3);
    for (let i = 0; i < 10; i++) {
      const answer = await get('/api/v1/cvd/BTC', keys[i % 3]!);
      assert.is(answer.status, 200, `request ${i + 1}`);
      assert.match(answer.headers.get('ratelimit') ?? '', `"burst";r=${9 - i};`);
    }
    for (const key of keys) {
      const refused = await get('/api/v1/cvd/BTC', key);
      assert.is(refused.status, 429);
      assert.is(refused.body.code, 'rate_limited');
      assert.is(refused.body.scope, 'cvd');
    }
    const made = await browsers[0]!.call('POST', '/api/v1/account/keys', { label: 'bot' });
    assert.is(made.status, 201);
    assert.is((await get('/api/v1/cvd/BTC', made.body.key)).status, 200);
  });

quota('sign-out revokes that session\'s key only; a new sign-in leaves the others valid',
  async () => {
    const { browsers, keys } = await signIns('pro@example.com', 2);
    clock.advance(5 * 3_600_000);
    assert.is((await browsers[1]!.call('GET', '/api/v1/account/session')).status, 200);
    clock.advance(5 * 3_600_000);
    const { keys: [third] } = await signIns('pro@example.com', 1);
    for (const key of [...keys, third!]) {
      assert.is((await get('/api/v1/usage', key)).status, 200, 'valid after a new sign-in');
    }
    assert.is((await browsers[0]!.call('DELETE', '/api/v1/account/session')).status, 200);
    const revoked = await get('/api/v1/usage', keys[0]!);
    assert.is(revoked.status, 401);
    assert.is(revoked.body.code, 'invalid_key');
    assert.is((await get('/api/v1/usage', keys[1]!)).status, 200);
    assert.is((await get('/api/v1/usage', third!)).status, 200);
  });

quota('an expired session\'s key is revoked by the sweep, with no sign-in after it',
  async () => {
    const { browsers, keys } = await signIns('pro@example.com', 2);
    clock.advance(SESSION_IDLE_MS - 60_000);
    assert.is((await browsers[1]!.call('GET', '/api/v1/account/session')).status, 200);
    clock.advance(60_001);
    const refused = await eventually(async () => {
      const answer = await get('/api/v1/usage', keys[0]!);
      return answer.status === 401 ? answer : null;
    }, { timeoutMs: 10_000, message: 'the idle session\'s key revoked' });
    assert.is(refused.body.code, 'invalid_key');
    assert.match(refused.body.detail, /revoked/);
    assert.is((await get('/api/v1/usage', keys[1]!)).status, 200, 'the used session lives on');
    assert.is((await browsers[0]!.call('GET', '/api/v1/account/session')).status, 401);
    // The page's way back: a live session mints a new key for itself; an ended one cannot.
    assert.is((await browsers[0]!.call('POST', '/api/v1/account/session/key')).status, 401);
  });

quota.run();
