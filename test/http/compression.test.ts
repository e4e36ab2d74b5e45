// gzip for large cached answers: a client that accepts gzip gets the same bytes compressed, with
// an ETag of their own and Vary: Accept-Encoding; q=0 refuses it; small answers, and clients that
// send no Accept-Encoding, get the identity bytes exactly as stored. Raw node:http requests:
// fetch would ask for gzip itself and hide the encoding.
import { request, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptsGzip, GZIP_BODY_BYTES_MIN, negotiated } from '../../http/compression.js';
import type { Payload } from '../../http/respond.js';
import { startTestServer, type TestServer } from './helpers/harness.js';
import { footprintRecord, T0 } from './helpers/seed.js';

interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

function raw(url: string, headers: Record<string, string>, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers,
        body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The answer's headers without the per-second Date. */
function stable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { date: _date, ...rest } = headers;
  return rest;
}

const varies = (a: RawAnswer): boolean => /accept-encoding/i.test(String(a.headers.vary ?? ''));

let t: TestServer;
let auth: Record<string, string>;
// A deep view well above the minimum, put as the shards would: its bytes are the answer.
const large = Buffer.from(JSON.stringify({ symbol: 'BTC',
  levels: Array.from({ length: 400 }, (_, i) => ({ price: 97_000 + i, size: i * 0.125 })) }));
const gz = suite('gzip answers');
gz.before(async () => {
  t = await startTestServer({ config: { limitsEnabled: false } });
  auth = { authorization: `Bearer ${t.keyOf.Whale}` };
  t.store.put('deep-view/BTC', large, { version: 2, updatedAtMs: T0, cadenceMs: 1000 });
  const five = 300_000;
  for (let k = 2; k <= 30; k++) {
    t.footprints.add(footprintRecord('5m', Math.floor(T0 / five) * five - k * five));
  }
  await t.footprints.flush();
});
gz.after(() => t.close());

gz('a large view: gzip decompresses to the stored bytes, identity is those bytes', async () => {
  const url = t.url + '/api/v1/deep-view/BTC';
  const plain = await raw(url, auth);
  assert.is(plain.status, 200);
  assert.ok(plain.body.equals(large), 'identity: the stored bytes');
  assert.is(plain.headers['content-encoding'], undefined);
  assert.ok(varies(plain), 'identity answers of a compressible view vary too');
  const zipped = await raw(url, { ...auth, 'accept-encoding': 'gzip, deflate, br' });
  assert.is(zipped.status, 200);
  assert.is(zipped.headers['content-encoding'], 'gzip');
  assert.ok(varies(zipped));
  assert.ok(gunzipSync(zipped.body).equals(large), 'gzip: the same bytes');
  assert.ok(zipped.body.byteLength < large.byteLength / 2);
  assert.is(Number(zipped.headers['content-length']), zipped.body.byteLength);
  assert.is(zipped.headers.etag, plain.headers.etag!.slice(0, -1) + '-gz"');
  const again = await raw(url, { ...auth, 'accept-encoding': 'gzip' });
  assert.ok(again.body.equals(zipped.body));
});

gz('the footprint (a variant): gzip is the identity answer compressed', async () => {
  const url = t.url + '/api/v1/footprint/BTC?bars=50';
  const plain = await raw(url, auth);
  const zipped = await raw(url, { ...auth, 'accept-encoding': 'gzip' });
  assert.ok(plain.body.byteLength > GZIP_BODY_BYTES_MIN);
  assert.is(zipped.headers['content-encoding'], 'gzip');
  assert.ok(gunzipSync(zipped.body).equals(plain.body));
  assert.is.not(zipped.headers.etag, plain.headers.etag);
  assert.ok(varies(zipped) && varies(plain));
  assert.is(plain.headers['content-type'], 'application/json');
  assert.is(zipped.headers['content-type'], 'application/json');
});

gz('q=0 refuses gzip, and so does an encoding list without it', async () => {
  const url = t.url + '/api/v1/deep-view/BTC';
  for (const value of ['gzip;q=0', 'gzip; q=0.0, *', 'deflate, br', '*;q=0', 'identity']) {
    const a = await raw(url, { ...auth, 'accept-encoding': value });
    assert.is(a.headers['content-encoding'], undefined, value);
    assert.ok(a.body.equals(large), value);
  }
  for (const value of ['GZIP;Q=1', '*;q=0.5', 'br, gzip;q=0.001', 'x-gzip']) {
    const a = await raw(url, { ...auth, 'accept-encoding': value });
    assert.is(a.headers['content-encoding'], 'gzip', value);
  }
});

