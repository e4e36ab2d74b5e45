// CSV exports and cvd slices: content, quoting, defaults, bounds, and one build per version.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toCsv, field } from '../../http/csv.js';
import { SnapshotStore } from '../../http/snapshots.js';
import { VariantCache } from '../../http/variants.js';
import { exchange } from './helpers/raw.js';
import { bearer, get, startTestServer, type TestServer } from './helpers/harness.js';

const unit = suite('csv and cache');

unit('RFC 4180 quoting and the formula guard on text cells only', () => {
  const csv = toCsv([field('a'), field('b')], [
    { a: 'x,y', b: 'say "hi"' }, { a: '=SUM(A1)', b: -5 }, { a: null, b: Infinity },
    { a: 'line\nbreak', b: true },
  ]);
  assert.is(csv, 'a,b\r\n"x,y","say ""hi"""\r\n\'=SUM(A1),-5\r\n,\r\n"line\nbreak",true\r\n');
});

unit('a variant is built once per view version and rebuilt after a publish', () => {
  const store = new SnapshotStore();
  const cache = new VariantCache();
  let builds = 0;
  const build = () => ({ contentType: 'text/plain', body: String(++builds), cacheControl: '' });
  store.put('v', Buffer.from('{"n":1}'), { version: 1, updatedAtMs: 0, cadenceMs: 1000 });
  const first = cache.variant('v', store.get('v')!, 'p', build);
  assert.is(cache.variant('v', store.get('v')!, 'p', build), first);
  assert.is(builds, 1);
  cache.variant('v', store.get('v')!, 'q', build);
  assert.is(builds, 2, 'other parameters are another variant');
  store.put('v', Buffer.from('{"n":2}'), { version: 2, updatedAtMs: 1, cadenceMs: 1000 });
  assert.is.not(cache.variant('v', store.get('v')!, 'p', build), first);
  assert.equal(cache.dataOf('v', store.get('v')!), { n: 2 });
});

unit.run();

let t: TestServer;
const http = suite('over http');
http.before(async () => {
  t = await startTestServer();
});
http.after(() => t.close());
http.before.each(() => t.clock.advance(61_000));

http('cvd: default 5m and 100 points, newest last; limit up to 1000; variant ETag and 304',
  async () => {
    const key = bearer(t.keyOf.Whale);
    const r = await get(t.url + '/api/v1/cvd/BTC', key);
    assert.is(r.json.interval, '5m');
    assert.is(r.json.points.length, 100);
    assert.equal(r.json.points.at(-1), { time: '2026-11-22T09:55:00.000Z', cvd: 14990 });
    assert.is(r.json.cvd, 14990);
    const max = await get(t.url + '/api/v1/cvd/BTC?interval=1m&limit=1000', key);
    assert.is(max.json.points.length, 1000);
    assert.is.not(max.headers.get('etag'), r.headers.get('etag'));
    const again = await get(t.url + '/api/v1/cvd/BTC', { ...key,
      'if-none-match': r.headers.get('etag')! });
    assert.is(again.status, 304);
  });

http('CSV exports: every view, its header line, the screener with fundingAnnualized', async () => {
  const key = bearer(t.keyOf.API);
  const heads: Record<string, string> = {
    'screener': 'symbol,dex,price,change24h,volume24h,openInterest,fundingRate,' +
      'fundingAnnualized,delisted,tracked,stale',
    'signals': 'symbol,score,direction,vpin,cvd,regime,fundingAnnualized',
    'smart-money': 'address,label,category,accountValue,symbol,side,notional,leverage,' +
      'entryPrice,unrealizedPnl',
  };
  for (const [view, head] of Object.entries(heads)) {
    const r = await get(t.url + `/api/v1/export/${view}.csv`, key);
    assert.is(r.status, 200, view);
    assert.is(r.text.split('\r\n')[0], head, view);
    assert.is(r.headers.get('content-disposition'), `attachment; filename="${view}.csv"`);
  }
  const screener = (await get(t.url + '/api/v1/export/screener.csv', key)).text.split('\r\n');
  assert.is(screener.length, 5 + 2, 'header, five pairs, final CRLF');
  assert.ok(screener.includes("'=HACK,,1,1.25,1500000000,800000000,0.0000125,10.95,false," +
    'false,false'));
  const arb = (await get(t.url + '/api/v1/export/funding-arb.csv', key)).text.split('\r\n');
  assert.match(arb[0]!, /,home_intervalHours,home_annualized,exchange_b_intervalHours,/);
  assert.match(arb[1]!, /^BTC,0\.0000125,0\.0001,,0\.00005,,/);
});

http('a credential header that is empty or not UTF-8 is 401, not keyless', async () => {
  for (const header of ['x-api-key:', 'x-api-key: \xff\xff', 'Authorization: \xe9']) {
    const answer = await exchange(t.server.port, Buffer.from('GET /api/v1/pair/BTC HTTP/1.1\r\n' +
      `Host: localhost\r\n${header}\r\nConnection: close\r\n\r\n`, 'latin1'));
    assert.is(answer.status, 401, header);
  }
});

http.run();
