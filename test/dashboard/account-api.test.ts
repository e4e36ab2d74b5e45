// The account API on the real front: sign-in and its throttle, the cookie's flags, CSRF and
// Origin checks, keys (shown once, 200 then 401 after revoking), endpoints with a signed test
// event to a real receiver, rotation, the delivery log, alerts checked on the server, usage,
// and a second account that sees 404 on the first one's ids.
import { createHmac } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildOpenApiDocument } from '../../http/openapi/document.js';
import { openAccountStore } from '../../persistence/account-store.js';
import {
  Browser, startDashboardServer, startReceiver, type DashboardServer,
} from './dashboard-server.js';

const api = suite('account API');
let server: DashboardServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const PASSWORD = 'correct horse battery';

api.before(async () => {
  server = await startDashboardServer();
  receiver = await startReceiver();
  await server.createAccount('ana@example.com', PASSWORD, 'Pro');
  await server.createAccount('bo@example.com', PASSWORD, 'Whale');
});

api.after(async () => {
  await receiver.close();
  await server.close();
});

api('a session needs a sign-in; the cookie is HttpOnly, SameSite=Lax, Path=/', async () => {
  const b = new Browser(server.baseUrl);
  assert.is((await b.call('GET', '/api/v1/account/session')).status, 401);
  const wrong = await b.signIn('ana@example.com', 'not the password');
  assert.is(wrong.status, 401);
  assert.is(wrong.headers.get('content-type'), 'application/problem+json');
  const ok = await b.signIn('ANA@example.com ', PASSWORD);
  assert.is(ok.status, 200);
  assert.match(b.setCookie, /^of_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax/);
  assert.not.match(b.setCookie, /Secure/);
  assert.match(ok.body.dashboardKey.key, /^ofk_[0-9a-f]{32}$/);
  assert.is(ok.headers.get('content-security-policy'),
    "default-src 'self'; frame-ancestors 'none'");
  const me = await b.call('GET', '/api/v1/account/session');
  assert.is(me.body.account.email, 'ana@example.com');
  assert.is(me.body.csrfToken, b.csrf);
  // The session key reads the data endpoints (the cookie alone never does).
  const usage = await fetch(`${server.baseUrl}/api/v1/usage`,
    { headers: { authorization: `Bearer ${ok.body.dashboardKey.key}` } });
  assert.is(usage.status, 200);
  const cookieOnly = await fetch(`${server.baseUrl}/api/v1/usage`,
    { headers: { cookie: b.cookie } });
  assert.is(cookieOnly.status, 401);
  // Sign-out ends the session on the server and revokes its key.
  assert.is((await b.call('DELETE', '/api/v1/account/session')).status, 200);
  const again = await fetch(`${server.baseUrl}/api/v1/account/session`,
    { headers: { cookie: b.cookie } });
  assert.is(again.status, 401);
  const revoked = await fetch(`${server.baseUrl}/api/v1/usage`,
    { headers: { authorization: `Bearer ${ok.body.dashboardKey.key}` } });
  assert.is(revoked.status, 401);
});

api('state changes need the session CSRF token and the service Origin', async () => {
  const b = new Browser(server.baseUrl);
  await b.signIn('ana@example.com', PASSWORD);
  const noToken = await b.call('POST', '/api/v1/account/keys', { label: 'x' }, { csrf: null });
  assert.is(noToken.status, 403);
  const badToken = await b.call('POST', '/api/v1/account/keys', { label: 'x' }, { csrf: 'abc' });
  assert.is(badToken.status, 403);
  const foreign = await b.call('POST', '/api/v1/account/keys', { label: 'x' },
    { origin: 'https://evil.example' });
  assert.is(foreign.status, 403);
  const noOrigin = await b.call('POST', '/api/v1/account/keys', { label: 'x' }, { origin: null });
  assert.is(noOrigin.status, 403);
  const list = await b.call('GET', '/api/v1/account/keys');
  assert.equal(list.body.keys, []);
});

api('a key is shown once, listed by prefix, works, and answers 401 once revoked', async () => {
  const b = new Browser(server.baseUrl);
  await b.signIn('ana@example.com', PASSWORD);
  const tooHigh = await b.call('POST', '/api/v1/account/keys', { plan: 'Whale' });
  assert.is(tooHigh.status, 403);
  const created = await b.call('POST', '/api/v1/account/keys', { plan: 'Pro', label: 'bot' });
  assert.is(created.status, 201);
  const { key, prefix } = created.body;
  assert.is(key.slice(0, 12), prefix);
  const list = await b.call('GET', '/api/v1/account/keys');
  assert.is(list.body.keys.length, 1);
  assert.is(list.body.keys[0].prefix, prefix);
  assert.is(JSON.stringify(list.body).includes(key), false);
  const used = await fetch(`${server.baseUrl}/api/v1/usage`, { headers: { 'x-api-key': key } });
  assert.is(used.status, 200);
  const usage = await b.call('GET', '/api/v1/account/usage');
  assert.is(usage.body.keys.find((k: any) => k.prefix === prefix).usedToday, 0);
  assert.is((await b.call('DELETE', `/api/v1/account/keys/${prefix}`)).status, 200);
  const after = await fetch(`${server.baseUrl}/api/v1/usage`, { headers: { 'x-api-key': key } });
  assert.is(after.status, 401);
  assert.is((await b.call('DELETE', `/api/v1/account/keys/${prefix}`)).status, 404);
});

