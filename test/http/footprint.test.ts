// GET /api/v1/footprint and /api/v1/volume-profile over HTTP: their shapes, the stored bars
// joined with the view's, plans, errors, CSV, ETag 304 and their 10-a-minute burst scope.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearer, get, startTestServer, type TestServer } from './helpers/harness.js';
import { footprintRecord, T0 } from './helpers/seed.js';

const FIVE = 300_000;
const open5m = Math.floor(T0 / FIVE) * FIVE;

let t: TestServer;
const fp = suite('footprint');
fp.before(async () => {
  t = await startTestServer();
  // Stored: the 40 closed 5m bars before the view's newest closed one, and a day before (naked).
  for (let k = 2; k <= 41; k++) t.footprints.add(footprintRecord('5m', open5m - k * FIVE));
  t.footprints.add({ ...footprintRecord('5m', open5m - 86_400_000), firstLevel: 40_000 });
  await t.footprints.flush();
});
fp.after(() => t.close());
// A fresh burst window for every test: the scope allows 10 a minute.
fp.before.each(() => t.clock.advance(61_000));

const whale = () => bearer(t.keyOf.Whale);

fp('the footprint: bars oldest first, the open one last, levels ascending', async () => {
  const r = await get(t.url + '/api/v1/footprint/BTC?timeframe=5m&bars=5', whale());
  assert.is(r.status, 200);
  const body = r.json;
  assert.equal(Object.keys(body), ['symbol', 'timeframe', 'tickSize', 'levelSize', 'bars',
    'updatedAt', 'cadenceMs', 'stale', 'asOf']);
  assert.is(body.symbol, 'BTC');
  assert.is(body.levelSize, 2);
  assert.is(body.bars.length, 5);
  const times = body.bars.map((b: { openTime: string }) => Date.parse(b.openTime));
  assert.equal(times, [4, 3, 2, 1, 0].map((k) => open5m - k * FIVE));
  assert.equal(body.bars.map((b: { closed: boolean }) => b.closed),
    [true, true, true, true, false]);
  const bar = body.bars[0];
  assert.equal(Object.keys(bar), ['openTime', 'closeTime', 'closed', 'basis', 'high', 'low',
    'volume', 'delta', 'pocPrice', 'clippedVolume', 'levels', 'stackedImbalances']);
  assert.equal(bar.levels, [
    { price: 97_000, buy: 0.5, sell: 0.1, delta: 0.4 },
    { price: 97_002, buy: 2, sell: 1.5, delta: 0.5 },
    { price: 97_004, buy: 1.25, sell: 0, delta: 1.25 },
  ]);
  assert.is(bar.volume, 5.35);
  assert.is(bar.delta, 2.15);
  assert.is(bar.pocPrice, 97_002);
  assert.equal(bar.stackedImbalances,
    [{ side: 'buy', fromPrice: 97_000, toPrice: 97_004, levels: 3 }]);
  const hours = await get(t.url + '/api/v1/footprint/BTC?timeframe=1h', whale());
  assert.is(hours.json.bars.length, 1);
  assert.is(hours.json.bars[0].basis, 'candles', 'a bar of candles says so');
  assert.equal(hours.json.bars[0].levels, []);
  const many = await get(t.url + '/api/v1/footprint/BTC?bars=200', whale());
  assert.is(many.json.bars.length, 43, 'stored, the newest closed from the view, the open one');
});

fp('the volume profile of today, with its value area and yesterday\'s naked POC', async () => {
  const r = await get(t.url + '/api/v1/volume-profile/BTC', whale());
  assert.is(r.status, 200);
  const b = r.json;
  assert.equal(Object.keys(b), ['symbol', 'session', 'start', 'end', 'levelSize', 'pocPrice',
    'valueAreaHigh', 'valueAreaLow', 'volume', 'levels', 'nakedPocs', 'basis', 'updatedAt',
    'cadenceMs', 'stale', 'asOf']);
  assert.is(b.session, 'today');
  assert.is(b.start, '2026-11-22T00:00:00.000Z');
  // 42 bars of 5.35: 3.5 of each at the POC level (65 %), then 1.25 above joins (89 %).
  assert.is(b.volume, 42 * 5.35);
  assert.is(b.pocPrice, 97_002);
  assert.is(b.valueAreaLow, 97_002);
  assert.is(b.valueAreaHigh, 97_006);
  assert.equal(b.levels.map((l: { price: number }) => l.price), [97_000, 97_002, 97_004]);
  assert.equal(b.nakedPocs, [{ price: 80_002, sessionStart: '2026-11-21T00:00:00.000Z' }]);
  const y = await get(t.url + '/api/v1/volume-profile/BTC?session=yesterday', whale());
  assert.is(y.json.pocPrice, 80_002);
  assert.is(y.json.volume, 5.35);
  const range = await get(t.url + '/api/v1/volume-profile/BTC?start=' +
    new Date(open5m - 3 * FIVE).toISOString() + `&end=${open5m}`, whale());
  assert.is(range.json.session, 'range');
  assert.is(range.json.volume, 16.05);
});

