// A repeated poll of one footprint or volume-profile URL answers from a memo of its finished
// answer: it must follow a new version of the view, a commit of the bar store and a delisting,
// keep its gzip and 304 answers in step, and still count every request against the burst scope.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { httpBounds } from '../../http/bounds.js';
import { QueryMemo } from '../../http/query.js';
import { bearer, get, startTestServer, type TestServer } from './helpers/harness.js';
import { footprintRecord, T0 } from './helpers/seed.js';

const FIVE = 300_000;
const open5m = Math.floor(T0 / FIVE) * FIVE;
const FOOTPRINT = '/api/v1/footprint/BTC?timeframe=5m&bars=200';
const PROFILE = '/api/v1/volume-profile/BTC?session=today';

/** The footprint view with the open 5m bar's buy volumes given. */
function footprintView(version: number, buy: number[]): [Buffer, { version: number;
  updatedAtMs: number; cadenceMs: number }] {
  const timeframes = {
    '5m': { open: { ...footprintRecord('5m', open5m), buy },
      closed: footprintRecord('5m', open5m - FIVE) },
    '15m': { open: null, closed: null },
    '1h': { open: null, closed: null },
  };
  const view = { symbol: 'BTC', timeframes, updatedAt: new Date(T0).toISOString(),
    cadenceMs: 1000, stale: false, asOfMs: T0 };
  return [Buffer.from(JSON.stringify(view)), { version, updatedAtMs: T0, cadenceMs: 1000 }];
}

let t: TestServer;
const poll = suite('repeated poll');
poll.before.each(async () => {
  t = await startTestServer({ config: { limitsEnabled: false } });
});
poll.after.each(() => t.close());

const whale = () => bearer(t.keyOf.Whale);

poll('the same URL follows a new version of the view', async () => {
  t.store.put('footprint/BTC', ...footprintView(2, [0.5, 2, 1.25]));
  const first = await get(t.url + FOOTPRINT, whale());
  assert.is(first.status, 200);
  const again = await get(t.url + FOOTPRINT, whale());
  assert.is(again.text, first.text);
  assert.is(again.headers.get('etag'), first.headers.get('etag'));
  const firstProfile = await get(t.url + PROFILE, whale());
  assert.is((await get(t.url + PROFILE, whale())).text, firstProfile.text);

  t.store.put('footprint/BTC', ...footprintView(3, [7.5, 2, 1.25]));
  const next = await get(t.url + FOOTPRINT, whale());
  assert.is(next.status, 200);
  const open = next.json.bars[next.json.bars.length - 1];
  assert.is(open.closed, false);
  assert.is(open.levels[0].buy, 7.5, 'the new view\'s open bar');
  assert.is.not(next.headers.get('etag'), first.headers.get('etag'));
  const revalidated = await get(t.url + FOOTPRINT,
    { ...whale(), 'if-none-match': first.headers.get('etag')! });
  assert.is(revalidated.status, 200, 'the old tag no longer matches');
  const nextProfile = await get(t.url + PROFILE, whale());
  assert.ok(Math.abs(nextProfile.json.volume - (firstProfile.json.volume + 7)) < 1e-9,
    'the new open bar\'s volume');
});

