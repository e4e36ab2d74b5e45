// Free mode, /api/mcp/public: five tools, rounded values, no key, burst guard per IP.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  call, connect, rawInitialize, startServer, textOf, type TestServer,
} from './mcp-helpers.js';

let server: TestServer;
let client: Client;

test.before(async () => {
  server = await startServer();
  ({ client } = await connect(server, '/api/mcp/public'));
});

test.after(async () => {
  await client.close();
  await server.close();
});

test('initialize names the free server and lists exactly the five tools', async () => {
  assert.is(client.getServerVersion()?.name, 'orderflow-public');
  assert.match(client.getInstructions() ?? '', /60 requests a minute/);
  const { tools } = await client.listTools();
  assert.equal(tools.map((t) => t.name).sort(), [
    'get_funding_extremes', 'get_market_summary', 'get_pair', 'get_screener', 'get_top_movers',
  ]);
  for (const tool of tools) {
    assert.ok((tool.description ?? '').length > 60, `${tool.name} has a useful description`);
    assert.ok(tool.outputSchema, `${tool.name} declares its output`);
    assert.is(tool.annotations?.readOnlyHint, true);
  }
  const screener = tools.find((t) => t.name === 'get_screener');
  const properties = screener?.inputSchema.properties as Record<string, { description?: string }>;
  for (const name of ['limit', 'sort', 'order', 'minVolume24h', 'symbols']) {
    assert.ok(properties[name]?.description, `get_screener.${name} is described`);
  }
});

test('get_screener filters, sorts, limits and rounds for display', async () => {
  const result = await call(client, 'get_screener', { sort: 'change24h', limit: 2,
    minVolume24h: 1_000_000 });
  assert.not.ok(result.isError);
  const out = result.structuredContent as { pairs: Record<string, number>[]; total: number };
  assert.equal(out.pairs.map((p) => p.symbol), ['SOL', 'BTC']);
  assert.is(out.total, 4);
  assert.is(out.pairs[1].price, 97123.5);
  assert.is(out.pairs[1].change24h, 2.35);
  assert.is(out.pairs[1].volume24h, 1_234_567_890);
  assert.is(out.pairs[1].fundingRate, 0.0000125);
  assert.is(out.pairs[1].fundingAnnualized, 10.95);
  assert.match(textOf(result), /2 of 4 pairs by change24h desc/);
  assert.match(textOf(result), /SOL/);
});

test('get_screener rejects invalid arguments with a tool error', async () => {
  for (const args of [{ limit: 0 }, { limit: 501 }, { sort: 'hype' }, { order: 'up' },
    { minVolume24h: -1 }, { symbols: ['BTC/USD'] }, { colour: 'red' }]) {
    const result = await call(client, 'get_screener', args);
    assert.ok(result.isError, JSON.stringify(args));
    assert.match(textOf(result), /Input validation error/);
  }
});

test('get_pair finds a pair, case-insensitively by ticker, and rounds it', async () => {
  const result = await call(client, 'get_pair', { symbol: 'btc' });
  assert.not.ok(result.isError);
  const out = result.structuredContent as Record<string, unknown>;
  assert.is(out.symbol, 'BTC');
  assert.is(out.vpin, 0.457);
  assert.match(textOf(result), /vpinLevel: elevated/);
  const builder = await call(client, 'get_pair', { symbol: 'xyz:tsla' });
  assert.is((builder.structuredContent as { symbol: string }).symbol, 'xyz:TSLA');
});

test('get_pair answers unknown and malformed symbols with tool errors', async () => {
  const unknown = await call(client, 'get_pair', { symbol: 'NOPE' });
  assert.ok(unknown.isError);
  assert.match(textOf(unknown), /unknown_symbol/);
  assert.match(textOf(unknown), /was "NOPE"/);
  for (const args of [{}, { symbol: '' }, { symbol: 'BTC-USD' }, { symbol: 42 }]) {
    const bad = await call(client, 'get_pair', args);
    assert.ok(bad.isError, JSON.stringify(args));
  }
});

