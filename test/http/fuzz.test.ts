// Bad input never gets a 5xx or a crash: 1,200 generated malformed requests over raw TCP, each
// answered 4xx problem+json, plus broken HTTP framing, with the server answering throughout.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exchange, type RawAnswer } from './helpers/raw.js';
import { startTestServer } from './helpers/harness.js';

/** Deterministic PRNG (mulberry32) so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(7);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const junk = (n: number, alphabet: string) =>
  Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');

const SYMBOL_ROUTES = ['pair', 'deep-view', 'cvd', 'liquidation-map'];
const BAD_SYMBOL_PARTS = ['..', '%2e%2e', '%2F', '%00', '%0A', '%7F', '%C0%AF', '%E2%80%AE',
  '%F0%9F%92%A9', '%', '%G1', '%u0041', '%252e', '%20', '-', '_', '.', '$', '%3A%3A', ':',
  '\xc3\xa9', '\xe2\x82\xac', '~', '!', '*', "'", '(', ')', 'a'.repeat(30)];
const KEY_HEADERS = ['Authorization: Bearer ', 'Authorization: Basic ', 'Authorization: ',
  'x-api-key: ', 'Authorization: Bearer  ofk_'];

/** A request line target or header set with exactly one thing wrong. */
function malformed(key: string): { method: string; target: string; headers: string[] } {
  const route = pick(SYMBOL_ROUTES);
  const auth = [`Authorization: Bearer ${key}`];
  switch (Math.floor(random() * 7)) {
    case 0: return { method: 'GET', target: '/' + junk(1 + Math.floor(random() * 40),
      'abcxyz/.%-_~0123456789'), headers: [] };
    case 1: return { method: 'GET', headers: auth, target: `/api/v1/${route}/` +
      junk(1, 'BTCk') + pick(BAD_SYMBOL_PARTS) + junk(Math.floor(random() * 3), 'ABC') };
    case 2: return { method: 'GET', headers: auth, target: `/api/v1/${route}/BTC?` + pick([
      'interval=5m&interval=5m', 'limit=' + junk(3, '-e.x9'), junk(5, 'qwerty') + '=1',
      'a=%', 'limit=%ZZ', Array.from({ length: 20 }, (_, i) => `p${i}=1`).join('&'),
      'interval=' + junk(2, '%Ü'), 'api_key=x&api_key=y', '=' ]) };
    case 3: return { method: 'GET', target: pick(['/api/v1/screener', '/api/v1/signals',
      '/api/v1/pair/BTC']), headers: [pick(KEY_HEADERS) + pick(['ofk_' + junk(31, 'abcdef0'),
      'ofk_' + junk(32, 'ABCDEF'), 'ofk_' + junk(33, '0123'), junk(36, 'ghijk'), 'ofk_',
      'ofk_' + junk(32, 'é€\u00a0'), '\u00ff'.repeat(8)])] };
    case 4: return { method: pick(['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'FOO', 'CONNECT',
      'PROPFIND']), target: pick(['/api/v1/screener', '/api/v1/pair/BTC', '/healthz']),
      headers: ['Content-Length: 0'] };
    case 5: return { method: 'GET', headers: [], target: '/api/v1/screener?api_key=' +
      junk(2_100 + Math.floor(random() * 1_200), 'abc%20') };
    default: return { method: 'GET', headers: auth, target: pick([
      '/api/v1/pair/../../etc/passwd', '/api/v1/pair/BTC/../../screener', '//api/v1/screener',
      '/api/v1//pair/BTC', '/api/v1/pair/%2e%2e/%2e%2e/x', '/api/v1/export/..%2Fscreener.csv',
      '/api/v1/export/screener.json', '/api/v1/wallets/0x' + junk(39, '0123456789abcdef'),
      '/api/v1/wallets/' + junk(42, 'xyz'), '/%2e%2e/metrics', '/api/v1/screener/x']) };
  }
}

function toBytes(request: { method: string; target: string; headers: string[] }): Buffer {
  const extra = random() < 0.3 ? [`If-None-Match: ${junk(10, '"W/,*x')}`,
    `Origin: ${junk(12, 'htps:/.é')}`, `X-Forwarded-For: ${junk(15, '1.2,:f ')}`] : [];
  const lines = [`${request.method} ${request.target} HTTP/1.1`, 'Host: localhost',
    ...request.headers, ...extra, 'Connection: close', '', ''];
  return Buffer.from(lines.join('\r\n'), 'latin1');
}

