// MCP sessions: termination by DELETE, many at once, idle expiry on the clock, the bound on
// their number, and the transport edge (body cap, bad JSON, missing session id).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../helpers/eventually.js';
import { limits } from '../../core/config.js';
import { call, connect, rawInitialize, startServer, type TestServer } from './mcp-helpers.js';

let server: TestServer;
const idleMs = 10 * 60_000;

test.before(async () => {
  server = await startServer({ sessionIdleMs: idleMs, sessionsMax: 60 });
});

test.after(async () => {
  await server.close();
});

async function expectFailure(work: Promise<unknown>, pattern: RegExp): Promise<void> {
  try {
    await work;
  } catch (error) {
    assert.match(String(error), pattern, String(error));
    return;
  }
  assert.unreachable('expected a failure');
}

test('DELETE ends a session; its id is then unknown (404)', async () => {
  const { client, transport } = await connect(server, '/api/mcp/public');
  assert.is(server.mounts.sessionCount(), 1);
  const sessionId = transport.sessionId!;
  await transport.terminateSession();
  assert.is(transport.sessionId, undefined);
  await eventually(() => server.mounts.sessionCount() === 0);
  const response = await fetch(`${server.baseUrl}/api/mcp/public`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  assert.is(response.status, 404);
  assert.is(((await response.json()) as { error: { code: number } }).error.code, -32001);
  await client.close();
});

test('50 concurrent sessions each get their own answers', async () => {
  const sessions = await Promise.all(
    Array.from({ length: 50 }, () => connect(server, '/api/mcp/public')));
  assert.is(server.mounts.sessionCount(), 50);
  const symbols = ['BTC', 'ETH', 'SOL', 'kPEPE', 'xyz:TSLA'];
  const results = await Promise.all(sessions.map(({ client }, i) =>
    call(client, 'get_pair', { symbol: symbols[i % symbols.length] })));
  results.forEach((result, i) => {
    assert.not.ok(result.isError);
    assert.is((result.structuredContent as { symbol: string }).symbol, symbols[i % 5]);
  });
  assert.is(new Set(sessions.map(({ transport }) => transport.sessionId)).size, 50);
  await Promise.all(sessions.map(({ transport }) => transport.terminateSession()));
  await Promise.all(sessions.map(({ client }) => client.close()));
  await eventually(() => server.mounts.sessionCount() === 0);
});

test('a session idle longer than the idle time is closed; a used one stays', async () => {
  const idle = await connect(server, '/api/mcp/public');
  const busy = await connect(server, '/api/mcp/public');
  server.clock.advance(idleMs - 1_000);
  assert.not.ok((await call(busy.client, 'get_market_summary')).isError);
  server.clock.advance(2_000);
  assert.not.ok((await call(busy.client, 'get_market_summary')).isError);
  assert.is(server.mounts.sessionCount(), 1, 'the idle session was swept');
  await expectFailure(call(idle.client, 'get_market_summary'), /Session not found/);
  await busy.transport.terminateSession();
  await Promise.all([idle.client.close(), busy.client.close()]);
});

test('the session table is bounded: when full the least recently used is dropped', async () => {
  const small = await startServer({ sessionsMax: 3 });
  try {
    const sessions = [];
    for (let i = 0; i < 4; i++) sessions.push(await connect(small, '/api/mcp/public'));
    assert.is(small.mounts.sessionCount(), 3);
    await expectFailure(call(sessions[0].client, 'get_market_summary'), /Session not found/);
    for (const { client } of sessions.slice(1)) {
      assert.not.ok((await call(client, 'get_market_summary')).isError);
    }
    await Promise.all(sessions.map(({ client }) => client.close()));
  } finally {
    await small.close();
  }
  assert.is(small.mounts.sessionCount(), 0);
});

test('a request without a session id that is not initialize is 400', async () => {
  for (const method of ['GET', 'DELETE']) {
    const response = await fetch(`${server.baseUrl}/api/mcp/public`, { method });
    assert.is(response.status, 400, method);
    assert.match(((await response.json()) as { error: { message: string } }).error.message,
      /Mcp-Session-Id/);
  }
  const post = await fetch(`${server.baseUrl}/api/mcp/public`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.is(post.status, 400);
  await post.body?.cancel();
});

test('a body that is not JSON is a 400 parse error; one over the cap is 413', async () => {
  const bad = await fetch(`${server.baseUrl}/api/mcp/public`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":',
  });
  assert.is(bad.status, 400);
  assert.is(((await bad.json()) as { error: { code: number } }).error.code, -32700);
  const huge = 'x'.repeat(limits.httpBodyBytesMax + 1);
  const response = await fetch(`${server.baseUrl}/api/mcp/public`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: huge,
  }).catch((error: unknown) => error);
  // uWS may close the connection while the client is still sending: then there is no status.
  if (response instanceof Response) {
    assert.is(response.status, 413);
    assert.is(((await response.json()) as { code: string }).code, 'bad_request');
  }
  assert.is(server.mounts.sessionCount(), 0);
});

test('an initialize the transport refuses leaves no session behind', async () => {
  const response = await rawInitialize(`${server.baseUrl}/api/mcp/public`,
    { accept: 'text/html' });
  assert.is(response.status, 406);
  await response.body?.cancel();
  assert.is(server.mounts.sessionCount(), 0);
});

test('a client that goes away mid-stream does not disturb the others', async () => {
  const a = await connect(server, '/api/mcp/public');
  const b = await connect(server, '/api/mcp/public');
  await a.client.close();
  assert.not.ok((await call(b.client, 'get_top_movers')).isError);
  await Promise.all([a.transport, b.transport].map(async (t) => {
    await t.terminateSession().catch(() => {});
  }));
  await b.client.close();
});

test.run();
