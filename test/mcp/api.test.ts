// API mode, /api/mcp: keys (three spellings), eleven raw tools, plan gating, daily quota, burst.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Plan } from '../../core/messages.js';
import { eventually } from '../helpers/eventually.js';
import { fundingArbView, screenerView, smartMoneyView, testKey } from './mcp-fixtures.js';
import {
  call, connect, rawInitialize, startServer, textOf, type KeySpelling, type TestServer,
} from './mcp-helpers.js';

let server: TestServer;
const clients: Client[] = [];
const keys: Partial<Record<Plan, string>> = {};

async function clientFor(plan: Plan, spelling: KeySpelling = 'bearer'): Promise<Client> {
  const { client } = await connect(server, '/api/mcp', keys[plan], spelling);
  clients.push(client);
  return client;
}

test.before(async () => {
  server = await startServer();
  (['Free', 'Trader', 'Pro', 'Whale', 'API'] as const).forEach((plan, i) => {
    keys[plan] = testKey(i + 1);
    server.access.addKey(testKey(i + 1), plan);
  });
});

test.after(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await eventually(() => server.mounts.inFlight() === 0, { message: 'streams ended' });
  await server.close();
});

test('no key, or a bad key in any spelling, is 401 problem+json before any MCP exchange',
  async () => {
    const url = `${server.baseUrl}/api/mcp`;
    const cases: [string, Record<string, string>][] = [
      [url, {}],
      [url, { authorization: 'Bearer ofk_00000000000000000000000000000bad' }],
      [url, { 'x-api-key': 'ofk_00000000000000000000000000000bad' }],
      [`${url}?api_key=ofk_00000000000000000000000000000bad`, {}],
      // The first spelling present is the one used: no fall-back to a valid x-api-key.
      [url, { authorization: 'Bearer nope', 'x-api-key': testKey(4) }],
    ];
    for (const [target, headers] of cases) {
      const response = await rawInitialize(target, headers);
      assert.is(response.status, 401, JSON.stringify(headers));
      assert.is(response.headers.get('content-type'), 'application/problem+json');
      const problem = await response.json() as Record<string, unknown>;
      assert.is(problem.code, 'invalid_key');
      assert.is(problem.status, 401);
    }
    assert.is(server.mounts.sessionCount(), 0);
    try {
      await connect(server, '/api/mcp');
      assert.unreachable('connect without a key must fail');
    } catch (error) {
      assert.match(String(error), /401/);
    }
  });

test('each key spelling opens a session and lists exactly the eleven tools', async () => {
  for (const spelling of ['bearer', 'x-api-key', 'query'] as const) {
    const client = await clientFor('Whale', spelling);
    assert.is(client.getServerVersion()?.name, 'orderflow');
    const { tools } = await client.listTools();
    assert.equal(tools.map((t) => t.name).sort(), [
      'get_deep_view', 'get_footprint', 'get_funding_arb', 'get_history', 'get_pair',
      'get_screener', 'get_signal_performance', 'get_signals', 'get_smart_money', 'get_usage',
      'get_volume_profile',
    ], spelling);
  }
});

test('keyed responses carry the rate-limit policy header', async () => {
  const response = await rawInitialize(`${server.baseUrl}/api/mcp`,
    { 'x-api-key': testKey(4) });
  assert.is(response.status, 200);
  assert.ok(response.headers.get('ratelimit-policy'));
  await response.body?.cancel();
});

