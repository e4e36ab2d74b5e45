// Hosts and origins on the real front: a loopback listener refuses a foreign Host on every path
// but /healthz and /readyz (DNS rebinding); MCP and the account API refuse a foreign browser
// Origin; the allowed lists widen both; data endpoints keep their CORS answers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildOpenApiDocument } from '../../http/openapi/document.js';
import {
  INITIALIZE, MCP_HEADERS, send, startGuardedFront, type GuardedFront,
} from '../helpers/guarded-front.js';

const EVIL = 'evil.example.com';

function assertRefused(answer: { status: number; headers: Record<string, unknown>;
  body: string }, code: string, label: string): void {
  assert.is(answer.status, 403, `${label}: ${answer.body}`);
  assert.is(answer.headers['content-type'], 'application/problem+json', label);
  const problem = JSON.parse(answer.body) as { code: string; status: number; detail: string };
  assert.is(problem.code, code, label);
  assert.is(problem.status, 403, label);
}

/** Not refused by either rule (the account API's own CSRF check may still answer 403). */
function assertPassed(answer: { status: number; body: string }, label: string): void {
  const said = `${label}: ${answer.status} ${answer.body.slice(0, 300)}`;
  if (answer.status === 403) {
    const { code } = JSON.parse(answer.body) as { code: string };
    assert.ok(code !== 'host_not_allowed' && code !== 'origin_not_allowed', said);
  }
  assert.ok(answer.status < 500, said);
}

const loopback = suite('hosts: loopback listener');
let front: GuardedFront;
loopback.before(async () => { front = await startGuardedFront({ host: '127.0.0.1' }); });
loopback.after(() => front.close());

const everyKind: [string, string, string, Record<string, string>, string?][] = [
  ['data', 'GET', '/api/v1/screener', {}],
  ['data (unknown path)', 'GET', '/nope', {}],
  ['metrics', 'GET', '/metrics', {}],
  ['openapi', 'GET', '/api/v1/openapi.json', {}],
  ['mcp public', 'POST', '/api/mcp/public', MCP_HEADERS, INITIALIZE],
  ['mcp keyed', 'POST', '/api/mcp', MCP_HEADERS, INITIALIZE],
  ['account', 'GET', '/api/v1/account/session', {}],
  ['account sign-in', 'POST', '/api/v1/account/session',
    { 'content-type': 'application/json' }, '{"email":"a@b.c","password":"x"}'],
  ['dashboard page', 'GET', '/', {}],
  ['dashboard pair page', 'GET', '/pair/BTC', {}],
  ['dashboard asset', 'GET', '/assets/none.js', {}],
];

loopback('a foreign Host is refused with 403 problem+json on every kind of path', async () => {
  for (const [label, method, path, headers, body] of everyKind) {
    for (const host of [EVIL, `${EVIL}:8080`, 'localhost.evil.example.com',
      '127.0.0.1.nip.io', 'localhost:80x', '[::2]:80']) {
      const answer = await send(front.port, method, path, { ...headers, host,
        origin: `http://${host}` }, body);
      assertRefused(answer, 'host_not_allowed', `${label} ${path} Host ${host}`);
    }
  }
});

loopback('a request with no Host at all is refused too (uWS answers 400 first)', async () => {
  for (const [label, method, path, headers, body] of everyKind) {
    const answer = await send(front.port, method, path, { ...headers, host: '' }, body);
    assert.ok(answer.status === 400 || answer.status === 403, `${label}: ${answer.status}`);
  }
});

loopback('/healthz and /readyz answer under any Host', async () => {
  for (const path of ['/healthz', '/readyz']) {
    const answer = await send(front.port, 'GET', path, { host: EVIL });
    assert.is(answer.status, 200, `${path}: ${answer.body}`);
  }
});

loopback('loopback names are accepted at any port, in any case, IPv6 included', async () => {
  for (const host of ['localhost', 'localhost:1', 'LocalHost:65535', '127.0.0.1',
    `127.0.0.1:${front.port}`, '[::1]', '[::1]:8080']) {
    const data = await send(front.port, 'GET', '/api/v1/screener', { host });
    assert.is(data.status, 200, `data, Host ${host}: ${data.body}`);
    const page = await send(front.port, 'GET', '/signin', { host });
    assert.is(page.status, 200, `page, Host ${host}`);
    const mcp = await send(front.port, 'POST', '/api/mcp/public', { ...MCP_HEADERS, host,
      origin: `http://${host}` }, INITIALIZE);
    assert.is(mcp.status, 200, `mcp, Host ${host}: ${mcp.body}`);
  }
});

