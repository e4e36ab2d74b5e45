// The polls' hot path answers from memos (route match per path, store names per symbol, one
// answer per stored entry): each must still follow the store as it changes (a new version, an
// untracked or unlisted pair), and a case-folded or encoded symbol keeps its slow path.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bearer, get, startTestServer } from './helpers/harness.js';

test('a memoized symbol follows the store: new bytes, not tracked, no longer listed', async () => {
  const s = await startTestServer({ config: { limitsEnabled: false } });
  try {
    const auth = bearer(s.keyOf.Whale);
    const first = await get(`${s.url}/api/v1/deep-view/BTC`, auth);
    assert.is(first.status, 200);
    assert.is(first.json.symbol, 'BTC');
    // The same path again (memoized now), then a new version of the view: the new bytes.
    assert.is((await get(`${s.url}/api/v1/deep-view/BTC`, auth)).text, first.text);
    const next = Buffer.from(JSON.stringify({ symbol: 'BTC', price: 1 }));
    s.store.put('deep-view/BTC', next, { version: 2, updatedAtMs: Date.now(), cadenceMs: 1000 });
    const second = await get(`${s.url}/api/v1/deep-view/BTC`, auth);
    assert.is(second.status, 200);
    assert.is(second.text, next.toString());
    assert.is.not(second.headers.get('etag'), first.headers.get('etag'));
    // Untracked: listed, but the view is gone.
    s.store.delete('deep-view/BTC');
    const untracked = await get(`${s.url}/api/v1/deep-view/BTC`, auth);
    assert.is(untracked.status, 404);
    assert.match(untracked.text, /not_tracked|not tracked/);
    // Delisted: the pair detail is gone too.
    s.store.delete('pair/BTC');
    const unknown = await get(`${s.url}/api/v1/pair/BTC`, auth);
    assert.is(unknown.status, 404);
    assert.match(unknown.text, /unknown_symbol|unknown symbol/);
    // kPEPE asked as KPEPE and with an encoded builder dex still resolve (not memoized).
    for (let i = 0; i < 2; i++) {
      const folded = await get(`${s.url}/api/v1/pair/KPEPE`, auth);
      assert.is(folded.status, 200);
      assert.is(folded.json.symbol, 'kPEPE');
      const encoded = await get(`${s.url}/api/v1/pair/xyz%3ATSLA`, auth);
      assert.is(encoded.status, 200);
      assert.is(encoded.json.symbol, 'xyz:TSLA');
    }
    // A path under a route with a second segment is still no route.
    assert.is((await get(`${s.url}/api/v1/pair/BTC/x`, auth)).status, 404);
    assert.is((await get(`${s.url}/api/v1/pair/`, auth)).status, 404);
  } finally {
    await s.close();
  }
});

test.run();