poll('the same URL follows a commit of the bar store, in both encodings', async () => {
  const gzip = { ...whale(), 'accept-encoding': 'gzip' };
  const first = await get(t.url + FOOTPRINT, whale());
  const firstGzip = await get(t.url + FOOTPRINT, gzip);
  assert.is(firstGzip.headers.get('content-encoding'), 'gzip');
  assert.is((await get(t.url + FOOTPRINT, gzip)).headers.get('etag'),
    firstGzip.headers.get('etag'));
  const firstProfile = await get(t.url + PROFILE, whale());
  assert.is((await get(t.url + PROFILE, whale())).text, firstProfile.text);

  t.footprints.add(footprintRecord('5m', open5m - 2 * FIVE));
  await t.footprints.flush();
  const next = await get(t.url + FOOTPRINT, whale());
  assert.is(next.json.bars.length, first.json.bars.length + 1, 'the stored bar joins');
  const nextGzip = await get(t.url + FOOTPRINT, gzip);
  assert.is(nextGzip.json.bars.length, next.json.bars.length, 'fetch inflates it');
  assert.is.not(nextGzip.headers.get('etag'), firstGzip.headers.get('etag'));
  const stale = await get(t.url + FOOTPRINT,
    { ...gzip, 'if-none-match': firstGzip.headers.get('etag')! });
  assert.is(stale.status, 200);
  const current = await get(t.url + FOOTPRINT,
    { ...gzip, 'if-none-match': nextGzip.headers.get('etag')! });
  assert.is(current.status, 304);
  const nextProfile = await get(t.url + PROFILE, whale());
  assert.ok(Math.abs(nextProfile.json.volume - (firstProfile.json.volume + 5.35)) < 1e-9,
    'the stored bar\'s volume joins the day');
});

poll('the same URL answers 404 once the pair is delisted or untracked', async () => {
  assert.is((await get(t.url + FOOTPRINT, whale())).status, 200);
  assert.is((await get(t.url + FOOTPRINT, whale())).status, 200);
  const entry = t.store.get('footprint/BTC')!;
  t.store.delete('footprint/BTC');
  const untracked = await get(t.url + FOOTPRINT, whale());
  assert.is(untracked.status, 404);
  assert.is(untracked.json.code, 'not_tracked');
  t.store.put('footprint/BTC', entry.body, { version: entry.version + 1,
    updatedAtMs: entry.updatedAtMs, cadenceMs: entry.cadenceMs });
  assert.is((await get(t.url + PROFILE, whale())).status, 200);
  assert.is((await get(t.url + PROFILE, whale())).status, 200);
  t.store.delete('pair/BTC');
  for (const path of [FOOTPRINT, PROFILE]) {
    const unknown = await get(t.url + path, whale());
    assert.is(unknown.status, 404, path);
    assert.is(unknown.json.code, 'unknown_symbol', path);
  }
});

poll.run();

const burst = suite('burst scope');

burst('every poll of the same URL counts against the burst scope', async () => {
  const s = await startTestServer();
  try {
    for (let i = 0; i < 10; i++) {
      assert.is((await get(s.url + FOOTPRINT, bearer(s.keyOf.Whale))).status, 200, `poll ${i}`);
    }
    const over = await get(s.url + FOOTPRINT, bearer(s.keyOf.Whale));
    assert.is(over.status, 429);
    assert.is(over.json.scope, 'footprint');
  } finally {
    await s.close();
  }
});

burst.run();

const memo = suite('query memo');

memo('a repeated query string gives the same params; refusals and long ones are parsed again',
  () => {
    const queries = new QueryMemo(['bars', 'timeframe', 'api_key']);
    const first = queries.parse('bars=50');
    assert.ok(first.ok);
    assert.is(queries.parse('bars=50'), first);
    assert.equal([...(first.ok ? first.params : [])], [['bars', '50']]);
    const refused = queries.parse('bars=1&bars=2');
    assert.ok(!refused.ok);
    assert.is.not(queries.parse('bars=1&bars=2'), refused);
    const keyed = 'bars=50&api_key=of_secret';
    assert.is.not(queries.parse(keyed), queries.parse(keyed), 'a query with a key is not kept');
    const long = 'timeframe=' + 'x'.repeat(httpBounds.queryMemoTextMax);
    assert.is.not(queries.parse(long), queries.parse(long));
    for (let i = 0; i <= httpBounds.queryMemoMax; i++) queries.parse(`bars=${i}`);
    const after = queries.parse('bars=50');
    assert.ok(after.ok && after.params.get('bars') === '50', 'right after starting afresh');
  });

memo.run();
