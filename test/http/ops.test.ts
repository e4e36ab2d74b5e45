// Operations endpoints, CORS origins, raw mounts, limits off and close().
import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RawMount } from '../../http/server.js';
import { bearer, get, startTestServer, type TestServer } from './helpers/harness.js';

let t: TestServer;
const seen: string[] = [];
const mount: RawMount = {
  path: '/api/mcp',
  methods: ['POST'],
  handle(res, req, ctx) {
    seen.push(`${req.getMethod()} ${ctx.ip}`);
    res.writeStatus('202 Accepted').end('mounted');
  },
};

const ops = suite('ops');
ops.before(async () => {
  t = await startTestServer({ mounts: [mount],
    config: { corsOrigins: ['https://app.example'], trustProxy: ['127.0.0.1'] } });
});
ops.after(() => t.close());

ops('healthz and readyz (503 when not ready), outside quotas', async () => {
  assert.equal((await get(t.url + '/healthz')).json, { status: 'ok' });
  assert.is((await get(t.url + '/readyz')).status, 200);
  t.ready = false;
  const r = await get(t.url + '/readyz');
  assert.is(r.status, 503);
  assert.equal(r.json, { ready: false, checks: { feeds: false, snapshots: true } });
  t.ready = true;
  assert.is(t.usage.counts.size, 0);
});

ops('metrics: loopback only, refused when relayed from a non-loopback client', async () => {
  const r = await get(t.url + '/metrics');
  assert.is(r.status, 200);
  assert.match(r.text, /orderflow_http_responses_total\{route="readyz",status="503"\} 1/);
  assert.match(r.text, /orderflow_runtime_test 1/);
  assert.match(r.headers.get('content-type')!, /^text\/plain/);
  const relayed = await get(t.url + '/metrics', { 'x-forwarded-for': '198.51.100.7' });
  assert.is(relayed.status, 404);
});

ops('CORS with configured origins: echo an allowed Origin, Vary on it, none for others',
  async () => {
    const allowed = await get(t.url + '/api/v1/screener', { origin: 'https://app.example' });
    assert.is(allowed.headers.get('access-control-allow-origin'), 'https://app.example');
    // The screener is large enough to have a gzip form: both Vary lines, as fetch joins them.
    assert.is(allowed.headers.get('vary'), 'Accept-Encoding, Origin');
    const other = await get(t.url + '/api/v1/screener', { origin: 'https://evil.example' });
    assert.is(other.headers.get('access-control-allow-origin'), null);
  });

ops('mounts get their methods with the client IP; other methods 405, OPTIONS 204', async () => {
  const r = await get(t.url + '/api/mcp', { 'x-forwarded-for': '198.51.100.8' }, 'POST');
  assert.is(r.status, 202);
  assert.is(r.text, 'mounted');
  assert.equal(seen, ['post 198.51.100.8']);
  const g = await get(t.url + '/api/mcp');
  assert.is(g.status, 405);
  assert.is(g.headers.get('allow'), 'POST');
  assert.is((await get(t.url + '/api/mcp', {}, 'OPTIONS')).status, 204);
});

ops('openapi.json: no key, outside quotas, with an ETag', async () => {
  const r = await get(t.url + '/api/v1/openapi.json', bearer('ofk_' + 'f'.repeat(32)));
  assert.is(r.status, 200);
  assert.is(r.json.info.version, '1.0.0');
  const again = await get(t.url + '/api/v1/openapi.json',
    { 'if-none-match': r.headers.get('etag')! });
  assert.is(again.status, 304);
});

ops.run();

const lifecycle = suite('lifecycle');

lifecycle('limits off: no burst guard, no daily quota, no RateLimit headers; plans still apply',
  async () => {
    const s = await startTestServer({ config: { limitsEnabled: false, keylessDailyLimit: 1 } });
    try {
      for (let i = 0; i < 15; i++) {
        const r = await get(s.url + '/api/v1/deep-view/BTC', bearer(s.keyOf.Whale));
        assert.is(r.status, 200);
        assert.is(r.headers.get('ratelimit'), null);
      }
      for (let i = 0; i < 3; i++) assert.is((await get(s.url + '/api/v1/pair/BTC')).status, 200);
      assert.is((await get(s.url + '/api/v1/deep-view/BTC', bearer(s.keyOf.Pro))).status, 403);
    } finally {
      await s.close();
    }
  });

lifecycle('close() stops listening and drops idle keep-alive connections', async () => {
  const s = await startTestServer();
  const socket = connect(s.server.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  await s.close();
  await closed;
  await s.close();
  const refused = await new Promise((resolve) => {
    const probe = connect(s.server.port, '127.0.0.1');
    probe.once('error', () => resolve(true));
    probe.once('connect', () => { probe.destroy(); resolve(false); });
  });
  assert.ok(refused, 'the port no longer accepts connections');
});

lifecycle.run();
