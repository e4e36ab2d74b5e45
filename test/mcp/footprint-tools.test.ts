// get_footprint and get_volume_profile through the MCP SDK's client, over the REST front's real
// AccessControl and a real lmdb footprint store: the REST answers as structured content that
// validates against the listed output schemas, the Whale plan gate, argument errors, and the
// footprint's burst scope of 10 a minute.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { resolveConfig } from '../../core/config.js';
import { createAccessControl } from '../../http/access.js';
import { createMcpData } from '../../http/mcp-data.js';
import { bearer, get, startTestServer, type TestServer as RestServer }
  from '../http/helpers/harness.js';
import { footprintRecord, keyFor, MemoryUsage, T0 } from '../http/helpers/seed.js';
import { call, connect, startServer, textOf, type TestServer } from './mcp-helpers.js';

const FIVE = 300_000;
const open5m = Math.floor(T0 / FIVE) * FIVE;

let rest: RestServer;
let server: TestServer;
const clients: Client[] = [];
let tools: Tool[] = [];

async function clientFor(key: string): Promise<Client> {
  const { client } = await connect(server, '/api/mcp', key);
  clients.push(client);
  // Listing caches the output schemas: the SDK's client then checks every answer against them.
  tools = (await client.listTools()).tools;
  return client;
}

test.before(async () => {
  rest = await startTestServer();
  for (let k = 2; k <= 6; k++) rest.footprints.add(footprintRecord('5m', open5m - k * FIVE));
  rest.footprints.add({ ...footprintRecord('5m', open5m - 86_400_000), firstLevel: 40_000 });
  await rest.footprints.flush();
  server = await startServer({
    data: createMcpData(rest.store, undefined, rest.footprints),
    accessFor: (clock) => createAccessControl({ config: resolveConfig({}), clock,
      usage: new MemoryUsage(), keys: rest.keys }),
  });
});

test.after(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.close();
  await rest.close();
});

test('both tools are listed with input and output schemas', async () => {
  await clientFor(rest.keyOf.Whale);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const footprint = byName.get('get_footprint');
  const profile = byName.get('get_volume_profile');
  assert.ok(footprint && profile, 'both listed');
  assert.equal(Object.keys(footprint.inputSchema.properties ?? {}),
    ['symbol', 'timeframe', 'bars']);
  assert.equal(Object.keys(profile.inputSchema.properties ?? {}),
    ['symbol', 'session', 'start', 'end']);
  const out = footprint.outputSchema?.properties as Record<string, Record<string, unknown>>;
  assert.ok(out.bars && out.levelSize && out.updatedAt, 'footprint output described');
  const profileOut = profile.outputSchema?.properties as Record<string, unknown>;
  for (const field of ['pocPrice', 'valueAreaHigh', 'valueAreaLow', 'levels', 'nakedPocs']) {
    assert.ok(profileOut[field], `volume profile output has ${field}`);
  }
});

test('a Whale key gets the REST answers as structured content that validates', async () => {
  const whale = await clientFor(rest.keyOf.Whale);
  const validator = new AjvJsonSchemaValidator();
  const schemaOf = (name: string) => tools.find((t) => t.name === name)!.outputSchema!;
  const cases: [string, Record<string, unknown>, string][] = [
    ['get_footprint', { symbol: 'btc', timeframe: '5m', bars: 4 },
      '/api/v1/footprint/BTC?timeframe=5m&bars=4'],
    ['get_footprint', { symbol: 'BTC', timeframe: '1h' }, '/api/v1/footprint/BTC?timeframe=1h'],
    ['get_volume_profile', { symbol: 'BTC' }, '/api/v1/volume-profile/BTC'],
    ['get_volume_profile', { symbol: 'BTC', session: 'yesterday' },
      '/api/v1/volume-profile/BTC?session=yesterday'],
    ['get_volume_profile', { symbol: 'BTC', start: new Date(open5m - 3 * FIVE).toISOString(),
      end: String(open5m) }, `/api/v1/volume-profile/BTC?start=${open5m - 3 * FIVE}` +
      `&end=${open5m}`],
  ];
  for (const [tool, args, path] of cases) {
    const result = await call(whale, tool, args);
    assert.not.ok(result.isError, textOf(result));
    const check = validator.getValidator(schemaOf(tool));
    assert.ok(check(result.structuredContent).valid, `${tool} validates`);
    rest.clock.advance(61_000);
    const answer = await get(rest.url + path, bearer(rest.keyOf.Whale));
    assert.is(answer.status, 200, path);
    assert.equal(result.structuredContent, answer.json, `${tool} answers as ${path}`);
  }
  const bars = (await call(whale, 'get_footprint', { symbol: 'BTC', bars: 4 }))
    .structuredContent as { bars: { levels: { price: unknown }[] }[] };
  assert.is(bars.bars.length, 4);
  assert.match(textOf(await call(whale, 'get_footprint', { symbol: 'BTC', bars: 2 })),
    /2 5m footprint bars of BTC, level size 2/);
  // The schema has teeth: a level priced as text is refused.
  bars.bars[0].levels[0].price = '97000';
  assert.not.ok(validator.getValidator(schemaOf('get_footprint'))(bars).valid);
  assert.match(textOf(await call(await clientFor(rest.keyOf.API), 'get_volume_profile',
    { symbol: 'BTC' })), /pocPrice: 97002/);
});