loopback('a foreign Origin is refused on MCP and the account API', async () => {
  const host = `127.0.0.1:${front.port}`;
  for (const origin of [`http://${EVIL}`, 'null', `http://localhost:${front.port}`,
    `http://${host}.evil.example.com`]) {
    const mcp = await send(front.port, 'POST', '/api/mcp/public', { ...MCP_HEADERS, host,
      origin }, INITIALIZE);
    assertRefused(mcp, 'origin_not_allowed', `mcp, Origin ${origin}`);
    const keyed = await send(front.port, 'GET', '/api/mcp', { host, origin });
    assertRefused(keyed, 'origin_not_allowed', `mcp keyed, Origin ${origin}`);
    const account = await send(front.port, 'GET', '/api/v1/account/session', { host, origin });
    assertRefused(account, 'origin_not_allowed', `account, Origin ${origin}`);
  }
  // Its own origin (either scheme, as behind a TLS proxy) and no Origin at all pass.
  for (const origin of [`http://${host}`, `https://${host}`, undefined]) {
    const headers: Record<string, string> = { ...MCP_HEADERS, host };
    if (origin !== undefined) headers.origin = origin;
    const mcp = await send(front.port, 'POST', '/api/mcp/public', headers, INITIALIZE);
    assert.is(mcp.status, 200, `mcp, Origin ${origin}: ${mcp.body}`);
    const account = await send(front.port, 'GET', '/api/v1/account/session',
      { ...headers, accept: '*/*' });
    assert.is(account.status, 401, `account (signed out), Origin ${origin}: ${account.body}`);
  }
});

loopback('data endpoints keep their CORS answers for any Origin', async () => {
  const host = `127.0.0.1:${front.port}`;
  const data = await send(front.port, 'GET', '/api/v1/screener',
    { host, origin: `http://${EVIL}` });
  assert.is(data.status, 200);
  assert.is(data.headers['access-control-allow-origin'], '*');
  const preflight = await send(front.port, 'OPTIONS', '/api/v1/screener', { host,
    origin: `http://${EVIL}`, 'access-control-request-method': 'GET' });
  assert.is(preflight.status, 204);
  assert.is(preflight.headers['access-control-allow-origin'], '*');
});

loopback('the OpenAPI document lists the 403 and its codes where the rules apply', () => {
  const doc = buildOpenApiDocument() as any;
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const has403 = operation.responses['403'] !== undefined;
      const probe = path === '/healthz' || path === '/readyz';
      assert.is(has403, !probe, `${method} ${path}`);
    }
  }
  const codes = doc.components.schemas.Problem.properties.code.enum as string[];
  assert.ok(codes.includes('host_not_allowed') && codes.includes('origin_not_allowed'));
});

const widened = suite('hosts: allowed lists');
let wide: GuardedFront;
widened.before(async () => {
  wide = await startGuardedFront({ host: '127.0.0.1', allowedHosts: ['orderflow.example.com'],
    allowedOrigins: ['https://app.example.net'] });
});
widened.after(() => wide.close());

widened('ORDERFLOW_ALLOWED_HOSTS widens the Host rule, at any port', async () => {
  for (const host of ['orderflow.example.com', 'Orderflow.Example.com:443']) {
    for (const [, method, path, headers, body] of everyKind.filter(([l]) =>
      !l.includes('unknown') && !l.includes('asset') && !l.includes('keyed'))) {
      assertPassed(await send(wide.port, method, path, { ...headers, host }, body),
        `${path} Host ${host}`);
    }
  }
  const other = await send(wide.port, 'GET', '/api/v1/screener', { host: EVIL });
  assertRefused(other, 'host_not_allowed', 'an unlisted name');
});

widened('ORDERFLOW_ALLOWED_ORIGINS lets a listed origin into MCP and the account API',
  async () => {
    const host = 'orderflow.example.com';
    const origin = 'https://app.example.net';
    const mcp = await send(wide.port, 'POST', '/api/mcp/public', { ...MCP_HEADERS, host,
      origin }, INITIALIZE);
    assert.is(mcp.status, 200, mcp.body);
    const account = await send(wide.port, 'GET', '/api/v1/account/session', { host, origin });
    assert.is(account.status, 401, account.body);
    const unlisted = await send(wide.port, 'POST', '/api/mcp/public', { ...MCP_HEADERS, host,
      origin: 'https://other.example.net' }, INITIALIZE);
    assertRefused(unlisted, 'origin_not_allowed', 'an unlisted origin');
  });

const open = suite('hosts: non-loopback listener');
let exposed: GuardedFront;
open.before(async () => { exposed = await startGuardedFront({ host: '0.0.0.0',
  limitsEnabled: true }); });
open.after(() => exposed.close());

open('the loopback Host rule does not apply, the Origin rule still does', async () => {
  for (const [label, method, path, headers, body] of everyKind.filter(([l]) =>
    !l.includes('unknown') && !l.includes('asset') && !l.includes('keyed') &&
    !l.includes('metrics'))) {
    assertPassed(await send(exposed.port, method, path, { ...headers, host: EVIL }, body),
      `${label} Host ${EVIL}`);
  }
  const host = `203.0.113.7:${exposed.port}`;
  const mcp = await send(exposed.port, 'POST', '/api/mcp/public', { ...MCP_HEADERS, host,
    origin: `http://${EVIL}` }, INITIALIZE);
  assertRefused(mcp, 'origin_not_allowed', 'mcp, foreign Origin');
  const account = await send(exposed.port, 'GET', '/api/v1/account/session',
    { host, origin: `http://${EVIL}` });
  assertRefused(account, 'origin_not_allowed', 'account, foreign Origin');
});

loopback.run();
widened.run();
open.run();
