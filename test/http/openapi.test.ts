// The OpenAPI document against the real server: every route documented, every documented
// answer validated with ajv (JSON Schema 2020-12), errors included.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildOpenApiDocument } from '../../http/openapi/document.js';
import { bearer, get, startTestServer, type TestServer } from './helpers/harness.js';
import { WALLET } from './helpers/seed.js';
import { encodePairViews } from '../../actors/shard/pair-views.js';
import {
  createPairAnalytics, createPairSnapshot, onTrade, snapshotPairAnalytics,
} from '../../kernels/index.js';

const addFormats = formats as unknown as typeof formats.default;
const doc = buildOpenApiDocument() as any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...doc, $id: 'openapi' });

const pointer = (...parts: string[]) =>
  'openapi#/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function check(schemaRef: string, body: unknown, label: string): void {
  const valid = ajv.validate({ $ref: schemaRef }, body);
  assert.ok(valid, `${label}: ${ajv.errorsText(ajv.errors)}`);
}

let t: TestServer;
const openapi = suite('openapi');
openapi.before(async () => {
  t = await startTestServer({ config: { keylessDailyLimit: 1_000 } });
});
openapi.after(() => t.close());
openapi.before.each(() => t.clock.advance(61_000));

openapi('the document is OpenAPI 3.1, version 1.0.0, and every schema compiles', () => {
  assert.is(doc.openapi, '3.1.0');
  assert.is(doc.info.version, '1.0.0');
  for (const name of Object.keys(doc.components.schemas)) {
    assert.ok(ajv.getSchema(pointer('components', 'schemas', name)), name);
  }
});

openapi('the key requirement follows the authentication rule', () => {
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    if (path.startsWith('/api/v1/account/')) continue; // the session's (dashboard tests)
    const security = item.get.security;
    if (/\/(screener|pair\/\{symbol\})$/.test(path)) assert.equal(security[0], {}, path);
    else if (path.startsWith('/api/v1/') && !path.endsWith('openapi.json')) {
      assert.ok(security.length === 3 && !security.some((s: object) =>
        Object.keys(s).length === 0), path);
    } else assert.equal(security, [], path);
  }
});

const samples: [string, string, Record<string, string>][] = [
  ['/api/v1/screener', '/api/v1/screener', {}],
  ['/api/v1/pair/{symbol}', '/api/v1/pair/BTC', {}],
  ['/api/v1/pair/{symbol}', '/api/v1/pair/xyz:TSLA', {}],
  ['/api/v1/signals', '/api/v1/signals', {}],
  ['/api/v1/smart-money', '/api/v1/smart-money', {}],
  ['/api/v1/deep-view/{symbol}', '/api/v1/deep-view/BTC', {}],
  ['/api/v1/funding-arb', '/api/v1/funding-arb', {}],
  ['/api/v1/usage', '/api/v1/usage', {}],
  ['/api/v1/cvd/{symbol}', '/api/v1/cvd/BTC?interval=15m&limit=3', {}],
  ['/api/v1/liquidation-map/{symbol}', '/api/v1/liquidation-map/BTC', {}],
  ['/api/v1/wallets', '/api/v1/wallets', {}],
  ['/api/v1/wallets/{address}', `/api/v1/wallets/${WALLET}`, {}],
  ['/api/v1/openapi.json', '/api/v1/openapi.json', {}],
  ['/api/v1/history/{symbol}', '/api/v1/history/BTC?interval=1m&metrics=candle,regime', {}],
  ['/api/v1/signals/history', '/api/v1/signals/history?grade=B', {}],
  ['/api/v1/signals/performance', '/api/v1/signals/performance?groupBy=logic', {}],
  ['/api/v1/footprint/{symbol}', '/api/v1/footprint/BTC?timeframe=5m&bars=2', {}],
  ['/api/v1/footprint/{symbol}', '/api/v1/footprint/BTC?timeframe=1h', {}],
  ['/api/v1/volume-profile/{symbol}', '/api/v1/volume-profile/BTC', {}],
  ['/api/v1/volume-profile/{symbol}', '/api/v1/volume-profile/BTC?session=yesterday', {}],
  ['/healthz', '/healthz', {}],
  ['/readyz', '/readyz', {}],
];

openapi('every documented path is served, and every route is documented', async () => {
  const documented = Object.keys(doc.paths)
    .filter((path) => !path.startsWith('/api/v1/account/')).sort();
  const sampled = [...new Set([...samples.map(([p]) => p), '/api/v1/export/{view}.csv',
    '/metrics'])].sort();
  assert.equal(documented, sampled);
});

