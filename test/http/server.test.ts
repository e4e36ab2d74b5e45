// The REST front over HTTP: the plan matrix, validators and 304, errors, CORS, methods, limits.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PLANS } from '../../core/messages.js';
import { ENDPOINTS, type Endpoint } from '../../http/access-types.js';
import { planReaches } from '../../http/plans.js';
import { bearer, get, startTestServer, type TestServer } from './helpers/harness.js';
import { WALLET } from './helpers/seed.js';

/** One URL per plan-table endpoint. */
const sampleUrl: Record<Endpoint, string> = {
  'screener': '/api/v1/screener', 'pair': '/api/v1/pair/BTC', 'signals': '/api/v1/signals',
  'smart-money': '/api/v1/smart-money', 'deep-view': '/api/v1/deep-view/BTC',
  'funding-arb': '/api/v1/funding-arb', 'usage': '/api/v1/usage', 'cvd': '/api/v1/cvd/BTC',
  'liquidation-map': '/api/v1/liquidation-map/BTC', 'wallets': '/api/v1/wallets',
  'export': '/api/v1/export/screener.csv', 'history': '/api/v1/history/BTC',
  'footprint': '/api/v1/footprint/BTC', 'volume-profile': '/api/v1/volume-profile/BTC',
};

let t: TestServer;
const api = suite('api');
api.before(async () => {
  t = await startTestServer({ config: { keylessDailyLimit: 1_000 } });
});
api.after(() => t.close());
api.before.each(() => t.clock.advance(61_000));

api('every plan x every endpoint: 200 where the plan reaches, 403 naming the tier otherwise',
  async () => {
    for (const plan of PLANS) {
      for (const endpoint of ENDPOINTS) {
        const r = await get(t.url + sampleUrl[endpoint], bearer(t.keyOf[plan]));
        const reaches = planReaches(plan, endpoint);
        assert.is(r.status, reaches ? 200 : 403, `${plan} ${endpoint}`);
        if (!reaches) {
          assert.is(r.json.code, 'plan_required');
          assert.is(r.json.plan, plan);
          assert.ok(['Trader', 'Pro', 'Whale'].includes(r.json.requiredPlan));
        }
      }
    }
  });

api('keyless: screener and pair only; everything else 401', async () => {
  for (const endpoint of ENDPOINTS) {
    const r = await get(t.url + sampleUrl[endpoint]);
    const open = endpoint === 'screener' || endpoint === 'pair';
    assert.is(r.status, open ? 200 : 401, endpoint);
    if (!open) assert.is(r.headers.get('content-type'), 'application/problem+json');
  }
});

api('a key sent to screener must be valid; the three spellings work', async () => {
  assert.is((await get(t.url + '/api/v1/screener', bearer('ofk_' + '0'.repeat(32)))).status, 401);
  assert.is((await get(t.url + '/api/v1/screener', { 'x-api-key': 'nope' })).status, 401);
  assert.is((await get(t.url + `/api/v1/signals?api_key=${t.keyOf.Pro}`)).status, 200);
  assert.is((await get(t.url + '/api/v1/signals', { 'x-api-key': t.keyOf.Pro })).status, 200);
});

api('feed headers: strong ETag, Last-Modified, cadence, Cache-Control = cadence seconds',
  async () => {
    const screener = await get(t.url + '/api/v1/screener');
    assert.match(screener.headers.get('etag')!, /^"[A-Za-z0-9_-]+"$/);
    assert.is(screener.headers.get('cache-control'), 'max-age=5');
    assert.is(screener.headers.get('x-producer-cadence-ms'), '5000');
    assert.is(screener.headers.get('last-modified'), 'Sun, 22 Nov 2026 10:00:00 GMT');
    assert.is(screener.json.updatedAt, '2026-11-22T10:00:00.000Z');
    const signals = await get(t.url + '/api/v1/signals', bearer(t.keyOf.Trader));
    assert.is(signals.headers.get('x-producer-cadence-ms'), '1000');
    assert.is(signals.headers.get('cache-control'), 'max-age=1');
    assert.ok(signals.headers.get('last-modified'));
    t.store.put('pair/ETH', Buffer.from('{}'), { version: 1, updatedAtMs: 0, cadenceMs: 250 });
    const fast = await get(t.url + '/api/v1/pair/ETH');
    assert.is(fast.headers.get('cache-control'), 'max-age=0');
  });

api('If-None-Match answers 304 without a body, costs burst but not the daily quota', async () => {
  const key = t.keyOf.Trader;
  const first = await get(t.url + '/api/v1/signals', bearer(key));
  const etag = first.headers.get('etag')!;
  const usedBefore = (await get(t.url + '/api/v1/usage', bearer(key))).json.used;
  for (const inm of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
    const r = await get(t.url + '/api/v1/signals', { ...bearer(key), 'if-none-match': inm });
    assert.is(r.status, 304, inm);
    assert.is(r.text, '');
    assert.is(r.headers.get('etag'), etag);
    assert.is(r.headers.get('x-producer-cadence-ms'), '1000');
    assert.ok(r.headers.get('ratelimit'));
  }
  const stale = await get(t.url + '/api/v1/signals', { ...bearer(key), 'if-none-match': '"x"' });
  assert.is(stale.status, 200);
  const usage = (await get(t.url + '/api/v1/usage', bearer(key))).json;
  assert.is(usage.used, usedBefore + 1, 'only the 200 counted');
  const burst = (await get(t.url + '/api/v1/usage', bearer(key))).headers.get('ratelimit')!;
  assert.match(burst, /"burst";r=51;/, '9 requests in this minute, this one included');
});

