// The fast path of feed answers: header blocks (several headers in one uWS call) reach the wire
// as separate, ordered lines; requests read lazily still pick the right credential and address.
import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { httpBounds } from '../../http/bounds.js';
import { bytesOf } from '../../http/bytes.js';
import { createKeyReader } from '../../http/credentials.js';
import { headerBlock, joinBlocks, PrebuiltHeaders } from '../../http/header-block.js';
import { bearer, get, startTestServer, type TestServer } from './helpers/harness.js';

const blocks = suite('header blocks');

blocks('join headers into one writeHeader call, in order', () => {
  assert.equal(headerBlock([['A', '1'], ['B', '2'], ['C', '3']]), ['A', '1\r\nB: 2\r\nC: 3']);
  assert.equal(headerBlock([['A', '1']]), ['A', '1']);
  assert.equal(joinBlocks(['A', '1\r\nB: 2'], ['C', '3']), ['A', '1\r\nB: 2\r\nC: 3']);
});

blocks('refuse CR or LF in a name or value, and an empty list', () => {
  assert.throws(() => headerBlock([['A', '1'], ['B', 'x\r\nSet-Cookie: y']]), /must not hold CR/);
  assert.throws(() => headerBlock([['A\n', '1']]), /must not hold CR/);
  assert.throws(() => headerBlock([['A', 'x\ry']]), /must not hold CR/);
  assert.throws(() => headerBlock([]), /at least one header/);
});

blocks('a payload\'s blocks joined with CORS are the same bytes, encoded once', () => {
  const prebuilt = new PrebuiltHeaders(headerBlock([['Content-Type', 'application/json'],
    ['ETag', '"é1"']]), headerBlock([['ETag', '"é1"']]));
  const cors = headerBlock([['Access-Control-Allow-Origin', '*']]);
  const answer = prebuilt.answerWith(cors);
  assert.ok(Buffer.isBuffer(answer[0]) && Buffer.isBuffer(answer[1]));
  assert.is(answer[0].toString(), 'Content-Type');
  assert.is(answer[1].toString(),
    'application/json\r\nETag: "é1"\r\nAccess-Control-Allow-Origin: *');
  assert.is(prebuilt.answerWith(cors), answer);
  assert.is(prebuilt.notModifiedWith(cors)[1].toString(),
    '"é1"\r\nAccess-Control-Allow-Origin: *');
});

blocks.run();

const keysRead = suite('key reader');
const none = { authorization: undefined, xApiKey: undefined, queryKey: undefined };
const hex = (n: number) => createHash('md5').update(String(n)).digest('hex');

keysRead('memoized digests stay right, per spelling, also after the memo starts afresh', () => {
  const read = createKeyReader();
  const key = `ofk_${hex(0)}`;
  const digest = createHash('sha256').update(key).digest('hex');
  const first = read({ ...none, authorization: `Bearer ${key}` });
  assert.equal(first, { kind: 'key', key, source: 'Authorization', digest,
    prefix: key.slice(0, 12) });
  assert.is(read({ ...none, authorization: `Bearer ${key}` }), first, 'a hit is the same read');
  const viaHeader = read({ ...none, xApiKey: key });
  assert.is(viaHeader.kind === 'key' ? viaHeader.source : viaHeader.kind, 'x-api-key');
  for (let i = 1; i <= httpBounds.keyDigestsMax; i++) {
    read({ ...none, authorization: `Bearer ofk_${hex(i)}` });
  }
  assert.equal(read({ ...none, authorization: `Bearer ${key}` }), first);
  assert.is(read({ ...none, authorization: `Bearer ${key.toUpperCase()}` }).kind, 'malformed');
  assert.is(read(none).kind, 'none');
});

keysRead.run();

/** The status line and header lines of one answer, as sent, in order. */
function headLines(port: number, request: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(3_000, () => socket.destroy(new Error('no answer within 3 s')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve(text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n'));
    });
    socket.write(bytesOf(Buffer.from(`${request}Connection: close\r\n\r\n`)));
  });
}

/** Header names in order, lower case, without the ones uWS adds (Date, uWebSockets). */
const names = (lines: string[]) => lines.slice(1).map((l) => l.slice(0, l.indexOf(':'))
  .toLowerCase()).filter((n) => n !== 'date' && n !== 'uwebsockets');

let t: TestServer;
const wire = suite('on the wire');
wire.before(async () => {
  t = await startTestServer({ config: { limitsEnabled: false } });
});
wire.after(() => t.close());

wire('a feed answer: every header on its own line, once, in order', async () => {
  const get1 = 'GET /api/v1/pair/BTC HTTP/1.1\r\nHost: localhost\r\n' +
    `Authorization: Bearer ${t.keyOf.Pro}\r\n`;
  const lines = await headLines(t.server.port, get1);
  assert.is(lines[0], 'HTTP/1.1 200 OK');
  assert.equal(names(lines), ['content-type', 'cache-control', 'etag', 'last-modified',
    'x-producer-cadence-ms', 'access-control-allow-origin', 'access-control-expose-headers',
    'content-length']);
  assert.ok(lines.includes('Content-Type: application/json'));
  assert.ok(lines.includes('Access-Control-Allow-Origin: *'));
  // Again: this answer comes from the block joined with CORS by the first one.
  const noDate = (l: string[]) => l.filter((line) => !line.startsWith('Date:'));
  assert.equal(noDate(await headLines(t.server.port, get1)), noDate(lines));
});

wire('a 304: the validators and CORS, no Content-Type, no body', async () => {
  const etag = (await get(t.url + '/api/v1/pair/BTC')).headers.get('etag')!;
  for (let i = 0; i < 2; i++) {
    const lines = await headLines(t.server.port,
      `GET /api/v1/pair/BTC HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: ${etag}\r\n`);
    assert.is(lines[0], 'HTTP/1.1 304 Not Modified');
    assert.equal(names(lines), ['cache-control', 'etag', 'last-modified',
      'x-producer-cadence-ms', 'access-control-allow-origin', 'access-control-expose-headers']);
    assert.ok(lines.includes(`ETag: ${etag}`));
  }
});

wire('Authorization wins over a junk x-api-key, which is then never looked at', async () => {
  const r = await get(t.url + '/api/v1/signals', { ...bearer(t.keyOf.Whale),
    'x-api-key': 'junk' });
  assert.is(r.status, 200);
  const junkFirst = await get(t.url + '/api/v1/signals', { 'x-api-key': 'junk' });
  assert.is(junkFirst.status, 401);
  assert.match(junkFirst.json.detail, /x-api-key must hold a key/);
});

wire.run();

let limited: TestServer;
const addresses = suite('client address, read on demand');
addresses.before(async () => {
  limited = await startTestServer({ config: { keylessDailyLimit: 2 } });
});
addresses.after(() => limited.close());

addresses('keyless requests are counted per client IP; keyed ones carry RateLimit', async () => {
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await get(limited.url + '/api/v1/screener')).status);
  assert.equal(statuses, [200, 200, 429]);
  const keyed = await get(limited.url + '/api/v1/screener', bearer(limited.keyOf.Pro));
  assert.is(keyed.status, 200);
  assert.match(keyed.headers.get('ratelimit')!, /^"burst";r=59;t=\d+, "daily";r=\d+;t=\d+$/);
  const usage = await get(limited.url + '/api/v1/usage', bearer(limited.keyOf.Pro));
  assert.is(usage.json.used, 1);
});

addresses.run();
