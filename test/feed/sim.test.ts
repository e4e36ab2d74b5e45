// The simulator: deterministic, 170+ markets with delisted and builder ones, five-venue funding,
// microstructure that moves, and pair and universe sims that agree.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock, systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent, TradeEvent, BookEvent } from '../../core/messages.js';
import { VENUES } from '../../core/messages.js';
import { createPairFeed } from '../../actors/feed/pair-feed.js';
import { PairSimulator } from '../../actors/feed/sim/pair-sim.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { simFundingAt, simUniverseAt, simWalletsAt } from '../../actors/feed/sim/sim-universe.js';
import { isSessionOpen } from '../../actors/feed/sim/catalogue.js';
import { referencePx, roundPx } from '../../actors/feed/sim/market-model.js';
import { hashInts, Rng } from '../../actors/feed/sim/rng.js';
import { eventually } from '../helpers/eventually.js';
import {
  ABSORPTION_EVENT, createPairAnalytics, createPairSnapshot, onBook, onTrade, pairSnapshotJson,
  setPairVpinBucketVolume, snapshotPairAnalytics,
} from '../../kernels/index.js';

const START_MS = Date.parse('2026-02-06T15:00:00Z');

function run(seed: number, symbol: string, untilMs: number): MarketEvent[] {
  const world = simWorld(seed);
  const sim = new PairSimulator(seed, world.bySymbol.get(symbol)!, world.picker, START_MS);
  const out: MarketEvent[] = [];
  sim.advanceTo(untilMs, (e) => out.push(e));
  return out;
}

test('same seed and symbol give the same events; another seed differs', () => {
  const a = run(42, 'ETH', START_MS + 120_000);
  const b = run(42, 'ETH', START_MS + 120_000);
  const c = run(7, 'ETH', START_MS + 120_000);
  assert.ok(a.length > 100);
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  assert.not.equal(JSON.stringify(a), JSON.stringify(c));
});

test('advancing in small steps gives the same stream as one big step', () => {
  const world = simWorld(42);
  const sim = new PairSimulator(42, world.bySymbol.get('SOL')!, world.picker, START_MS);
  const out: MarketEvent[] = [];
  for (let t = START_MS; t <= START_MS + 60_000; t += 137) sim.advanceTo(t, (e) => out.push(e));
  sim.advanceTo(START_MS + 60_000, (e) => out.push(e));
  assert.equal(JSON.stringify(out), JSON.stringify(run(42, 'SOL', START_MS + 60_000)));
});

test('universe: 170+ listed markets, delisted with zero volume and OI, builder markets', () => {
  const u = simUniverseAt(simWorld(42), START_MS);
  const listed = u.markets.filter((m) => !m.isDelisted);
  assert.ok(listed.length >= 170, `listed ${listed.length}`);
  const delisted = u.markets.filter((m) => m.isDelisted);
  assert.ok(delisted.length >= 5);
  for (const m of delisted) {
    assert.is(m.ctx.dayNtlVlm, 0);
    assert.is(m.ctx.openInterest, 0);
  }
  const builder = u.markets.filter((m) => m.dex !== '');
  assert.ok(builder.some((m) => m.symbol === 'xyz:TSLA' && m.dex === 'xyz'));
  for (const m of builder) assert.match(m.symbol, /^[a-z]+:[A-Z0-9]+$/);
  const btc = u.markets.find((m) => m.symbol === 'BTC')!;
  assert.ok(btc.ctx.markPx > 20_000 && btc.ctx.markPx < 500_000, `BTC ${btc.ctx.markPx}`);
  assert.ok(btc.ctx.dayNtlVlm > 1e9);
  assert.equal(new Set(u.markets.map((m) => m.symbol)).size, u.markets.length);
});

test('funding on all five venues with their intervals; home hourly', () => {
  const funding = simFundingAt(simWorld(42), START_MS);
  const seen = new Map<string, Set<number>>();
  for (const f of funding) {
    for (const v of f.venues) {
      if (!seen.has(v.venue)) seen.set(v.venue, new Set());
      seen.get(v.venue)!.add(v.intervalHours);
      assert.ok(Number.isFinite(v.rate));
    }
    assert.is(f.venues[0].venue, 'home');
    assert.is(f.venues[0].intervalHours, 1);
  }
  assert.equal([...seen.keys()].sort(), [...VENUES].sort());
  const intervals = new Set([...seen.values()].flatMap((s) => [...s]));
  assert.equal([...intervals].sort((a, b) => a - b), [1, 4, 8]);
});

test('builder markets pause outside their session', () => {
  const saturday = Date.parse('2026-02-07T15:00:00Z');
  assert.is(isSessionOpen('us-equity', saturday), false);
  assert.is(isSessionOpen('us-equity', START_MS), true);
  assert.is(isSessionOpen('always', saturday), true);
  const world = simWorld(42);
  const sim = new PairSimulator(42, world.bySymbol.get('xyz:TSLA')!, world.picker, saturday);
  const out: MarketEvent[] = [];
  sim.advanceTo(saturday + 600_000, (e) => out.push(e));
  assert.is(out.filter((e) => e.type === 'trade').length, 0);
  assert.ok(out.some((e) => e.type === 'book'));
});