test('every tool answers raw values with structured content and text', async () => {
  const client = await clientFor('Whale');
  const screener = await call(client, 'get_screener', { limit: 3 });
  const pairs = (screener.structuredContent as { pairs: Record<string, unknown>[] }).pairs;
  assert.equal(pairs[0], screenerView.pairs[0]);
  assert.is((screener.structuredContent as { updatedAt: string }).updatedAt,
    screenerView.updatedAt);
  assert.match(textOf(screener), /3 of 6 pairs/);

  const pair = await call(client, 'get_pair', { symbol: 'ETH' });
  assert.is((pair.structuredContent as { price: number }).price, 3456.789123);

  const signals = await call(client, 'get_signals', { minAbsScore: 10 });
  const picked = (signals.structuredContent as { signals: { symbol: string; vpin: number }[] });
  assert.equal(picked.signals.map((s) => s.symbol), ['ETH', 'BTC']);
  assert.is(picked.signals[0].vpin, 0.81234);

  const money = await call(client, 'get_smart_money', { symbol: 'BTC', side: 'short' });
  const positions = (money.structuredContent as { positions: unknown[]; wallets: number });
  assert.equal(positions.positions, [smartMoneyView.positions[2]]);
  assert.is(positions.wallets, 3);

  const deep = await call(client, 'get_deep_view', { symbol: 'BTC', historyLimit: 2 });
  const view = deep.structuredContent as { kyleLambda: number; cvdHistory: { cvd: number }[] };
  assert.is(view.kyleLambda, 0.0000123);
  assert.equal(view.cvdHistory.map((p) => p.cvd), [4000, 5000]);

  const arb = await call(client, 'get_funding_arb', { minSpreadAnnualized: 10 });
  assert.equal((arb.structuredContent as { pairs: unknown[] }).pairs, [fundingArbView.pairs[1]]);

  const usage = await call(client, 'get_usage');
  assert.is((usage.structuredContent as { timeZone: string }).timeZone, 'Europe/Rome');
  for (const result of [screener, pair, signals, money, deep, arb, usage]) {
    assert.not.ok(result.isError);
    assert.ok(textOf(result).length > 10);
  }
});

test('every tool rejects invalid arguments with a tool error', async () => {
  const client = await clientFor('API');
  const invalid: [string, Record<string, unknown>][] = [
    ['get_screener', { limit: 'ten' }], ['get_pair', { symbol: '../etc' }],
    ['get_signals', { direction: 'UP' }], ['get_signals', { minAbsScore: 101 }],
    ['get_smart_money', { category: 'whale' }], ['get_smart_money', { side: 'both' }],
    ['get_deep_view', {}], ['get_deep_view', { symbol: 'BTC', historyLimit: -1 }],
    ['get_funding_arb', { limit: 1000 }], ['get_usage', { key: 'x' }],
  ];
  for (const [name, args] of invalid) {
    const result = await call(client, name, args);
    assert.ok(result.isError, `${name} ${JSON.stringify(args)}`);
    assert.match(textOf(result), /Input validation error/);
  }
});

test('symbols: unknown is unknown_symbol, listed but untracked is not_tracked', async () => {
  const client = await clientFor('Whale');
  const unknown = await call(client, 'get_deep_view', { symbol: 'NOPE' });
  assert.ok(unknown.isError);
  assert.match(textOf(unknown), /"code":"unknown_symbol"/);
  const untracked = await call(client, 'get_deep_view', { symbol: 'kPEPE' });
  assert.ok(untracked.isError);
  assert.match(textOf(untracked), /"code":"not_tracked"/);
  assert.ok((await call(client, 'get_pair', { symbol: 'NOPE' })).isError);
});

test('each tool is gated by the plan of the REST endpoint it reads', async () => {
  const expectations: [Plan, string, string | null][] = [
    ['Free', 'get_screener', null], ['Free', 'get_pair', null], ['Free', 'get_usage', null],
    ['Free', 'get_signals', 'Trader'], ['Trader', 'get_signals', null],
    ['Trader', 'get_smart_money', 'Pro'], ['Pro', 'get_smart_money', null],
    ['Pro', 'get_deep_view', 'Whale'], ['Pro', 'get_funding_arb', 'Whale'],
    ['Whale', 'get_deep_view', null], ['Whale', 'get_funding_arb', null],
    ['API', 'get_deep_view', null], ['API', 'get_funding_arb', null],
  ];
  const byPlan = new Map<Plan, Client>();
  for (const [plan, tool, required] of expectations) {
    if (!byPlan.has(plan)) byPlan.set(plan, await clientFor(plan));
    const args = tool === 'get_pair' || tool === 'get_deep_view' ? { symbol: 'BTC' } : {};
    const result = await call(byPlan.get(plan)!, tool, args);
    if (required === null) {
      assert.not.ok(result.isError, `${plan} ${tool}`);
    } else {
      assert.ok(result.isError, `${plan} ${tool}`);
      assert.match(textOf(result), new RegExp(`the ${required} plan`, 'i'));
      assert.match(textOf(result), new RegExp(`"requiredPlan":"${required}"`));
      assert.match(textOf(result), /"code":"plan_required"/);
    }
  }
});

