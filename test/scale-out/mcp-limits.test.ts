// MCP on fronts that share their limits through a real Redis (two in-process fronts on real
// ports, the SDK's own client): a tool call counts against the same daily quota as the REST API
// on any front, and MCP's burst of 60 a minute holds across the fronts together, for keys
// (/api/mcp) and for client addresses (/api/mcp/public).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ManualClock } from '../../core/clock.js';
import { eventually } from '../helpers/eventually.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startSharedFront, type SharedFront } from '../helpers/shared-front.js';
import { bearer, get } from '../http/helpers/harness.js';
import { T0 } from '../http/helpers/seed.js';
import { call, connect, textOf } from '../mcp/mcp-helpers.js';

let redis: RedisServer;
const clock = new ManualClock(T0);
const fronts: SharedFront[] = [];
const clients: Client[] = [];
const mcp = suite('MCP limits across fronts');

mcp.before(async () => {
  redis = await startRedisServer();
  fronts.push(await startSharedFront(redis.url, clock, { mcp: true }),
    await startSharedFront(redis.url, clock, { mcp: true }));
});

mcp.after(async () => {
  for (const client of clients) await client.close();
  for (const front of fronts) await front.close();
  await redis?.stop();
});

// Each test starts with empty burst windows.
mcp.before.each(() => clock.advance(61_000));

/** A key made through front 0's table, once front 1's mirror has it (a 5 s hang bound). */
async function sharedKey(plan: 'Free' | 'Whale'): Promise<string> {
  const { key, record } = await fronts[0].shared.keys.create({ plan });
  await eventually(() => fronts.every((f) => f.shared.keys.byPrefix(record.prefix)),
    { timeoutMs: 5_000, message: 'the key on every front' });
  return key;
}

/** A POST the burst guard counts and the endpoint then refuses (no session): 400 or 429. */
function bareCall(front: SharedFront, path: string, headers: Record<string, string> = {}):
  Promise<Response> {
  return fetch(`${front.url}${path}`, { method: 'POST', body: '{}', headers: {
    'content-type': 'application/json', accept: 'application/json, text/event-stream',
    ...headers } });
}

mcp('a tool call on one front and REST on the other share one daily quota', async () => {
  const key = await sharedKey('Free');
  const { client } = await connect({ baseUrl: fronts[1].url }, '/api/mcp', key);
  clients.push(client);
  for (let i = 0; i < 10; i++) {
    const r = await get(`${fronts[0].url}/api/v1/screener`, bearer(key));
    assert.is(r.status, 200, r.text);
  }
  for (let i = 0; i < 10; i++) {
    const result = await call(client, 'get_screener');
    assert.not.ok(result.isError, textOf(result));
  }
  // Free: 20 a day, over both fronts and both interfaces.
  const refused = await call(client, 'get_screener');
  assert.ok(refused.isError);
  assert.match(textOf(refused), 'quota_exceeded');
  const rest = await get(`${fronts[0].url}/api/v1/screener`, bearer(key));
  assert.is(rest.status, 429);
  assert.is(rest.json.code, 'quota_exceeded');
  assert.is(rest.json.used, 20);
  // The usage tool on front 1 reports what REST on front 0 counted (and is itself refused
  // now: it counts as a request).
  const usage = await get(`${fronts[1].url}/api/v1/usage`, bearer(key));
  assert.is(usage.json.used, 20);
  assert.is(usage.json.remaining, 0);
});

mcp('a refused tool call (plan) costs no quota on the shared counter', async () => {
  const key = await sharedKey('Free');
  const { client } = await connect({ baseUrl: fronts[0].url }, '/api/mcp', key);
  clients.push(client);
  const refused = await call(client, 'get_deep_view', { symbol: 'BTC' });
  assert.ok(refused.isError);
  assert.match(textOf(refused), 'plan_required');
  assert.not.ok((await call(client, 'get_screener')).isError);
  const usage = await get(`${fronts[1].url}/api/v1/usage`, bearer(key));
  assert.is(usage.json.used, 1);
});

mcp('a key\'s 61st MCP request in a minute is refused, whichever front gets it', async () => {
  const key = await sharedKey('Whale');
  const auth = { authorization: `Bearer ${key}` };
  for (let i = 0; i < 60; i++) {
    const r = await bareCall(fronts[i % 2], '/api/mcp', auth);
    assert.is(r.status, 400, `request ${i + 1}: ${await r.text()}`);
  }
  for (const front of fronts) {
    const r = await bareCall(front, '/api/mcp', auth);
    assert.is(r.status, 429);
    const problem = await r.json() as { code: string; scope: string };
    assert.is(problem.code, 'rate_limited');
    assert.is(problem.scope, 'mcp');
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
  }
  // REST has its own scope: the key still polls.
  assert.is((await get(`${fronts[1].url}/api/v1/pair/BTC`, bearer(key))).status, 200);
  clock.advance(60_000);
  assert.is((await bareCall(fronts[1], '/api/mcp', auth)).status, 400);
});

mcp('the public endpoint\'s 60 a minute per address hold across fronts', async () => {
  for (let i = 0; i < 60; i++) {
    const r = await bareCall(fronts[i % 2], '/api/mcp/public');
    assert.is(r.status, 400, `request ${i + 1}`);
  }
  const refused = await bareCall(fronts[1], '/api/mcp/public');
  assert.is(refused.status, 429);
  assert.is((await refused.json() as { scope: string }).scope, 'mcp-public');
});

mcp.run();