api('endpoint: secret once, signed test event with status and latency, rotate, log', async () => {
  const b = new Browser(server.baseUrl);
  await b.signIn('ana@example.com', PASSWORD);
  const key = await b.call('POST', '/api/v1/account/keys', { label: 'hooks' });
  const added = await b.call('POST', '/api/v1/account/endpoints',
    { keyPrefix: key.body.prefix, url: receiver.url });
  assert.is(added.status, 201, JSON.stringify(added.body));
  const { id, secret } = added.body;
  assert.match(secret, /^whsec_/);
  const listed = await b.call('GET', '/api/v1/account/endpoints');
  assert.is(JSON.stringify(listed.body).includes(secret), false);
  const test = await b.call('POST', `/api/v1/account/endpoints/${id}/test`);
  assert.is(test.status, 200);
  assert.is(test.body.statusCode, 200);
  assert.is(test.body.delivered, true);
  assert.type(test.body.latencyMs, 'number');
  const got = receiver.got.find((r) => r.body.includes(test.body.eventId));
  assert.ok(got, 'the receiver got the test event');
  const ts = got.headers['x-service-timestamp'] as string;
  const expected = createHmac('sha256', secret).update(`${ts}.${got.body}`).digest('hex');
  assert.is(got.headers['x-service-signature'], `v1=${expected}`);
  const rotated = await b.call('POST', `/api/v1/account/endpoints/${id}/rotate`);
  assert.is(rotated.status, 200);
  assert.is.not(rotated.body.secret, secret);
  const log = await b.call('GET', `/api/v1/account/endpoints/${id}/deliveries`);
  const entry = log.body.deliveries.find((d: any) => d.eventId === test.body.eventId);
  assert.is(entry.status, 'delivered');
  assert.is(entry.attempts, 1);
  const replay = await b.call('POST', `/api/v1/account/events/${test.body.eventId}/replay`);
  assert.is(replay.status, 200);
  assert.is(replay.body.deliveries, 1);
  const dup = await b.call('POST', '/api/v1/account/endpoints',
    { keyPrefix: key.body.prefix, url: receiver.url });
  assert.is(dup.status, 409);
  const bad = await b.call('POST', '/api/v1/account/endpoints',
    { keyPrefix: key.body.prefix, url: 'ftp://x' });
  assert.is(bad.status, 400);
});

api('alerts: options checked on the server, listed, removable', async () => {
  const b = new Browser(server.baseUrl);
  await b.signIn('ana@example.com', PASSWORD);
  const endpoints = await b.call('GET', '/api/v1/account/endpoints');
  const endpointId = endpoints.body.endpoints[0].id;
  const bad = await b.call('POST', '/api/v1/account/alerts',
    { endpointId, kind: 'price', symbol: 'BTC', level: '-5', direction: 'above' });
  assert.is(bad.status, 400);
  assert.match(bad.body.detail, /level must be a positive number/);
  const good = await b.call('POST', '/api/v1/account/alerts',
    { endpointId, kind: 'price', symbol: 'BTC', level: '65000', direction: 'above' });
  assert.is(good.status, 201, JSON.stringify(good.body));
  const list = await b.call('GET', '/api/v1/account/alerts');
  assert.is(list.body.alerts.length, 1);
  assert.is(list.body.alerts[0].symbol, 'BTC');
  assert.is(list.body.alerts[0].endpointId, endpointId);
});

api("another account sees 404 on the first one's ids and lists none of them", async () => {
  const ana = new Browser(server.baseUrl);
  await ana.signIn('ana@example.com', PASSWORD);
  const endpoint = (await ana.call('GET', '/api/v1/account/endpoints')).body.endpoints[0];
  const alert = (await ana.call('GET', '/api/v1/account/alerts')).body.alerts[0];
  const key = (await ana.call('GET', '/api/v1/account/keys')).body.keys
    .find((k: any) => k.revokedAt === null);
  const bo = new Browser(server.baseUrl);
  await bo.signIn('bo@example.com', PASSWORD);
  assert.equal((await bo.call('GET', '/api/v1/account/endpoints')).body.endpoints, []);
  assert.equal((await bo.call('GET', '/api/v1/account/alerts')).body.alerts, []);
  assert.equal((await bo.call('GET', '/api/v1/account/keys')).body.keys, []);
  for (const [method, path] of [
    ['DELETE', `/api/v1/account/keys/${key.prefix}`],
    ['POST', `/api/v1/account/endpoints/${endpoint.id}/rotate`],
    ['POST', `/api/v1/account/endpoints/${endpoint.id}/test`],
    ['GET', `/api/v1/account/endpoints/${endpoint.id}/deliveries`],
    ['DELETE', `/api/v1/account/endpoints/${endpoint.id}`],
    ['DELETE', `/api/v1/account/alerts/${alert.id}`],
  ]) {
    const answer = await bo.call(method, path);
    assert.is(answer.status, 404, `${method} ${path}`);
  }
  const created = await bo.call('POST', '/api/v1/account/endpoints',
    { keyPrefix: key.prefix, url: receiver.url + '2' });
  assert.is(created.status, 400);
});