test('each served tool call counts once against the daily quota; used up is a 429 tool error',
  async () => {
    const key = testKey(99);
    const prefix = server.access.addKey(key, 'Trader');
    const { client } = await connect(server, '/api/mcp', key);
    clients.push(client);
    server.access.dailyLimit = 3;
    try {
      await client.listTools();
      assert.is(server.access.usedBy(prefix), 0, 'listing tools is free');
      await call(client, 'get_pair', { symbol: '???' });
      assert.is(server.access.usedBy(prefix), 0, 'a call its schema refuses is free');
      assert.ok((await call(client, 'get_deep_view', { symbol: 'BTC' })).isError);
      assert.is(server.access.usedBy(prefix), 0, 'a call refused for its plan is free, as on REST');
      assert.ok((await call(client, 'get_pair', { symbol: 'NOPE' })).isError);
      assert.is(server.access.usedBy(prefix), 0, 'an unknown symbol is free, as a REST 404');
      await call(client, 'get_screener');
      await call(client, 'get_signals');
      assert.is(server.access.usedBy(prefix), 2);
      const usage = await call(client, 'get_usage');
      assert.is((usage.structuredContent as { used: number }).used, 2, 'used before this call');
      assert.is(server.access.usedBy(prefix), 3);
      const over = await call(client, 'get_screener');
      assert.ok(over.isError);
      assert.not.ok(over.structuredContent, 'the data is withheld');
      assert.match(textOf(over), /"status":429/);
      assert.match(textOf(over), /"code":"quota_exceeded"/);
      assert.match(textOf(over), /resetsAt/);
      assert.is(server.access.usedBy(prefix), 3);
    } finally {
      server.access.dailyLimit = 1_000;
    }
  });

test('a session belongs to the key that opened it', async () => {
  const response = await rawInitialize(`${server.baseUrl}/api/mcp`,
    { authorization: `Bearer ${testKey(4)}` });
  const sessionId = response.headers.get('mcp-session-id')!;
  await response.body?.cancel();
  const other = await fetch(`${server.baseUrl}/api/mcp`, { method: 'DELETE',
    headers: { 'mcp-session-id': sessionId, authorization: `Bearer ${testKey(5)}` } });
  assert.is(other.status, 404);
  await other.body?.cancel();
  const own = await fetch(`${server.baseUrl}/api/mcp`, { method: 'DELETE',
    headers: { 'mcp-session-id': sessionId, authorization: `Bearer ${testKey(4)}` } });
  assert.is(own.status, 200);
  await own.body?.cancel();
});

test('burst: over the per-key limit answers 429 problem+json', async () => {
  server.access.burstLimit = 2;
  server.access.burst.clear();
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await rawInitialize(`${server.baseUrl}/api/mcp`,
        { 'x-api-key': testKey(3) });
      statuses.push(response.status);
      if (response.status === 429) {
        assert.is(response.headers.get('content-type'), 'application/problem+json');
        const problem = await response.json() as Record<string, unknown>;
        assert.is(problem.code, 'rate_limited');
        assert.is(problem.scope, 'mcp');
        assert.ok(response.headers.get('retry-after'));
      } else {
        const sessionId = response.headers.get('mcp-session-id')!;
        await response.body?.cancel();
        assert.ok(sessionId);
      }
    }
    assert.equal(statuses, [200, 200, 429]);
    const otherKey = await rawInitialize(`${server.baseUrl}/api/mcp`, { 'x-api-key': testKey(4) });
    assert.is(otherKey.status, 200, 'the burst window is per key');
    await otherKey.body?.cancel();
  } finally {
    server.access.burstLimit = 1_000;
  }
});

test.run();