test('microstructure: 20-level books, clustered trades, sweeps, wallet addresses', () => {
  const events = run(42, 'BTC', START_MS + 30 * 60_000);
  const trades = events.filter((e): e is TradeEvent => e.type === 'trade');
  const books = events.filter((e): e is BookEvent => e.type === 'book');
  assert.ok(books.every((b) => b.bids.length === 40 && b.asks.length === 40));
  for (const b of books.slice(0, 50)) assert.ok(b.bids[0] < b.asks[0]);
  for (const t of trades) {
    assert.match(t.buyer!, /^0x[0-9a-f]{40}$/);
    assert.match(t.seller!, /^0x[0-9a-f]{40}$/);
    assert.ok(t.price > 0 && t.size > 0 && (t.side === 1 || t.side === -1));
  }
  // Sweeps print several levels at one instant; clustering makes gaps over-dispersed.
  const perInstant = new Map<number, Set<number>>();
  for (const t of trades) {
    perInstant.set(t.tsMs, (perInstant.get(t.tsMs) ?? new Set()).add(t.price));
  }
  assert.ok([...perInstant.values()].some((s) => s.size >= 3), 'a sweep over 3+ levels');
  // Clustering on a mid-liquidity pair: BTC trades near the 20-a-second cap, where the base
  // rate dominates and the CV sits near 1.1 (1.09-1.14 between realizations and windows).
  const hype = run(42, 'HYPE', START_MS + 30 * 60_000)
    .filter((e): e is TradeEvent => e.type === 'trade');
  const gaps = hype.slice(1).map((t, i) => t.tsMs - hype[i].tsMs).filter((g) => g > 0);
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const variance = gaps.reduce((a, b) => a + (b - mean) ** 2, 0) / gaps.length;
  assert.ok(Math.sqrt(variance) / mean > 1.1, 'inter-arrival CV above Poisson');
  const buys = trades.filter((t) => t.side === 1).length;
  assert.ok(buys > trades.length * 0.2 && buys < trades.length * 0.8);
});

test('prices are the decimals the venue quotes: roundPx is toPrecision(5), without strings', () => {
  const rng = new Rng(7);
  const values: number[] = [];
  for (let e = -6; e <= 14; e++) {
    const p = Math.pow(10, e);
    // Powers of ten and their neighbours, exact halves of the fifth digit, and random prices.
    values.push(p, p * (1 - 1e-16), p * (1 + 1e-16), 1.23455 * p, 9.99995 * p, 1.00005 * p);
    for (let i = 0; i < 2_000; i++) values.push((1 + 9 * rng.next()) * p);
  }
  for (const px of values) assert.is(roundPx(px), Number(px.toPrecision(5)), String(px));
  assert.is(roundPx(0), 0);
  // The hash, pinned: every simulated price and volume is a function of it.
  assert.equal([hashInts(1, 2), hashInts(1, 2, 3, 4), hashInts(-5, 0x7fffffff, 1e6),
    hashInts(42, 7, 1e10, -1)], [1334639141, 1202037658, 405346052, 3519038668]);
});

test('book levels are whole ticks and size steps, as the decimals they print as', () => {
  for (const symbol of ['BTC', 'DOGE', 'kPEPE']) {
    const books = run(42, symbol, START_MS + 60_000)
      .filter((e): e is BookEvent => e.type === 'book');
    assert.ok(books.length > 0, symbol);
    const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;
    const tickDecimals = Math.max(...books[0].bids.filter((_, i) => i % 2 === 0).map(decimals));
    const sizeDecimals = Math.max(...books[0].bids.filter((_, i) => i % 2 === 1).map(decimals));
    for (const b of books) {
      for (let i = 0; i < b.bids.length; i += 2) {
        for (const side of [b.bids, b.asks]) {
          assert.ok(decimals(side[i]) <= tickDecimals, `${symbol} price ${side[i]}`);
          assert.ok(decimals(side[i + 1]) <= sizeDecimals, `${symbol} size ${side[i + 1]}`);
        }
      }
    }
  }
});

