// The MCP endpoints over the REST front's real AccessControl: its key check, plan problems,
// 60-a-minute burst guard and daily quota, as the served service wires them.
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { resolveConfig } from '../../core/config.js';
import type { KeyRecord, Plan, UsageCounters } from '../../core/messages.js';
import { createAccessControl } from '../../http/access.js';
import { testKey } from './mcp-fixtures.js';
import {
  call, connect, rawInitialize, startServer, textOf, type TestServer,
} from './mcp-helpers.js';

const records = new Map<string, KeyRecord>();
const counts = new Map<string, number>();
const usage: UsageCounters = {
  get: (identity, day) => counts.get(`${identity}|${day}`) ?? 0,
  increment: (identity, day) => {
    const next = (counts.get(`${identity}|${day}`) ?? 0) + 1;
    counts.set(`${identity}|${day}`, next);
    return next;
  },
};

function addKey(key: string, plan: Plan): void {
  const digest = createHash('sha256').update(key).digest('hex');
  records.set(digest, { prefix: key.slice(0, 12), digest, plan, label: null,
    subscriptionStartMs: null, createdAtMs: 0, revokedAtMs: null });
}

let server: TestServer;
const clients: Client[] = [];

test.before(async () => {
  addKey(testKey(1), 'Trader');
  addKey(testKey(2), 'Whale');
  server = await startServer({ accessFor: (clock) => createAccessControl({
    config: resolveConfig({}), clock, usage,
    keys: { byDigest: (d) => records.get(d), byPrefix: () => undefined },
  }) });
});

test.after(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.close();
});

test('a malformed or unknown key is 401 with the front\'s problem', async () => {
  const attempts: Record<string, string>[] = [
    { authorization: 'Bearer nope' }, { 'x-api-key': testKey(9) },
  ];
  for (const headers of attempts) {
    const response = await rawInitialize(`${server.baseUrl}/api/mcp`, headers);
    assert.is(response.status, 401);
    const problem = await response.json() as { code: string; type: string };
    assert.is(problem.code, 'invalid_key');
    assert.is(problem.type, 'urn:orderflow:problem:invalid_key');
  }
});

test('plan gating names the tier; served calls count in the key\'s quota', async () => {
  const { client } = await connect(server, '/api/mcp', testKey(1));
  clients.push(client);
  const refused = await call(client, 'get_funding_arb');
  assert.ok(refused.isError);
  assert.match(textOf(refused), /Whale/);
  assert.not.ok((await call(client, 'get_signals')).isError);
  const report = await call(client, 'get_usage');
  const used = (report.structuredContent as { used: number; plan: string });
  assert.is(used.plan, 'Trader');
  assert.is(used.used, 1);
});

test('keyed answers carry RateLimit headers; the 61st request in a minute is 429', async () => {
  const first = await rawInitialize(`${server.baseUrl}/api/mcp`, { 'x-api-key': testKey(2) });
  assert.match(first.headers.get('ratelimit-policy') ?? '', /"burst";q=60;w=60/);
  assert.ok(first.headers.get('ratelimit'));
  await first.body?.cancel();
  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) {
    const response = await fetch(`${server.baseUrl}/api/mcp/public`, { method: 'DELETE' });
    statuses.push(response.status);
    await response.body?.cancel();
  }
  assert.ok(statuses.every((s) => s === 400), 'the first 60 pass the guard (no session: 400)');
  const limited = await fetch(`${server.baseUrl}/api/mcp/public`, { method: 'DELETE' });
  assert.is(limited.status, 429);
  assert.ok(Number(limited.headers.get('retry-after')) > 0);
  await limited.body?.cancel();
});

test.run();
