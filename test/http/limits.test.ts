// Burst guard and daily quota over HTTP: 429 bodies and headers, usage, trusted proxies.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearer, get, startTestServer, type TestServer } from './helpers/harness.js';
import { keyFor } from './helpers/seed.js';

let t: TestServer;
const limits = suite('limits');
limits.before(async () => {
  t = await startTestServer({ config: { keylessDailyLimit: 5, trustProxy: ['127.0.0.1'] } });
});
limits.after(() => t.close());
limits.before.each(() => t.clock.advance(61_000));

limits('the 11th deep view in a minute is 429 rate_limited with an exact Retry-After',
  async () => {
    const key = bearer(t.keyOf.Whale);
    for (let i = 0; i < 10; i++) {
      assert.is((await get(t.url + '/api/v1/deep-view/BTC', key)).status, 200);
      t.clock.advance(1_000);
    }
    const r = await get(t.url + '/api/v1/deep-view/BTC', key);
    assert.is(r.status, 429);
    assert.is(r.headers.get('retry-after'), '50');
    assert.equal(
      { ...r.json, detail: undefined },
      { type: 'urn:orderflow:problem:rate_limited', title: 'Too many requests', status: 429,
        detail: undefined, code: 'rate_limited', scope: 'deep-view', limit: 10,
        windowSeconds: 60, retryAfterSeconds: 50 });
    assert.match(r.headers.get('ratelimit')!, /"burst";r=0;t=50/);
    assert.is((await get(t.url + '/api/v1/cvd/BTC', key)).status, 200, 'cvd has its own scope');
    t.clock.advance(50_000);
    assert.is((await get(t.url + '/api/v1/deep-view/BTC', key)).status, 200);
  });

limits('daily quota per key: Free gets 20, then 429 quota_exceeded; usage still answers',
  async () => {
    const key = bearer(t.keyOf.Free);
    for (let i = 0; i < 20; i++) {
      assert.is((await get(t.url + '/api/v1/screener', key)).status, 200, `request ${i}`);
    }
    const r = await get(t.url + '/api/v1/pair/BTC', key);
    assert.is(r.status, 429);
    assert.is(r.json.code, 'quota_exceeded');
    assert.is(r.json.limit, 20);
    assert.is(r.json.used, 20);
    assert.is(r.json.resetsAt, '2026-11-22T23:00:00.000Z');
    assert.is(Number(r.headers.get('retry-after')),
      Math.ceil((Date.parse(r.json.resetsAt) - t.clock.nowMs()) / 1000));
    const usage = await get(t.url + '/api/v1/usage', key);
    assert.is(usage.status, 200);
    assert.equal({ ...usage.json }, { plan: 'Free', limit: 20, used: 20, remaining: 0,
      resetsAt: '2026-11-22T23:00:00.000Z', timeZone: 'Europe/Rome', grandfathered: false,
      grandfatheredUntil: null });
    assert.match(usage.headers.get('ratelimit-policy')!, /"daily";q=20;w=86400/);
    const etag = (await get(t.url + '/api/v1/screener')).headers.get('etag')!;
    const revalidated = await get(t.url + '/api/v1/screener', { ...key, 'if-none-match': etag });
    assert.is(revalidated.status, 304, 'a revalidation needs no daily quota');
  });

limits('keyless: per client IP; behind a trusted proxy X-Forwarded-For names the client',
  async () => {
    const from = (ip: string) => ({ 'x-forwarded-for': `203.0.113.9, ${ip}` });
    for (let i = 0; i < 5; i++) {
      assert.is((await get(t.url + '/api/v1/pair/BTC', from('198.51.100.1'))).status, 200);
    }
    const over = await get(t.url + '/api/v1/pair/BTC', from('198.51.100.1'));
    assert.is(over.status, 429);
    assert.is(over.json.limit, 5);
    assert.is((await get(t.url + '/api/v1/pair/BTC', from('198.51.100.2'))).status, 200);
    assert.is(t.usage.get('ip:198.51.100.1', '2026-11-22'), 5);
    assert.is(t.usage.get('ip:203.0.113.9', '2026-11-22'), 0, 'only the right-most untrusted');
  });

limits('a key has a burst window per client IP (the same key from two clients)', async () => {
  const key = bearer(t.keyOf.Whale);
  const from = (ip: string) => ({ ...key, 'x-forwarded-for': ip });
  const remaining = async (ip: string) => /"burst";r=(\d+)/
    .exec((await get(t.url + '/api/v1/pair/BTC', from(ip))).headers.get('ratelimit')!)?.[1];
  assert.is(await remaining('198.51.100.5'), '59');
  assert.is(await remaining('198.51.100.5'), '58');
  assert.is(await remaining('198.51.100.6'), '59', 'its own window');
  assert.is(await remaining('198.51.100.5'), '57');
});

limits('a key is counted under its prefix, never under the IP', async () => {
  const key = keyFor(42);
  t.keys.add(key, 'Pro');
  assert.is((await get(t.url + '/api/v1/smart-money', bearer(key))).status, 200);
  assert.is(t.usage.get(`key:${key.slice(0, 12)}`, '2026-11-22'), 1);
});

limits.run();

const untrusted = suite('untrusted proxy');
untrusted.before(async () => {
  t = await startTestServer({ config: { keylessDailyLimit: 2 } });
});
untrusted.after(() => t.close());

untrusted('X-Forwarded-For from an untrusted peer is ignored', async () => {
  for (const ip of ['198.51.100.1', '198.51.100.2']) {
    assert.is((await get(t.url + '/api/v1/pair/BTC', { 'x-forwarded-for': ip })).status, 200);
  }
  const r = await get(t.url + '/api/v1/pair/BTC', { 'x-forwarded-for': '198.51.100.3' });
  assert.is(r.status, 429);
  assert.is(t.usage.get('ip:127.0.0.1', '2026-11-22'), 2);
});

untrusted.run();
