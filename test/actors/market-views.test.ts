// The shard -> front hand-over: a pair's views, made by the real pair engine on real BTC frames
// and cloned as a worker message is, are served by the real HTTP front as the same bytes, under
// the ETag the shard computed (or, for the spliced deep view, the hash of what is served), 304s
// still answer, and a refresh that finds nothing new keeps every version and tag.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { createPairEngine } from '../../actors/shard/pair-engine.js';
import { importWsRaw, type ImportReport } from '../../actors/feed/import/hl-ws-raw.js';
import { MarketViews } from '../../actors/runtime/market-views.js';
import { closingMember } from '../../actors/views/splice-field.js';
import { movedPairs } from '../../actors/shard/handover.js';
import { resolveConfig } from '../../core/config.js';
import { ManualClock } from '../../core/clock.js';
import { strongEtag } from '../../core/etag.js';
import { silentLogger } from '../../core/logger.js';
import type { PairViews, UniverseEvent } from '../../core/messages.js';
import { startHttpServer, type HttpServer } from '../../http/server.js';
import { SnapshotStore } from '../../http/snapshots.js';
import { keyFor, MemoryKeys, MemoryUsage } from '../http/helpers/seed.js';
import { venueFixture } from '../helpers/fixtures.js';

const cadenceMs = 1_000;
const T0 = Date.parse('2025-01-26T12:00:00.000Z');

function universe(tsMs: number, btcMarkPx = 104_000): UniverseEvent {
  const market = (symbol: string, markPx: number) => ({
    symbol, dex: '', szDecimals: 3, maxLeverage: 40, isDelisted: false, onlyIsolated: false,
    ctx: { markPx, prevDayPx: markPx * 0.99, dayNtlVlm: 1e9, openInterest: 1e4,
      fundingRate: 0.0000125, oraclePx: markPx, midPx: markPx },
  });
  return { type: 'universe', tsMs, markets: [market('BTC', btcMarkPx), market('ETH', 3_300)] };
}

/**
 * BTC's views after the first or second half of the real frames, as a worker would send: the
 * deep view closed with the pair's smart money (shard-actor.ts).
 */
function btcPublishes(smartMoneyJson = '{"longPct":60}'): PairViews[] {
  const report: ImportReport = { events: [], dropped: {} };
  importWsRaw(readFileSync(venueFixture('hl_ws_btc_raw_2025-01-26.txt'), 'utf8'), report);
  const engine = createPairEngine('BTC', { cadenceMs, wallNowMs: () => T0 });
  const half = Math.floor(report.events.length / 2);
  const out: PairViews[] = [];
  for (const part of [report.events.slice(0, half), report.events.slice(half)]) {
    for (const event of part) engine.onEvent(event);
    const published = engine.publish(T0);
    assert.ok(published, 'the engine publishes after events');
    // Packed as a shard sends it, and moved: what arrives on the main thread.
    const { pairs, transfer } = movedPairs([published!.views],
      () => closingMember('smartMoney', smartMoneyJson));
    out.push(structuredClone(pairs[0]!, { transfer }));
  }
  return out;
}

interface Setup {
  readonly store: SnapshotStore;
  readonly views: MarketViews;
  readonly server: HttpServer;
  readonly url: string;
  readonly auth: Record<string, string>;
}

async function setup(): Promise<Setup> {
  const store = new SnapshotStore();
  const views = new MarketViews(store, cadenceMs, 5_000);
  views.applyUniverse(universe(T0));
  views.setTracked(['BTC']);
  const keys = new MemoryKeys();
  const key = keyFor(7);
  keys.add(key, 'Whale');
  const server = await startHttpServer({
    config: resolveConfig({ host: '127.0.0.1', port: 0, limitsEnabled: false }),
    clock: new ManualClock(T0), logger: silentLogger, snapshots: store, keys,
    usage: new MemoryUsage(), readiness: () => ({ ready: true, checks: {} }),
  });
  return { store, views, server, url: `http://127.0.0.1:${server.port}`,
    auth: { authorization: `Bearer ${key}` } };
}

async function fetchBytes(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers });
  return { status: response.status, etag: response.headers.get('etag'),
    body: Buffer.from(await response.arrayBuffer()) };
}

test('the shard computes each view\'s ETag of the bytes it sends', () => {
  const [first] = btcPublishes();
  assert.equal(Object.keys(first!.etags ?? {}).sort(), Object.keys(first!.views).sort());
  for (const [kind, bytes] of Object.entries(first!.views)) {
    assert.is(first!.etags![kind], strongEtag(bytes), kind);
  }
});

test('views are served as the bytes the shard sent, under its ETag, and 304 on it', async () => {
  const [first] = btcPublishes();
  const s = await setup();
  try {
    s.views.applyPairViews([first!], T0);
    s.views.refresh(T0);
    // CVD is stored as sent: the same bytes, the shard's tag, no hash on this thread.
    const cvd = s.store.get('cvd/BTC')!;
    assert.ok(Buffer.from(first!.views.cvd!).equals(cvd.body), 'cvd bytes as sent');
    assert.is(cvd.etag, first!.etags!.cvd);
    // The deep view came closed with smart money: its tag is the hash of what is served.
    const deep = await fetchBytes(`${s.url}/api/v1/deep-view/BTC`, s.auth);
    assert.is(deep.status, 200);
    assert.is(deep.etag, strongEtag(deep.body));
    const json = JSON.parse(deep.body.toString());
    assert.equal(json.smartMoney, { longPct: 60 });
    assert.is(json.symbol, 'BTC');
    const again = await fetchBytes(`${s.url}/api/v1/deep-view/BTC`,
      { ...s.auth, 'if-none-match': deep.etag! });
    assert.is(again.status, 304);
    assert.is(again.etag, deep.etag);
    assert.is(again.body.length, 0);
    const pair = await fetchBytes(`${s.url}/api/v1/pair/BTC`, s.auth);
    assert.is(pair.status, 200);
    assert.is(pair.etag, strongEtag(pair.body));
  } finally {
    await s.server.close();
  }
});