test('the kernels move on sim data: absorbed bursts, VPIN, OBI, OFI, Kyle, whales', () => {
  const events = run(1, 'HYPE', START_MS + 4 * 3_600_000);
  const trades = events.filter((e): e is TradeEvent => e.type === 'trade');
  const s = createPairAnalytics();
  // VPIN buckets of 1/200 of the run's volume: defined after 50 of them.
  setPairVpinBucketVolume(s, trades.reduce((a, t) => a + t.size, 0) / 200);
  const levels = () => new Float64Array(20);
  const [bidPx, bidSz, askPx, askSz] = [levels(), levels(), levels(), levels()];
  const snapshot = createPairSnapshot(s.options);
  const vpins = new Set<number | null>();
  let absorptions = 0;
  let n = 0;
  for (const e of events) {
    if (e.type === 'trade') {
      if (onTrade(s, e.tsMs, e.price, e.size, e.side) & ABSORPTION_EVENT) absorptions++;
      if (++n % 1000 === 0) vpins.add(snapshotPairAnalytics(s, snapshot).vpin);
    } else if (e.type === 'book') {
      for (let k = 0; k < 20; k++) {
        [bidPx[k], bidSz[k], askPx[k], askSz[k]] = [e.bids[2 * k], e.bids[2 * k + 1],
          e.asks[2 * k], e.asks[2 * k + 1]];
      }
      onBook(s, e.tsMs, bidPx, bidSz, e.bids.length / 2, askPx, askSz, e.asks.length / 2);
    }
  }
  const j = pairSnapshotJson(snapshotPairAnalytics(s, snapshot));
  // Bursts met by an iceberg: heavy one-sided flow at a flat price.
  assert.ok(absorptions >= 1, `absorption events: ${absorptions}`);
  assert.ok(j.absorptions.length >= 1);
  vpins.delete(null);
  assert.ok(vpins.size > 20, `VPIN takes many values (${vpins.size})`);
  for (const value of [j.obi, j.ofi, j.kyleLambda]) assert.ok(value !== null && value !== 0);
  assert.ok(j.whales.length > 0);
});

test('prints stay near the reference path, however busy the pair (bursts within a few %)', () => {
  // Each trade's impact once moved BTC's prints up to 7x off the path within a burst.
  const world = simWorld(42);
  for (const symbol of ['BTC', 'ETH', 'HYPE', 'DOGE']) {
    const market = world.bySymbol.get(symbol)!;
    const sim = new PairSimulator(42, market, world.picker, START_MS);
    let worst = 0;
    let trades = 0;
    sim.advanceTo(START_MS + 2 * 3_600_000, (e) => {
      if (e.type !== 'trade') return;
      trades++;
      worst = Math.max(worst, Math.abs(Math.log(e.price / referencePx(42, market, e.tsMs))));
    });
    assert.ok(trades > 1_000, `${symbol}: ${trades} trades`);
    assert.ok(worst < 0.05, `${symbol}: a print ${Math.exp(worst).toFixed(3)}x (or 1/x) the path`);
  }
});

test('pair sim and universe sim agree on price; wallets carry positions and leverage', () => {
  const world = simWorld(42);
  const u = simUniverseAt(world, START_MS + 60_000);
  const events = run(42, 'ETH', START_MS + 60_000);
  const ctx = events.filter((e) => e.type === 'ctx').at(-1)!;
  const mark = u.markets.find((m) => m.symbol === 'ETH')!.ctx.markPx;
  assert.ok(ctx.type === 'ctx' && Math.abs(ctx.markPx / mark - 1) < 0.01, `${mark}`);
  const wallets = simWalletsAt(world, START_MS);
  assert.ok(wallets.length >= 100);
  const positions = wallets.flatMap((w) => w.positions);
  assert.ok(positions.length > 100);
  assert.ok(positions.some((p) => p.size > 0) && positions.some((p) => p.size < 0));
  assert.ok(positions.every((p) => p.leverage >= 1 && Number.isFinite(p.unrealizedPnl)));
  const addresses = new Set(world.wallets.map((w) => w.address));
  const trade = events.find((e): e is TradeEvent => e.type === 'trade')!;
  assert.ok(addresses.has(trade.buyer!) && addresses.has(trade.seller!));
});

test('sim pair feed: follows setSymbols without restart, drops unknown symbols', async () => {
  const feed = createPairFeed({ kind: 'sim', seed: 42, speed: Infinity, startMs: START_MS },
    { clock: systemClock, logger: silentLogger });
  const symbols = new Set<string>();
  feed.setSymbols(['BTC', 'NOPE', 'MATIC']);
  feed.start((e) => { if ('symbol' in e) symbols.add(e.symbol); });
  await eventually(() => symbols.has('BTC'));
  feed.setSymbols(['ETH']);
  symbols.clear();
  await eventually(() => symbols.has('ETH'));
  symbols.clear();
  await eventually(() => symbols.size > 0);
  assert.equal([...symbols], ['ETH']);
  await feed.stop();
  const stats = feed.stats();
  assert.is(stats.dropped.unknown_coin, 1);
  assert.is(stats.dropped.delisted_symbol, 1);
  assert.ok(stats.eventsByType.trade! > 0);
});

test('createPairFeed sim at finite speed follows the clock', async () => {
  const clock = new ManualClock(1_000);
  const feed = createPairFeed({ kind: 'sim', seed: 1, speed: 10, startMs: START_MS },
    { clock, logger: silentLogger, tickMs: 5 });
  feed.setSymbols(['BTC']);
  let lastMs = 0;
  feed.start((e) => { lastMs = Math.max(lastMs, e.tsMs); });
  clock.advance(1_000);
  await eventually(() => lastMs >= START_MS + 9_000);
  assert.ok(lastMs <= START_MS + 10_000, 'never ahead of speed x clock');
  await feed.stop();
});

test.run();