openapi('real 200 answers validate against their documented schemas', async () => {
  for (const [path, url, headers] of samples) {
    const r = await get(t.url + url, { ...bearer(t.keyOf.API), ...headers });
    assert.is(r.status, 200, url);
    check(pointer('paths', path, 'get', 'responses', '200', 'content', 'application/json',
      'schema'), r.json, url);
    for (const header of Object.keys(doc.paths[path].get.responses['200'].headers)) {
      if (header.startsWith('RateLimit') && path.startsWith('/api/v1/openapi')) continue;
      assert.ok(r.headers.get(header) !== null, `${url} sends ${header}`);
    }
  }
});

openapi('the deep view the shard writes, whale prints included, follows its schema', () => {
  const s = createPairAnalytics({ whaleFallbackUsd: 1000, whaleFloorUsd: 0 });
  const t0 = Date.parse('2026-02-06T15:00:00Z');
  onTrade(s, t0, 100, 20, -1);
  onTrade(s, t0 + 1, 101, 30, 1);
  onTrade(s, t0 + 2, 101, 0.1, 1);
  const snapshot = snapshotPairAnalytics(s, createPairSnapshot(s.options));
  const bytes = encodePairViews('BTC', snapshot, new Map([[t0 + 1, '0xab']]),
    { updatedAtMs: t0 + 2, cadenceMs: 1000, stale: false, asOfMs: t0 + 2, basis: 'trades' })[
      'deep-view'];
  // The main thread splices smartMoney in from wallet positions.
  const view = { ...JSON.parse(Buffer.from(bytes).toString()),
    smartMoney: { long: {}, short: {}, net: 0 } };
  assert.equal(view.whales.map((w: any) => [w.side, w.address]),
    [['buy', '0xab'], ['sell', null]]);
  check(pointer('components', 'schemas', 'DeepView'), view, 'deep view with whales');
  view.whales[0].side = 'long';
  assert.not.ok(ajv.validate({ $ref: pointer('components', 'schemas', 'DeepView') }, view));
});

openapi('the schemas refuse wrong shapes (they can fail)', () => {
  const pairSchema = pointer('components', 'schemas', 'PairDetail');
  assert.not.ok(ajv.validate({ $ref: pairSchema }, { symbol: 'BTC' }));
  const signal = pointer('components', 'schemas', 'SignalScore');
  const good = { symbol: 'BTC', score: 5, direction: 'LONG', vpin: 0.5, cvd: 1,
    regime: 'trending', fundingAnnualized: 1 };
  assert.ok(ajv.validate({ $ref: signal }, good));
  for (const bad of [{ score: 101 }, { score: 1.5 }, { vpin: 1.2 }, { direction: 'UP' },
    { regime: 'calm' }]) {
    assert.not.ok(ajv.validate({ $ref: signal }, { ...good, ...bad }), JSON.stringify(bad));
  }
});

openapi('error answers validate against Problem and are documented per path', async () => {
  const cases: [string, string, Record<string, string>, number][] = [
    ['/api/v1/pair/{symbol}', '/api/v1/pair/NOPE', {}, 404],
    ['/api/v1/pair/{symbol}', '/api/v1/pair/%00', {}, 400],
    ['/api/v1/signals', '/api/v1/signals', {}, 401],
    ['/api/v1/deep-view/{symbol}', '/api/v1/deep-view/BTC', bearer(t.keyOf.Pro), 403],
    ['/api/v1/cvd/{symbol}', '/api/v1/cvd/xyz:TSLA', bearer(t.keyOf.API), 404],
    ['/api/v1/cvd/{symbol}', '/api/v1/cvd/BTC?limit=0', bearer(t.keyOf.API), 400],
    ['/api/v1/history/{symbol}', '/api/v1/history/BTC?interval=2h', bearer(t.keyOf.API), 400],
    ['/api/v1/history/{symbol}', '/api/v1/history/NOPE', bearer(t.keyOf.API), 404],
    ['/api/v1/signals/performance', '/api/v1/signals/performance', bearer(t.keyOf.Trader),
      403],
  ];
  for (const [path, url, headers, status] of cases) {
    const r = await get(t.url + url, headers);
    assert.is(r.status, status, url);
    assert.ok(doc.paths[path].get.responses[String(status)], `${path} documents ${status}`);
    check(pointer('components', 'schemas', 'Problem'), r.json, url);
  }
  const csv = await get(t.url + '/api/v1/export/funding-arb.csv', bearer(t.keyOf.API));
  assert.is(csv.status, 200);
  assert.match(csv.headers.get('content-type')!, /^text\/csv/);
});

openapi.run();