test('a Pro key gets the plan error naming Whale', async () => {
  const pro = await clientFor(rest.keyOf.Pro);
  for (const tool of ['get_footprint', 'get_volume_profile']) {
    const result = await call(pro, tool, { symbol: 'BTC' });
    assert.ok(result.isError, tool);
    assert.is(result.structuredContent, undefined);
    assert.match(textOf(result), /"code":"plan_required"/);
    assert.match(textOf(result), /"requiredPlan":"Whale"/);
  }
});

test('bad arguments, unknown and untracked symbols are tool errors that say why', async () => {
  const api = await clientFor(keyOf('API', 21));
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['get_footprint', { symbol: 'BTC', bars: 0 }, /Input validation error[\s\S]*bars/],
    ['get_footprint', { symbol: 'BTC', bars: 201 }, /Input validation error[\s\S]*bars/],
    ['get_footprint', { symbol: 'BTC', timeframe: '4h' }, /Input validation error[\s\S]*timeframe/],
    ['get_footprint', { symbol: 'BTC', format: 'csv' }, /Input validation error[\s\S]*format/],
    ['get_footprint', { symbol: 'NOPE' }, /"code":"unknown_symbol"/],
    ['get_footprint', { symbol: 'kPEPE' }, /"code":"not_tracked"/],
    ['get_volume_profile', { symbol: 'BTC', session: 'week' },
      /Input validation error[\s\S]*session/],
    ['get_volume_profile', { symbol: 'BTC', session: 'today', start: '2026-11-21' },
      /session must not be given with start or end/],
    ['get_volume_profile', { symbol: 'BTC', start: 'yesterday' },
      /start must be an ISO 8601 instant/],
    ['get_volume_profile', { symbol: 'BTC', start: '2026-01-01', end: '2026-11-21' },
      /at most 31 days/],
  ];
  for (const [tool, args, text] of cases) {
    const result = await call(api, tool, args);
    assert.ok(result.isError, JSON.stringify(args));
    assert.match(textOf(result), text, JSON.stringify(args));
  }
});

test('the burst scope allows 10 calls a minute across both tools', async () => {
  server.clock.advance(61_000);
  const whale = await clientFor(keyOf('Whale', 22));
  for (let i = 0; i < 10; i++) {
    const result = await call(whale, i % 2 === 0 ? 'get_footprint' : 'get_volume_profile',
      { symbol: 'BTC' });
    assert.not.ok(result.isError, `call ${i + 1}: ${textOf(result)}`);
  }
  const over = await call(whale, 'get_footprint', { symbol: 'BTC' });
  assert.ok(over.isError);
  assert.match(textOf(over), /"code":"rate_limited"/);
  assert.match(textOf(over), /"scope":"footprint"/);
  assert.match(textOf(over), /"limit":10/);
  // Other tools of the key are not held back by it.
  assert.not.ok((await call(whale, 'get_usage')).isError);
  server.clock.advance(61_000);
  assert.not.ok((await call(whale, 'get_footprint', { symbol: 'BTC' })).isError);
});

/** A key of its own for a test that counts its calls. */
function keyOf(plan: 'Whale' | 'API', n: number): string {
  const key = keyFor(1000 + n);
  rest.keys.add(key, plan);
  return key;
}

test.run();