gz('a small answer is never compressed: the same headers and bytes as without the header',
  async () => {
    const url = t.url + '/api/v1/pair/BTC';
    const plain = await raw(url, auth);
    const asked = await raw(url, { ...auth, 'accept-encoding': 'gzip' });
    assert.ok(plain.body.byteLength <= GZIP_BODY_BYTES_MIN);
    assert.ok(plain.body.equals(t.store.get('pair/BTC')!.body), 'the stored bytes');
    assert.ok(asked.body.equals(plain.body));
    assert.equal(stable(asked.headers), stable(plain.headers));
    assert.is(asked.headers['content-encoding'], undefined);
    assert.not.ok(varies(asked));
  });

gz('each encoding has its ETag: 304 on its own tag, 200 on the other\'s', async () => {
  const url = t.url + '/api/v1/deep-view/BTC';
  const gzip = { ...auth, 'accept-encoding': 'gzip' };
  const plainTag = (await raw(url, auth)).headers.etag!;
  const gzipTag = (await raw(url, gzip)).headers.etag!;
  const zipped304 = await raw(url, { ...gzip, 'if-none-match': gzipTag });
  assert.is(zipped304.status, 304);
  assert.is(zipped304.headers.etag, gzipTag);
  assert.is(zipped304.body.byteLength, 0);
  const plain304 = await raw(url, { ...auth, 'if-none-match': plainTag });
  assert.is(plain304.status, 304);
  assert.is(plain304.headers.etag, plainTag);
  const crossed = await raw(url, { ...gzip, 'if-none-match': plainTag });
  assert.is(crossed.status, 200);
  assert.is(crossed.headers['content-encoding'], 'gzip');
  const back = await raw(url, { ...auth, 'if-none-match': gzipTag });
  assert.is(back.status, 200);
  assert.ok(back.body.equals(large));
});

gz('HEAD announces the encoding and tag GET would send', async () => {
  const url = t.url + '/api/v1/deep-view/BTC';
  const gzip = { ...auth, 'accept-encoding': 'gzip' };
  const get = await raw(url, gzip);
  const head = await raw(url, gzip, 'HEAD');
  assert.is(head.status, 200);
  assert.is(head.body.byteLength, 0);
  assert.is(head.headers['content-encoding'], 'gzip');
  assert.is(head.headers.etag, get.headers.etag);
  assert.ok(varies(head));
  const plainHead = await raw(url, auth, 'HEAD');
  assert.is(plainHead.headers['content-encoding'], undefined);
  assert.is(plainHead.headers.etag, (await raw(url, auth)).headers.etag);
});

gz.run();

const unit = suite('gzip negotiation');

unit('Accept-Encoding q-values', () => {
  const cases: [string, boolean][] = [['', false], ['gzip', true], ['gzip;q=0', false],
    ['gzip;q=0.000', false], ['gzip;q=0.5', true], ['*', true], ['*;q=0', false],
    ['gzip;q=0, *;q=1', false], ['deflate, *;q=0.1', true], ['br', false],
    ['gzip;q=junk', false], ['identity;q=1, x-gzip;q=0.2', true]];
  for (const [value, expected] of cases) assert.is(acceptsGzip(value), expected, value);
});

unit('a payload is compressed once; answers without an ETag are left alone', () => {
  const body = Buffer.from('x'.repeat(4096));
  const payload: Payload = { contentType: 'application/json', body: body as unknown as Uint8Array,
    cacheControl: 'max-age=1', etag: '"a"' };
  const first = negotiated(payload, 'gzip');
  assert.is(negotiated(payload, 'gzip'), first, 'the same cached payload');
  assert.is(first.etag, '"a-gz"');
  assert.is(negotiated(payload, ''), negotiated(payload, 'br'));
  const perRequest: Payload = { ...payload, etag: undefined, cacheControl: 'no-store' };
  assert.is(negotiated(perRequest, 'gzip'), perRequest);
  const problem: Payload = { ...payload, status: 404 };
  assert.is(negotiated(problem, 'gzip'), problem);
});

unit.run();
