// The main thread's wallet views rebuilt in slices: byte-identical to the pure builders, only
// changed wallets re-published, views of wallets that left the tracker dropped, one at a time;
// each wallet's own view served lazily through the real snapshot store, same bytes and ETag.
import { stringifyRounded } from '../../core/json-numbers.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { silentLogger } from '../../core/logger.js';
import type { WalletStateEvent } from '../../core/messages.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { assetCtxAt } from '../../actors/feed/sim/market-model.js';
import { trackedWallets, walletStateAt } from '../../actors/feed/sim/wallets.js';
import { buildLiquidationMap } from '../../actors/positioning/liquidation-map.js';
import {
  buildPairPositioning, buildSmartMoneyView, buildWalletsView, buildWalletView,
} from '../../actors/positioning/views.js';
import { WalletTracker } from '../../actors/positioning/wallet-tracker.js';
import { PositioningViews, type PositioningSink } from '../../actors/runtime/positioning-views.js';
import { encodeFeedView } from '../../actors/views/encode.js';
import { SnapshotStore, strongEtag, type LazyViewSource } from '../../http/snapshots.js';

const SEED = 5;
const T0 = Date.UTC(2026, 10, 2, 12);
const CADENCE_MS = 15_000;
const world = simWorld(SEED, 3_000);
const wallets = trackedWallets(world.wallets, 3_000);
const markets = world.markets.map((m) => ({ symbol: m.symbol, dex: m.dex,
  szDecimals: m.szDecimals, maxLeverage: m.maxLeverage, isDelisted: m.isDelisted,
  onlyIsolated: m.onlyIsolated, ctx: assetCtxAt(SEED, m, T0) }));
const tracked = world.liquid.slice(0, 20).map((m) => m.symbol);
const decoder = new TextDecoder();

/** Views put as bytes, plus the lazily served wallet family read back through its source. */
class MapSink implements PositioningSink {
  readonly bodies = new Map<string, string>();
  readonly puts: string[] = [];
  wallets: LazyViewSource | undefined;
  mount(prefix: string, source: LazyViewSource) {
    assert.is(prefix, 'wallets/');
    this.wallets = source;
  }
  /** A wallet's view as the store would serve it, with its version; undefined when none. */
  wallet(address: string): { body: string; version: number } | undefined {
    const view = this.wallets?.view(address);
    return view && { body: decoder.decode(view.encode()), version: view.version };
  }
  put(name: string, body: Uint8Array) {
    this.bodies.set(name, decoder.decode(body));
    this.puts.push(name);
  }
  get(name: string) {
    return this.bodies.has(name) ? { etag: '', version: 0 } : undefined;
  }
  delete(name: string) {
    this.bodies.delete(name);
  }
}

const statesAt = (tMs: number, from = 0, count = wallets.length): WalletStateEvent[] =>
  wallets.slice(from, from + count).map((w) => walletStateAt(SEED, w, world.liquid, tMs));

/** What the views must hold, made with the pure builders from the tracker in one go. */
function expected(tracker: WalletTracker, nowMs: number): Map<string, string> {
  const out = new Map<string, string>();
  const encode = (body: object) =>
    decoder.decode(encodeFeedView(body as Record<string, unknown>, nowMs, CADENCE_MS));
  const records = tracker.records(nowMs);
  out.set('smart-money', encode(buildSmartMoneyView(records, nowMs)));
  out.set('wallets', encode(buildWalletsView(records)));
  for (const record of records) {
    const view = buildWalletView(record);
    if (view) out.set(`wallets/${record.address}`, encode(view));
  }
  for (const symbol of tracked) {
    const holders = records.filter((r) => r.state?.positions.some((p) => p.symbol === symbol));
    out.set(`smartMoney/${symbol}`, stringifyRounded(buildPairPositioning(symbol, holders, [])
      .smartMoney));
    const market = markets.find((m) => m.symbol === symbol)!;
    out.set(`liquidation-map/${symbol}`, encode(buildLiquidationMap(symbol, market.ctx.markPx,
      holders.map((r) => r.state!), market.ctx.openInterest * market.ctx.markPx,
      { bandWidthPct: 0.5, bandsEachSide: 40 })));
  }
  return out;
}

function actual(sink: MapSink, views: PositioningViews): Map<string, string> {
  const out = new Map(sink.bodies);
  for (const symbol of tracked) out.set(`smartMoney/${symbol}`, views.smartMoneyJson(symbol));
  for (const address of views.tracker.addresses()) {
    const served = sink.wallet(address);
    if (served) out.set(`wallets/${address}`, served.body);
  }
  return out;
}

test('3,000 wallets: every view byte-identical to the pure builders, across slices', async () => {
  const sink = new MapSink();
  const views = new PositioningViews(sink, CADENCE_MS, silentLogger);
  for (const state of statesAt(T0)) views.applyWallet(state);
  views.applyWhalePrints([{ symbol: 'BTC', tsMs: T0, price: 1, notional: 2e6, side: 1,
    buyer: wallets[0].address, seller: wallets[1].address }]);
  views.refreshWallets(T0 + 1_000, markets, tracked);
  await views.settled();
  const want = expected(views.tracker, T0 + 1_000);
  const got = actual(sink, views);
  assert.equal([...got.keys()].sort(), [...want.keys()].sort());
  for (const [name, body] of want) assert.is(got.get(name), body, name);
  assert.ok(JSON.parse(sink.bodies.get('wallets')!).count === 3_000);
});