api('a new publish changes the ETag', async () => {
  const before = (await get(t.url + '/api/v1/pair/BTC')).headers.get('etag');
  t.store.put('pair/BTC', Buffer.from('{"symbol":"BTC","price":1}'),
    { version: 2, updatedAtMs: 1, cadenceMs: 1000 });
  const after = await get(t.url + '/api/v1/pair/BTC', { 'if-none-match': before! });
  assert.is(after.status, 200);
  assert.is.not(after.headers.get('etag'), before);
});

api.run();

const errors = suite('errors');
errors.before(async () => {
  t = await startTestServer({ config: { keylessDailyLimit: 1_000 } });
});
errors.after(() => t.close());
errors.before.each(() => t.clock.advance(61_000));

errors('symbols: unknown 404, untracked not_tracked, builder markets, case, malformed 400',
  async () => {
    const whale = bearer(t.keyOf.Whale);
    const code = async (path: string) => {
      const r = await get(t.url + path, whale);
      return `${r.status} ${r.json?.code ?? ''}`.trim();
    };
    assert.is(await code('/api/v1/pair/NOPE'), '404 unknown_symbol');
    assert.is(await code('/api/v1/deep-view/NOPE'), '404 unknown_symbol');
    assert.is(await code('/api/v1/deep-view/xyz:TSLA'), '404 not_tracked');
    assert.is(await code('/api/v1/cvd/xyz%3ATSLA'), '404 not_tracked');
    assert.is(await code('/api/v1/pair/xyz%3ATSLA'), '200');
    assert.is(await code('/api/v1/pair/xyz:TSLA'), '200');
    assert.is(await code('/api/v1/pair/btc'), '200');
    assert.is(await code('/api/v1/pair/kpepe'), '200');
    for (const bad of ['B..C', '%2e%2e%2fscreener', 'BTC%00', '%E2%82%AC', 'B%TC', 'BTC-PERP',
      'a'.repeat(30), 'xyz:', ':TSLA', '%20BTC']) {
      assert.is(await code('/api/v1/pair/' + bad), '400 bad_request', bad);
    }
    assert.is(await code('/api/v1/pair/'), '404 not_found');
    assert.is(await code('/api/v1/pair/BTC/extra'), '404 not_found');
  });

errors('query parameters: undocumented, repeated, out of range, badly encoded: 400', async () => {
  const whale = bearer(t.keyOf.Whale);
  for (const q of ['?x=1', '?interval=5m&interval=1h', '?interval=2m', '?limit=0',
    '?limit=1001', '?limit=1e2', '?limit=-1', '?limit=%ZZ', '?_=123',
    `?api_key=${t.keyOf.Whale}&api_key=${t.keyOf.Whale}`]) {
    const r = await get(t.url + '/api/v1/cvd/BTC' + q, whale);
    assert.is(r.status, 400, q);
    assert.is(r.json.code, 'bad_request', q);
    assert.ok(/was/.test(r.json.detail), r.json.detail);
  }
  assert.is((await get(t.url + '/api/v1/screener?limit=5')).status, 400);
});

errors('wallets: address format 400, unknown 404, known 200', async () => {
  const whale = bearer(t.keyOf.Whale);
  assert.is((await get(t.url + `/api/v1/wallets/${WALLET.toUpperCase().replace('0X', '0x')}`,
    whale)).status, 200);
  assert.is((await get(t.url + `/api/v1/wallets/0x${'cd'.repeat(20)}`, whale)).json.code,
    'not_found');
  assert.is((await get(t.url + '/api/v1/wallets/0x123', whale)).status, 400);
});

errors('unknown paths 404, other methods 405 with Allow, OPTIONS 204 without quota', async () => {
  for (const path of ['/', '/api', '/api/v1', '/api/v1/', '/api/v2/screener', '/screener',
    '/api/v1/screener/', '/api/v1/export/other.csv']) {
    const r = await get(t.url + path, bearer(t.keyOf.Whale));
    assert.is(r.status, 404, path);
    assert.is(r.headers.get('content-type'), 'application/problem+json');
  }
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
    const r = await get(t.url + '/api/v1/screener', {}, method);
    assert.is(r.status, 405);
    assert.is(r.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.is(r.json.code, 'method_not_allowed');
  }
  const before = (await get(t.url + '/api/v1/usage', bearer(t.keyOf.Pro))).json.used;
  const pre = await get(t.url + '/api/v1/signals', {
    'origin': 'https://app.example', 'access-control-request-method': 'GET',
    'access-control-request-headers': 'authorization' }, 'OPTIONS');
  assert.is(pre.status, 204);
  assert.match(pre.headers.get('access-control-allow-headers')!, /Authorization/);
  assert.match(pre.headers.get('access-control-allow-headers')!, /x-api-key/);
  assert.is(pre.headers.get('access-control-allow-origin'), '*');
  assert.is((await get(t.url + '/api/v1/usage', bearer(t.keyOf.Pro))).json.used, before);
  const head = await get(t.url + '/api/v1/screener', {}, 'HEAD');
  assert.is(head.status, 200);
  assert.is(head.text, '');
  assert.ok(Number(head.headers.get('content-length')) > 100);
});

errors('an overlong URL is 414 problem+json', async () => {
  const r = await get(t.url + '/api/v1/screener?api_key=' + 'a'.repeat(2100));
  assert.is(r.status, 414);
  assert.is(r.json.code, 'bad_request');
});

errors('CORS exposes the rate-limit, ETag and cadence headers', async () => {
  const r = await get(t.url + '/api/v1/screener', { origin: 'https://x.example' });
  assert.is(r.headers.get('access-control-allow-origin'), '*');
  const exposed = r.headers.get('access-control-expose-headers')!;
  for (const h of ['ETag', 'RateLimit', 'RateLimit-Policy', 'Retry-After',
    'X-Producer-Cadence-Ms']) assert.ok(exposed.includes(h), h);
});

errors.run();