function assertProblem(answer: RawAnswer, label: string): void {
  assert.ok(answer.status !== null && answer.status >= 400 && answer.status < 500,
    `${label}: status ${answer.status}`);
  assert.is(answer.headers['content-type'], 'application/problem+json', label);
  const body = JSON.parse(answer.body);
  assert.is(body.status, answer.status, label);
  assert.type(body.code, 'string', label);
  assert.type(body.detail, 'string', label);
}

test('1,200 malformed requests: a 4xx problem+json each time, and the server still answers',
  async () => {
    const t = await startTestServer();
    try {
      const requests = Array.from({ length: 1_200 }, () => toBytes(malformed(t.keyOf.Whale)));
      const statuses = new Map<number, number>();
      for (let i = 0; i < requests.length; i += 24) {
        t.clock.advance(61_000);
        const batch = requests.slice(i, i + 24);
        const answers = await Promise.all(batch.map((bytes) => exchange(t.server.port, bytes)));
        answers.forEach((answer, j) => {
          const label = batch[j]!.toString('latin1').split('\r\n')[0]!.slice(0, 120);
          assertProblem(answer, label);
          statuses.set(answer.status!, (statuses.get(answer.status!) ?? 0) + 1);
        });
      }
      for (const status of [400, 401, 404, 405, 414]) {
        assert.ok((statuses.get(status) ?? 0) > 20, `status ${status} was exercised`);
      }
      const health = await exchange(t.server.port,
        Buffer.from('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
      assert.is(health.status, 200);
    } finally {
      await t.close();
    }
  });

/*
 * Framing the HTTP parser of uWS rejects before any handler runs: it closes the connection or
 * answers with its own fixed status (431 for oversized headers; 505 for anything that is not
 * HTTP/1.1, including raw control bytes in the target). Those bodies are not ours to shape;
 * what we assert is that none of it reaches a handler as a 2xx and the server keeps answering.
 */
const BROKEN = [
  'GARBAGE\r\n\r\n', 'GET /api/v1/screener\r\n\r\n', 'GET /api/v1/screener HTTP/1.0\r\n\r\n',
  'GET /api/v1/screener HTTP/2.0\r\nHost: localhost\r\n\r\n',
  'GET  /api/v1/screener HTTP/1.1\r\n\r\n',
  'GET /api/v1/pair/\x01BTC HTTP/1.1\r\nHost: localhost\r\n\r\n',
  'GET /api/v1/screener HTTP/1.1\r\nBad Header\r\n\r\n',
  'GET /api/v1/screener HTTP/1.1\r\nHost: localhost\r\nX-Big: ' + 'b'.repeat(9_000) + '\r\n\r\n',
  'GET /' + 'a'.repeat(6_000) + ' HTTP/1.1\r\nHost: localhost\r\n\r\n',
  'GET /api/v1/screener HTTP/1.1\nHost: localhost\n\n', '\x00\x01\x02\x03\r\n\r\n',
  'GET /api/v1/screener HTTP/1.1\r\nHost: localhost\r\n' + 'X-A: 1\r\n'.repeat(200) + '\r\n',
  'GET http://evil/api/v1/screener HTTP/1.1\r\nHost: localhost\r\n\r\n', 'GET * HTTP/1.1\r\n\r\n',
  'GET /api/v1/screener HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n',
  'GET /api/v1/screener HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  'GET /api/v1/scr', '\r\n\r\n\r\n',
  'GET /api/v1/screener HTTP/1.1\r\nHost: localhost\r\nx-api-key: ofk_\x00\r\n\r\n',
];

test('broken framing: closed or refused by the parser, never a 2xx; the server still answers',
  async () => {
    const t = await startTestServer();
    try {
      for (const raw of BROKEN) {
        const answer = await exchange(t.server.port, Buffer.from(raw, 'latin1'), 1_000);
        const label = JSON.stringify(raw.slice(0, 60));
        assert.ok(answer.status === null || answer.status >= 400, `${label}: ${answer.status}`);
        if (answer.status !== null && answer.status >= 500) {
          assert.is(answer.status, 505, `${label}: only the parser's version refusal is 5xx`);
        }
        const health = await exchange(t.server.port,
          Buffer.from('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
        assert.is(health.status, 200, `answers after ${label}`);
      }
    } finally {
      await t.close();
    }
  });

test.run();