test('a deep view the shard closed with smart money is stored as sent, under its ETag',
  async () => {
    const [closed] = btcPublishes('{"longPct":7}');
    const deep = closed!.views['deep-view']!;
    const s = await setup();
    try {
      s.views.applyPairViews([closed!], T0);
      const stored = s.store.get('deep-view/BTC')!;
      assert.ok(Buffer.from(deep).equals(stored.body), 'the bytes as sent, not spliced again');
      assert.is(stored.etag, strongEtag(deep));
      const served = await fetchBytes(`${s.url}/api/v1/deep-view/BTC`, s.auth);
      assert.is(served.status, 200);
      assert.equal(JSON.parse(served.body.toString()).smartMoney, { longPct: 7 });
      assert.is(served.etag, strongEtag(deep));
    } finally {
      await s.server.close();
    }
  });

test('a refresh with nothing new keeps versions and tags; a publish changes them', async () => {
  const [first, second] = btcPublishes();
  const s = await setup();
  try {
    s.views.applyPairViews([first!], T0);
    s.views.refresh(T0);
    const names = ['pair/BTC', 'pair/ETH', 'screener', 'signals', 'deep-view/BTC'];
    const before = new Map(names.map((name) => [name, s.store.get(name)!]));
    for (const name of names) assert.ok(before.get(name), name);
    s.views.refresh(T0 + 500);
    for (const name of names) {
      assert.is(s.store.get(name), before.get(name), `${name}: the same entry`);
    }
    const old = await fetchBytes(`${s.url}/api/v1/pair/BTC`, s.auth);
    s.views.applyPairViews([second!], T0 + cadenceMs);
    s.views.refresh(T0 + cadenceMs);
    const detail = s.store.get('pair/BTC')!;
    assert.is(detail.version, before.get('pair/BTC')!.version + 1);
    assert.is.not(detail.etag, before.get('pair/BTC')!.etag);
    assert.is(s.store.get('pair/ETH'), before.get('pair/ETH'), 'an untracked pair is not rebuilt');
    assert.is(s.store.get('cvd/BTC')!.etag, second!.etags!.cvd);
    // The old tag no longer matches: 200 with the new bytes; the new one answers 304.
    const now = await fetchBytes(`${s.url}/api/v1/pair/BTC`,
      { ...s.auth, 'if-none-match': old.etag! });
    assert.is(now.status, 200);
    assert.is(now.etag, detail.etag);
    assert.ok(now.body.equals(detail.body));
    const revalidated = await fetchBytes(`${s.url}/api/v1/pair/BTC`,
      { ...s.auth, 'if-none-match': detail.etag });
    assert.is(revalidated.status, 304);
  } finally {
    await s.server.close();
  }
});

test('a refresh still rebuilds what time or the universe changed: staleness, market data', () => {
  const [first] = btcPublishes();
  const store = new SnapshotStore();
  const views = new MarketViews(store, cadenceMs, 5_000);
  views.applyUniverse(universe(T0));
  views.setTracked(['BTC']);
  views.applyPairViews([first!], T0);
  views.refresh(T0);
  const fresh = JSON.parse(store.get('pair/BTC')!.body.toString());
  assert.is(fresh.stale, false);
  // No publish for more than 3 cadences: the same inputs, but the pair went stale.
  views.refresh(T0 + 4 * cadenceMs);
  const stale = JSON.parse(store.get('pair/BTC')!.body.toString());
  assert.is(stale.stale, true);
  const eth = store.get('pair/ETH')!;
  views.applyUniverse(universe(T0 + 5_000, 105_000));
  views.refresh(T0 + 5_000);
  assert.is(store.get('pair/ETH')!.version, eth.version + 1, 'a new universe rebuilds details');
  assert.ok(store.get('screener')!.body.toString().includes('"symbol":"ETH"'));
});

test('the refresh in steps (one market a step) stores the bytes the whole refresh does', () => {
  const [first] = btcPublishes();
  const stores = [new SnapshotStore(), new SnapshotStore()];
  const [whole, stepped] = stores.map((store) => {
    const views = new MarketViews(store, cadenceMs, 5_000);
    views.applyUniverse(universe(T0));
    views.setTracked(['BTC']);
    views.applyPairViews([first!], T0);
    return views;
  });
  whole!.refresh(T0);
  let steps = 0;
  for (const _ of stepped!.refreshSteps(T0)) steps += 1;
  assert.ok(steps >= 2, 'a step per market at least');
  for (const name of ['pair/BTC', 'pair/ETH', 'screener', 'signals']) {
    const [a, b] = stores.map((store) => store.get(name)!);
    assert.ok(a!.body.equals(b!.body), name);
    assert.is(a!.etag, b!.etag, name);
  }
});

test.run();
