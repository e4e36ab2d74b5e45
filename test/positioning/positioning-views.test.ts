// The main thread's wallet views rebuilt in slices: byte-identical to the pure builders, only
// changed wallets re-encoded, views of wallets that left the tracker dropped, one at a time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { silentLogger } from '../../actors/logger.js';
import type { WalletStateEvent } from '../../actors/messages.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { assetCtxAt } from '../../actors/feed/sim/market-model.js';
import { trackedWallets, walletStateAt } from '../../actors/feed/sim/wallets.js';
import { buildLiquidationMap } from '../../actors/positioning/liquidation-map.js';
import {
  buildPairPositioning, buildSmartMoneyView, buildWalletsView, buildWalletView,
} from '../../actors/positioning/views.js';
import { WalletTracker } from '../../actors/positioning/wallet-tracker.js';
import { PositioningViews } from '../../actors/runtime/positioning-views.js';
import type { ViewSink } from '../../actors/runtime/market-views.js';
import { encodeFeedView } from '../../actors/views/encode.js';

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

class MapSink implements ViewSink {
  readonly bodies = new Map<string, string>();
  readonly puts: string[] = [];
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
    out.set(`smartMoney/${symbol}`, JSON.stringify(buildPairPositioning(symbol, holders, [])
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
  assert.equal([...actual(sink, views).keys()].sort(), [...want.keys()].sort());
  for (const [name, body] of want) assert.is(actual(sink, views).get(name), body, name);
  assert.ok(JSON.parse(sink.bodies.get('wallets')!).count === 3_000);
});

test('a refresh re-puts only the wallets whose state changed; the lists always', async () => {
  const sink = new MapSink();
  const views = new PositioningViews(sink, CADENCE_MS, silentLogger);
  for (const state of statesAt(T0)) views.applyWallet(state);
  views.refreshWallets(T0, markets, tracked);
  await views.settled();
  sink.puts.length = 0;
  for (const state of statesAt(T0 + 60_000, 100, 25)) views.applyWallet(state);
  views.refreshWallets(T0 + 60_000, markets, tracked);
  await views.settled();
  const walletPuts = sink.puts.filter((name) => name.startsWith('wallets/'));
  assert.equal(walletPuts.sort(),
    wallets.slice(100, 125).map((w) => `wallets/${w.address}`).sort());
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
  assert.ok(sink.bodies.has(`wallets/${first}`));
  // A much larger trader evicts the least relevant wallet.
  const big = '0x' + 'ab'.repeat(20);
  views.applyWhalePrints([{ symbol: 'BTC', tsMs: T0, price: 1, notional: 1e12, side: 1,
    buyer: big, seller: null }]);
  const gone = wallets.slice(0, 10).map((w) => w.address).filter((a) => !tracker.has(a));
  assert.is(gone.length, 1);
  views.refreshWallets(T0 + 1_000, markets, tracked);
  await views.settled();
  assert.not.ok(sink.bodies.has(`wallets/${gone[0]}`), 'its view is gone');
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

test.run();