test('get_top_movers splits gainers and losers above the volume floor', async () => {
  const both = await call(client, 'get_top_movers', {});
  const out = both.structuredContent as { gainers: { symbol: string }[];
    losers: { symbol: string; change24h: number }[] };
  assert.equal(out.gainers.map((p) => p.symbol), ['SOL', 'BTC']);
  assert.equal(out.losers.map((p) => p.symbol), ['kPEPE', 'ETH']);
  assert.is(out.losers[0].change24h, -12.35);
  const gainers = await call(client, 'get_top_movers', { direction: 'gainers', limit: 1,
    minVolume24h: 0 });
  const only = gainers.structuredContent as { gainers: unknown[]; losers: unknown[] };
  assert.is(only.gainers.length, 1);
  assert.is(only.losers.length, 0);
  assert.ok((await call(client, 'get_top_movers', { direction: 'up' })).isError);
  assert.ok((await call(client, 'get_top_movers', { limit: 51 })).isError);
});

test('get_funding_extremes orders by annualized funding', async () => {
  const result = await call(client, 'get_funding_extremes', { limit: 2 });
  const out = result.structuredContent as { highest: { symbol: string }[];
    lowest: { symbol: string }[] };
  assert.equal(out.highest.map((p) => p.symbol), ['SOL', 'BTC']);
  assert.equal(out.lowest.map((p) => p.symbol), ['kPEPE', 'ETH']);
  const negative = await call(client, 'get_funding_extremes', { side: 'negative' });
  assert.is((negative.structuredContent as { highest: unknown[] }).highest.length, 0);
  assert.ok((await call(client, 'get_funding_extremes', { side: 'sideways' })).isError);
});

test('get_market_summary totals the active pairs', async () => {
  const result = await call(client, 'get_market_summary');
  assert.not.ok(result.isError);
  const out = result.structuredContent as Record<string, number | unknown[]>;
  assert.is(out.pairs, 6);
  assert.is(out.activePairs, 5);
  assert.is(out.advancers, 3);
  assert.is(out.decliners, 2);
  assert.is(out.medianChange24h, 1.23);
  assert.is((out.topByVolume as unknown[]).length, 5);
  assert.match(textOf(result), /Top by volume/);
  assert.ok((await call(client, 'get_market_summary', { extra: 1 })).isError);
});

test('a tool the free mode does not have is an error', async () => {
  const result = await call(client, 'get_signals');
  assert.ok(result.isError);
});

test('the free mode ignores keys, even invalid ones', async () => {
  const response = await rawInitialize(`${server.baseUrl}/api/mcp/public`,
    { authorization: 'Bearer ofk_bad' });
  assert.is(response.status, 200);
  const sessionId = response.headers.get('mcp-session-id');
  assert.ok(sessionId);
  await response.body?.cancel();
  const closed = await fetch(`${server.baseUrl}/api/mcp/public`,
    { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
  assert.is(closed.status, 200);
});

test('burst: over the per-IP limit answers 429 problem+json with Retry-After', async () => {
  server.access.burstLimit = 3;
  server.access.burst.clear();
  try {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${server.baseUrl}/api/mcp/public`, { method: 'DELETE' });
      assert.is(response.status, 400, 'a DELETE without a session passes the guard');
      await response.body?.cancel();
    }
    const limited = await fetch(`${server.baseUrl}/api/mcp/public`, { method: 'DELETE' });
    assert.is(limited.status, 429);
    assert.is(limited.headers.get('content-type'), 'application/problem+json');
    assert.is(limited.headers.get('retry-after'), '60');
    const problem = await limited.json() as Record<string, unknown>;
    assert.is(problem.code, 'rate_limited');
    assert.is(problem.scope, 'mcp-public');
    server.clock.advance(60_001);
    const again = await fetch(`${server.baseUrl}/api/mcp/public`, { method: 'DELETE' });
    assert.is(again.status, 400);
    await again.body?.cancel();
  } finally {
    server.access.burstLimit = 1_000;
  }
});

test('a method other than GET, POST or DELETE is 405 with Allow', async () => {
  const response = await fetch(`${server.baseUrl}/api/mcp/public`, { method: 'PUT', body: '{}' });
  assert.is(response.status, 405);
  assert.is(response.headers.get('allow'), 'GET, POST, DELETE');
  assert.is(((await response.json()) as { code: string }).code, 'method_not_allowed');
});

test.run();