test('a refresh re-publishes only the wallets whose state changed; the lists always',
  async () => {
  const sink = new MapSink();
  const views = new PositioningViews(sink, CADENCE_MS, silentLogger);
  for (const state of statesAt(T0)) views.applyWallet(state);
  views.refreshWallets(T0, markets, tracked);
  await views.settled();
  const before = new Map(wallets.map((w) => [w.address, sink.wallet(w.address)!]));
  sink.puts.length = 0;
  for (const state of statesAt(T0 + 60_000, 100, 25)) views.applyWallet(state);
  views.refreshWallets(T0 + 60_000, markets, tracked);
  await views.settled();
  const republished = wallets.filter((w) =>
    sink.wallet(w.address)!.version !== before.get(w.address)!.version);
  assert.equal(republished.map((w) => w.address), wallets.slice(100, 125).map((w) => w.address));
  const unchanged = wallets[0].address;
  assert.is(sink.wallet(unchanged)!.body, before.get(unchanged)!.body, 'as published at T0');
  assert.is(JSON.parse(sink.wallet(wallets[100].address)!.body).updatedAt,
    new Date(T0 + 60_000).toISOString());
  assert.not.ok(sink.puts.some((name) => name.startsWith('wallets/')), 'no bytes per wallet');
  assert.ok(sink.puts.includes('wallets') && sink.puts.includes('smart-money'));
  const want = expected(views.tracker, T0 + 60_000);
  assert.is(sink.bodies.get('wallets'), want.get('wallets'));
  assert.is(sink.bodies.get('smart-money'), want.get('smart-money'));
});

test('a wallet that leaves the tracker loses its view', async () => {
  const sink = new MapSink();
  const tracker = new WalletTracker({ walletsMax: 10 });
  const views = new PositioningViews(sink, CADENCE_MS, silentLogger, tracker);
  for (const state of statesAt(T0, 0, 10)) views.applyWallet(state);
  views.refreshWallets(T0, markets, tracked);
  await views.settled();
  const first = wallets[0].address;
  assert.ok(sink.wallet(first));
  // A much larger trader evicts the least relevant wallet.
  const big = '0x' + 'ab'.repeat(20);
  views.applyWhalePrints([{ symbol: 'BTC', tsMs: T0, price: 1, notional: 1e12, side: 1,
    buyer: big, seller: null }]);
  const gone = wallets.slice(0, 10).map((w) => w.address).filter((a) => !tracker.has(a));
  assert.is(gone.length, 1);
  views.refreshWallets(T0 + 1_000, markets, tracked);
  await views.settled();
  assert.is(sink.wallet(gone[0]), undefined, 'its view is gone');
  assert.is(JSON.parse(sink.bodies.get('wallets')!).count, 9);
});

test('one rebuild at a time: a call while one runs is skipped', async () => {
  const sink = new MapSink();
  const views = new PositioningViews(sink, CADENCE_MS, silentLogger);
  for (const state of statesAt(T0)) views.applyWallet(state);
  views.refreshWallets(T0, markets, tracked);
  views.refreshWallets(T0 + 5_000, markets, tracked);
  await views.settled();
  assert.is(JSON.parse(sink.bodies.get('wallets')!).updatedAt, new Date(T0).toISOString());
  views.refreshWallets(T0 + 5_000, markets, tracked);
  await views.settled();
  assert.is(JSON.parse(sink.bodies.get('wallets')!).updatedAt,
    new Date(T0 + 5_000).toISOString(), 'the next call after it runs');
});

test('through the snapshot store: wallet entries with the bytes and ETag of a put', async () => {
  const store = new SnapshotStore();
  const views = new PositioningViews(store, CADENCE_MS, silentLogger);
  for (const state of statesAt(T0, 0, 50)) views.applyWallet(state);
  views.refreshWallets(T0 + 1_000, markets, tracked);
  await views.settled();
  const want = expected(views.tracker, T0 + 1_000);
  const address = wallets[7].address;
  const entry = store.get(`wallets/${address}`)!;
  const body = want.get(`wallets/${address}`)!;
  assert.is(entry.body.toString('utf8'), body);
  assert.is(entry.etag, strongEtag(Buffer.from(body)));
  assert.is(entry.lastModified, new Date(T0 + 1_000).toUTCString());
  assert.is(entry.cacheControl, 'max-age=15');
  assert.is(store.get(`wallets/${address}`), entry, 'one entry per version while cached');
  assert.is(store.get(`wallets/0x${'ef'.repeat(20)}`), undefined, 'not tracked');
  assert.is(store.get('wallets')!.body.toString('utf8'), want.get('wallets'));
  assert.throws(() => store.mount('wallets/x', { view: () => undefined }), /overlaps/);
  // A newer state: a new version, a new entry with the new bytes.
  views.applyWallet(walletStateAt(SEED, wallets[7], world.liquid, T0 + 90_000));
  views.refreshWallets(T0 + 90_000, markets, tracked);
  await views.settled();
  const next = store.get(`wallets/${address}`)!;
  assert.ok(next.version > entry.version);
  assert.is(next.body.toString('utf8'), expected(views.tracker, T0 + 90_000)
    .get(`wallets/${address}`));
});

test('an explicit put wins over the lazy family; names outside it stay unknown', () => {
  const store = new SnapshotStore();
  const source = { view: (key: string) => (key === 'a' ? { version: 1, updatedAtMs: 0,
    cadenceMs: 1_000, encode: () => Buffer.from('{"lazy":1}') } : undefined) };
  store.mount('w/', source);
  assert.is(store.get('w/a')!.body.toString(), '{"lazy":1}');
  assert.is(store.get('w/b'), undefined);
  assert.is(store.get('x/a'), undefined);
  store.put('w/a', Buffer.from('{"put":1}'), { version: 2, updatedAtMs: 0, cadenceMs: 1_000 });
  assert.is(store.get('w/a')!.body.toString(), '{"put":1}');
  assert.is(store.size, 1, 'lazy views are not counted');
  assert.throws(() => store.mount('', source), /empty/);
});

test.run();