api('a disabled account has no session and cannot sign in', async () => {
  await server.createAccount('dee@example.com', PASSWORD, 'Pro');
  const b = new Browser(server.baseUrl);
  assert.is((await b.signIn('dee@example.com', PASSWORD)).status, 200);
  const accounts = openAccountStore(server.store.root);
  await accounts.update('dee@example.com', (a) => ({ ...a, disabledAtMs: Date.now() }));
  assert.is((await b.call('GET', '/api/v1/account/session')).status, 401);
  assert.is((await b.signIn('dee@example.com', PASSWORD)).status, 401);
});

api('bad bodies and unknown paths are 4xx problems', async () => {
  const b = new Browser(server.baseUrl);
  await b.signIn('ana@example.com', PASSWORD);
  const notJson = await fetch(`${server.baseUrl}/api/v1/account/keys`, { method: 'POST',
    headers: { cookie: b.cookie, origin: server.baseUrl, 'x-csrf-token': b.csrf,
      'content-type': 'application/json' }, body: '[1' });
  assert.is(notJson.status, 400);
  assert.is((await b.call('GET', '/api/v1/account/nothing')).status, 404);
  assert.is((await b.call('PUT', '/api/v1/account/keys', {})).status, 405);
  const signup = await b.call('POST', '/api/v1/account/signup',
    { email: 'new@example.com', password: PASSWORD });
  assert.is(signup.status, 403);
});

api('answers follow the OpenAPI document of the account API', async () => {
  const doc = buildOpenApiDocument() as any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (formats as unknown as typeof formats.default)(ajv);
  ajv.addSchema({ ...doc, $id: 'openapi' });
  const b = new Browser(server.baseUrl);
  await b.signIn('ana@example.com', PASSWORD);
  for (const path of ['session', 'keys', 'endpoints', 'alerts', 'usage']) {
    const answer = await b.call('GET', `/api/v1/account/${path}`);
    assert.is(answer.status, 200, path);
    const ref = `openapi#/paths/~1api~1v1~1account~1${path}/get/responses/200/content/` +
      'application~1json/schema';
    assert.ok(ajv.validate({ $ref: ref }, answer.body), `${path}: ${ajv.errorsText()}`);
  }
  const created = await b.call('POST', '/api/v1/account/keys', { label: 'doc' });
  const ref = 'openapi#/paths/~1api~1v1~1account~1keys/post/responses/201/content/' +
    'application~1json/schema';
  assert.ok(ajv.validate({ $ref: ref }, created.body), ajv.errorsText());
  const refused = await b.call('POST', '/api/v1/account/keys', {}, { csrf: null });
  assert.ok(doc.paths['/api/v1/account/keys'].post.responses[String(refused.status)]);
});

api('behind a trusted https proxy the cookie is Secure; open sign-up makes Free accounts',
  async () => {
    const own = await startDashboardServer({ trustProxy: ['127.0.0.1'], signupOpen: true });
    try {
      const host = new URL(own.baseUrl).host;
      const response = await fetch(`${own.baseUrl}/api/v1/account/signup`, {
        method: 'POST', body: JSON.stringify({ email: 'new@example.com', password: PASSWORD }),
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https',
          origin: `https://${host}` },
      });
      assert.is(response.status, 200);
      assert.match(response.headers.get('set-cookie') ?? '', /; Secure$/);
      assert.is(((await response.json()) as any).account.plan, 'Free');
      const plain = new Browser(own.baseUrl);
      assert.is((await plain.call('POST', '/api/v1/account/signup',
        { email: 'new@example.com', password: PASSWORD })).status, 409);
      assert.is((await plain.call('POST', '/api/v1/account/signup',
        { email: 'x@example.com', password: 'short' })).status, 400);
    } finally {
      await own.close();
    }
  });

api('five failed sign-ins in 15 minutes answer 429 with Retry-After', async () => {
  // A front of its own: the failures count per address too, and would lock the other tests out.
  const own = await startDashboardServer();
  await own.createAccount('cy@example.com', PASSWORD, 'Free');
  const b = new Browser(own.baseUrl);
  for (let i = 0; i < 5; i++) {
    assert.is((await b.signIn('cy@example.com', 'wrong pass')).status, 401);
  }
  const refused = await b.signIn('cy@example.com', PASSWORD);
  assert.is(refused.status, 429);
  assert.ok(Number(refused.headers.get('retry-after')) > 800);
  assert.is(refused.body.code, 'rate_limited');
  await own.close();
});

api.run();
