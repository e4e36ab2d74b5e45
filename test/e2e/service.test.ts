// The whole service in one process, as `orderflow serve` runs it: simulator feed, shard workers,
// real store, real uWS front. Real responses are checked against the OpenAPI document, keys made
// with the admin command line are seen live, MCP answers, and a crashed shard comes back.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { resolveConfig } from '../../core/config.js';
import { roundSignificant } from '../../core/json-numbers.js';
import { silentLogger } from '../../core/logger.js';
import { startService, type Service } from '../../bin/service.js';
import { buildOpenApiDocument } from '../../http/openapi/document.js';
import { webhookEnvelopeSchema } from '../../http/openapi/webhooks.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { runCli } from '../helpers/cli.js';

const addFormats = formats as unknown as typeof formats.default;
const doc = buildOpenApiDocument() as any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...doc, $id: 'openapi' });

/** Validates a body against the documented 200 (or error) response of a path. */
function conforms(path: string, status: number, body: unknown): void {
  const escaped = path.replace(/~/g, '~0').replace(/\//g, '~1');
  const ref = `openapi#/paths/${escaped}/get/responses/${status}/content/` +
    (status === 200 ? 'application~1json' : 'application~1problem+json') + '/schema';
  const valid = ajv.validate({ $ref: ref }, body);
  assert.ok(valid, `${path} ${status}: ${ajv.errorsText(ajv.errors).slice(0, 600)}`);
}

const e2e = suite('service end to end');
let service: Service;
let dataDir: string;
const keys: Record<string, string> = {};

function cli(...args: string[]): Promise<string> {
  return runCli([...args, '--data-dir', dataDir], { ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS: '1' });
}

async function createKey(plan: string): Promise<string> {
  return JSON.parse(await cli('keys', 'create', '--plan', plan, '--json')).key as string;
}

interface Delivery { headers: Record<string, string | string[] | undefined>; body: string }
const deliveries: Delivery[] = [];
let receiver: Server;
let receiverUrl = '';

async function get(path: string, key?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const response = await fetch(`${service.baseUrl}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

e2e.before(async () => {
  dataDir = join(await tempDir(), 'data');
  const config = resolveConfig({
    port: 0, dataDir, shards: 2, cadenceMs: 200, universeCadenceMs: 1_000, logLevel: 'silent',
    keylessDailyLimit: 1_000, allowPrivateWebhooks: true,
    allowedOrigins: ['https://agent.example'],
  });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  service = await startService(config, { logger: silentLogger, allowShardCrash: true });
  keys.free = await createKey('Free');
  keys.whale = await createKey('Whale');
  // The 168 h simulator warm-up runs first: a shared CI core can make it several times slower.
  await eventually(async () => (await get('/readyz')).status === 200, { timeoutMs: 90_000 });
});

e2e.after(async () => {
  await service?.stop();
  receiver?.close();
});

e2e('the screener lists 170+ markets, delisted and builder ones included', async () => {
  const { status, body } = await get('/api/v1/screener');
  assert.is(status, 200);
  conforms('/api/v1/screener', 200, body);
  assert.ok(body.count >= 170, `count ${body.count}`);
  const delisted = body.pairs.filter((p: any) => p.delisted);
  assert.ok(delisted.length > 0);
  assert.ok(delisted.every((p: any) => p.volume24h === 0 && p.openInterest === 0));
  assert.ok(body.pairs.some((p: any) => p.symbol.includes(':')), 'builder markets');
  assert.is(body.pairs.filter((p: any) => p.tracked).length, 100);
});

e2e('pair detail of a tracked pair carries orderflow fields; keyless works', async () => {
  await eventually(async () => (await get('/api/v1/pair/BTC')).body.signalScore !== null,
    { timeoutMs: 10_000 });
  const { status, body } = await get('/api/v1/pair/BTC');
  assert.is(status, 200);
  conforms('/api/v1/pair/{symbol}', 200, body);
  assert.is(body.tracked, true);
  assert.ok(Number.isInteger(body.signalScore) && Math.abs(body.signalScore) <= 100);
  assert.ok(['LONG', 'SHORT', 'NEUTRAL'].includes(body.signalDirection));
  // A computed figure: written with 10 significant digits (docs/api.md).
  assert.is(body.fundingAnnualized, roundSignificant(body.fundingRate * 24 * 365 * 100));
});

e2e('keys made by the command line are seen live: 401, 403 and 200 by plan', async () => {
  assert.is((await get('/api/v1/signals')).status, 401);
  const forbidden = await eventually(async () => {
    const r = await get('/api/v1/signals', keys.free);
    return r.status === 403 ? r : null;
  }, { timeoutMs: 5_000, message: 'the server saw the new Free key' });
  assert.is(forbidden.body.requiredPlan, 'Trader');
  assert.is(forbidden.body.plan, 'Free');
  // Pairs enter the signals view as their shards first publish.
  const signals = await eventually(async () => {
    const r = await get('/api/v1/signals', keys.whale);
    return r.status === 200 && Object.keys(r.body).length > 0 ? r : null;
  }, { timeoutMs: 10_000, message: 'signals with pairs' });
  conforms('/api/v1/signals', 200, signals.body);
});

for (const path of ['/api/v1/deep-view/BTC', '/api/v1/cvd/BTC', '/api/v1/funding-arb',
  '/api/v1/smart-money', '/api/v1/wallets', '/api/v1/liquidation-map/BTC', '/api/v1/usage']) {
  e2e(`${path} answers a Whale key with a documented body`, async () => {
    const template = path.replace(/\/BTC$/, '/{symbol}');
    const { status, body } = await eventually(async () => {
      const r = await get(path, keys.whale);
      return r.status === 200 ? r : null;
    }, { timeoutMs: 20_000, message: `${path} served` });
    assert.is(status, 200);
    conforms(template, 200, body);
  });
}

e2e('a listed wallet\'s own view is served, the same wallet as in the list', async () => {
  // Both are built in the views worker; the front holds each wallet's bytes it sent.
  const listed = await eventually(async () => {
    const r = await get('/api/v1/wallets', keys.whale);
    return r.status === 200 && r.body.wallets.length > 0 ? r.body.wallets[0] : null;
  }, { timeoutMs: 20_000, message: 'a wallet with a state' });
  const { status, body } = await get(`/api/v1/wallets/${listed.address}`, keys.whale);
  assert.is(status, 200);
  assert.is(body.address, listed.address);
  conforms('/api/v1/wallets/{address}', 200, body);
});

e2e('the deep view carries the smart-money split by category', async () => {
  const { body } = await get('/api/v1/deep-view/ETH', keys.whale);
  assert.ok(body.smartMoney && typeof body.smartMoney.net === 'number');
  assert.ok('fund' in body.smartMoney.long && 'insider' in body.smartMoney.short);
});

e2e("the track record counts the warm-up's signals, evaluated from its stored bars", async () => {
  // The warm-up's week of signals sent nothing (the past), but their outcomes are due at once:
  // the track record has evaluated ones from the first rounds, no four-hour wait.
  const evaluated = async () => {
    const { status, body } = await get('/api/v1/signals/performance?window=30d&groupBy=grade',
      keys.whale);
    assert.is(status, 200, JSON.stringify(body));
    return (body.groups as { count: number; evaluated: number }[])
      .reduce((sum, g) => sum + g.evaluated, 0);
  };
  // Polled gently: the history scope's burst limit is 30 a minute.
  await eventually(async () => await evaluated() > 0, { timeoutMs: 60_000, intervalMs: 2_500,
    message: 'warm-up signals evaluated' });
  // Signals older than their four hours carry an outcome in the history.
  const end = new Date(Date.now() - 5 * 3_600_000).toISOString();
  await eventually(async () => {
    const { body } = await get(`/api/v1/signals/history?limit=50&end=${end}`, keys.whale);
    return body.signals.length > 0 && body.signals.some((x: { outcome: unknown }) =>
      typeof x.outcome === 'object' && x.outcome !== null);
  }, { timeoutMs: 30_000, intervalMs: 2_500,
    message: 'an evaluated signal carries its outcome in the history' });
});

e2e('unknown and untracked symbols are told apart', async () => {
  const unknown = await get('/api/v1/deep-view/NOSUCHCOIN', keys.whale);
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'unknown_symbol');
  const screener = (await get('/api/v1/screener')).body;
  const untracked = screener.pairs.find((p: any) => !p.tracked && !p.delisted);
  const notTracked = await get(`/api/v1/deep-view/${encodeURIComponent(untracked.symbol)}`,
    keys.whale);
  assert.is(notTracked.status, 404);
  assert.is(notTracked.body.code, 'not_tracked');
});

e2e('MCP: the public endpoint lists five tools and serves the screener', async () => {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  const url = new URL(`${service.baseUrl}/api/mcp/public`);
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    const { tools } = await client.listTools();
    assert.is(tools.length, 5);
    const result = await client.callTool({ name: 'get_market_summary', arguments: {} });
    assert.not.ok(result.isError, JSON.stringify(result.content));
  } finally {
    await client.close();
  }
});

e2e('MCP: CORS for a listed origin, 403 for another; preflight allows MCP headers', async () => {
  // A browser origin that is not listed is refused: a page must not reach a local service.
  const foreign = await fetch(`${service.baseUrl}/api/mcp/public`, { method: 'OPTIONS',
    headers: { origin: 'https://other.example', 'access-control-request-method': 'POST' } });
  assert.is(foreign.status, 403);
  await foreign.body?.cancel();
  const preflight = await fetch(`${service.baseUrl}/api/mcp/public`, { method: 'OPTIONS',
    headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST' } });
  assert.is(preflight.status, 204);
  assert.match(String(preflight.headers.get('access-control-allow-headers')), /Mcp-Session-Id/);
  const response = await fetch(`${service.baseUrl}/api/mcp/public`, { method: 'POST',
    headers: { origin: 'https://agent.example', 'content-type': 'application/json',
      accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
      protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  });
  assert.is(response.status, 200);
  assert.is(response.headers.get('access-control-allow-origin'), '*');
  assert.match(String(response.headers.get('access-control-expose-headers')), /Mcp-Session-Id/);
  await response.body?.cancel();
});

e2e('a shard that crashes is restarted and its pairs publish again', async () => {
  const shard = service.runtime.shards[0];
  const symbol = shard.pairs[0];
  const generation = shard.generation;
  await shard.request('crash', 'throw');
  await eventually(() => shard.generation > generation && shard.state === 'running',
    { timeoutMs: 15_000, message: 'shard restarted' });
  const before = (await get(`/api/v1/deep-view/${symbol}`, keys.whale)).body.updatedAt;
  await eventually(async () =>
    (await get(`/api/v1/deep-view/${symbol}`, keys.whale)).body.updatedAt !== before,
  { timeoutMs: 15_000, message: 'the pair publishes again' });
  assert.is((await get('/healthz')).status, 200);
});

/** Checks a delivery the way a receiver must: HMAC over `<timestamp>.<raw body>`. */
function verify(delivery: Delivery, secret: string): boolean {
  const timestamp = String(delivery.headers['x-service-timestamp']);
  const expected = 'v1=' + createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`)
    .digest('hex');
  return String(delivery.headers['x-service-signature']).split(',').includes(expected);
}

e2e('webhooks: a test event and a screener alert arrive signed and documented', async () => {
  const prefix = JSON.parse(await cli('keys', 'list', '--json'))
    .find((k: { plan: string }) => k.plan === 'Whale').prefix as string;
  const endpoint = JSON.parse(await cli('webhooks', 'add', '--key', prefix, '--url', receiverUrl,
    '--json')) as { id: string; secret: string };
  await cli('webhooks', 'test', endpoint.id);
  await cli('alerts', 'add', '--key', prefix, '--kind', 'screener', '--symbol', 'BTC', '--field',
    'price', '--above', '1', '--webhook', receiverUrl);
  const byType = (type: string) =>
    deliveries.find((d) => d.headers['x-service-event'] === type);
  // Both are due within ~2 s (alerts reload every second, the outbox is polled every 250 ms);
  // the margin is for a loaded CI machine, and the message says what did arrive.
  const arrived = () => deliveries.map((d) =>
    `${String(d.headers['x-service-event'])} #${String(d.headers['x-service-attempt'])}`);
  await eventually(() => byType('test') && byType('alert.triggered'),
    { timeoutMs: 30_000, message: 'test event and alert delivered' })
    .catch((error: Error) => {
      throw new Error(`${error.message}; arrived: ${arrived().join(', ') || 'none'}`);
    });
  for (const type of ['test', 'alert.triggered'] as const) {
    const delivery = byType(type)!;
    assert.ok(verify(delivery, endpoint.secret), `${type} signature`);
    const envelope = JSON.parse(delivery.body) as { id: string };
    const valid = ajv.validate(webhookEnvelopeSchema(type), envelope);
    assert.ok(valid, `${type}: ${ajv.errorsText(ajv.errors)}`);
    assert.is(delivery.headers['x-service-event-id'], envelope.id);
    assert.is(delivery.headers['x-service-attempt'], '1');
  }
  const alert = JSON.parse(byType('alert.triggered')!.body).data;
  assert.is(alert.alert_kind, 'screener');
  assert.is(alert.symbol, 'BTC');
  assert.type(alert.funding_annualized_pct, 'number');
});

e2e.run();