fp('CSV by format=csv, one row per level', async () => {
  const r = await get(t.url + '/api/v1/footprint/BTC?bars=1&format=csv', whale());
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /text\/csv/);
  assert.is(r.text, 'openTime,closeTime,closed,basis,price,buy,sell,delta,poc\r\n' +
    '2026-11-22T10:00:00.000Z,2026-11-22T10:05:00.000Z,false,trades,97000,0.5,0.1,0.4,false\r\n' +
    '2026-11-22T10:00:00.000Z,2026-11-22T10:05:00.000Z,false,trades,97002,2,1.5,0.5,true\r\n' +
    '2026-11-22T10:00:00.000Z,2026-11-22T10:05:00.000Z,false,trades,97004,1.25,0,1.25,false\r\n');
  const p = await get(t.url + '/api/v1/volume-profile/BTC?format=csv', whale());
  assert.is(p.text.split('\r\n')[0], 'price,buy,sell,volume,poc,valueArea');
  assert.is(p.text.split('\r\n')[2], '97002,84,63,147,true,true');
});

fp('ETag and cadence headers; If-None-Match answers 304', async () => {
  for (const path of ['/api/v1/footprint/BTC?bars=3', '/api/v1/volume-profile/BTC']) {
    const first = await get(t.url + path, whale());
    const etag = first.headers.get('etag');
    assert.ok(etag);
    assert.is(first.headers.get('x-cadence-ms') ?? first.json.cadenceMs.toString(), '1000');
    const again = await get(t.url + path, { ...whale(), 'if-none-match': etag! });
    assert.is(again.status, 304, path);
  }
  const before = (await get(t.url + '/api/v1/footprint/BTC?bars=3', whale())).headers.get('etag');
  t.footprints.add(footprintRecord('5m', open5m - 60 * FIVE));
  await t.footprints.flush();
  const after = (await get(t.url + '/api/v1/footprint/BTC?bars=3', whale())).headers.get('etag');
  assert.is.not(after, before, 'a stored bar changes the tag');
});

fp('plans: Whale and API reach them, Pro is refused naming the tier', async () => {
  for (const path of ['/api/v1/footprint/BTC', '/api/v1/volume-profile/BTC']) {
    assert.is((await get(t.url + path, bearer(t.keyOf.API))).status, 200);
    const pro = await get(t.url + path, bearer(t.keyOf.Pro));
    assert.is(pro.status, 403);
    assert.is(pro.json.requiredPlan, 'Whale');
    const deep = await get(t.url + '/api/v1/deep-view/BTC');
    assert.is((await get(t.url + path)).status, deep.status, 'no key: as the deep view');
  }
});

fp('bad parameters are 400 problems naming the field; unknown symbols 404', async () => {
  const cases: [string, number, RegExp][] = [
    ['/api/v1/footprint/BTC?timeframe=4h', 400, /timeframe must be one of 5m, 15m, 1h/],
    ['/api/v1/footprint/BTC?bars=0', 400, /bars must be an integer from 1 to 200/],
    ['/api/v1/footprint/BTC?bars=201', 400, /bars must be/],
    ['/api/v1/footprint/BTC?format=xml', 400, /format must be one of json, csv/],
    ['/api/v1/footprint/NOPE', 404, /symbol must be a listed pair/],
    ['/api/v1/volume-profile/BTC?session=week', 400, /session must be one of today, yesterday/],
    ['/api/v1/volume-profile/BTC?start=yesterday', 400, /start must be an ISO 8601 instant/],
    ['/api/v1/volume-profile/BTC?start=2026-11-22&end=2026-11-21', 400, /end must be after/],
    ['/api/v1/volume-profile/BTC?start=2026-01-01&end=2026-11-21', 400, /at most 31 days/],
    ['/api/v1/volume-profile/BTC?end=2026-11-21', 400, /start must be given with end/],
  ];
  for (const [path, status, detail] of cases) {
    const r = await get(t.url + path, bearer(t.keyOf.API));
    assert.is(r.status, status, path);
    assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.match(r.json.detail, detail, path);
  }
  const session = await get(t.url + '/api/v1/volume-profile/BTC?session=today&start=2026-11-21',
    whale());
  assert.is(session.status, 400);
  assert.match(session.json.detail, /session must not be given with start/);
  const untracked = await get(t.url + '/api/v1/footprint/kPEPE', whale());
  assert.is(untracked.status, 404);
  assert.is(untracked.json.code, 'not_tracked');
});

fp('the burst scope allows 10 a minute across both endpoints', async () => {
  const key = bearer(t.keyOf.Whale);
  for (let i = 0; i < 10; i++) {
    const path = i % 2 === 0 ? '/api/v1/footprint/BTC' : '/api/v1/volume-profile/BTC';
    assert.is((await get(t.url + path, key)).status, 200, `request ${i + 1}`);
  }
  const over = await get(t.url + '/api/v1/footprint/BTC', key);
  assert.is(over.status, 429);
  assert.is(over.json.scope, 'footprint');
  assert.is(over.json.limit, 10);
});

fp.run();
