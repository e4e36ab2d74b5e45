// The simulator's universe feed with many tracked wallets: states arrive in rotation (each wallet
// once per wallet cadence, at most one turn's worth at an instant), and the population the states
// name is the one the shards' trades name (the count travels in the FeedSpec).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock, systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { TradeEvent, WalletStateEvent } from '../../core/messages.js';
import { createPairFeed } from '../../actors/feed/pair-feed.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { trackedWallets } from '../../actors/feed/sim/wallets.js';
import { encodeFeedSpec, decodeFeedSpec } from '../../actors/shard/shard-params.js';
import { createSimUniverseFeed } from '../../actors/universe/sim-universe-feed.js';
import { createUniverseFeed } from '../../actors/universe/universe-feed.js';
import { eventually } from '../helpers/eventually.js';

const START_MS = Date.UTC(2026, 10, 2, 12);
const WALLETS = 2_500;

test('states come in rotation: every wallet once per wallet cadence, <= 100 at an instant',
  async () => {
    const clock = new ManualClock(0);
    const feed = createSimUniverseFeed({ seed: 7, speed: 1, startMs: START_MS, tickMs: 2,
      walletsTracked: WALLETS, clock, logger: silentLogger, cadenceMs: 5_000,
      walletCadenceMs: 60_000 });
    const seenAt = new Map<string, number[]>();
    const perInstant = new Map<number, number>();
    let universes = 0;
    feed.start((event) => {
      if (event.type === 'universe') universes++;
      if (event.type !== 'wallet') return;
      const list = seenAt.get(event.address) ?? [];
      list.push(event.tsMs);
      seenAt.set(event.address, list);
      perInstant.set(event.tsMs, (perInstant.get(event.tsMs) ?? 0) + 1);
    });
    try {
      for (let second = 1; second <= 200; second++) {
        clock.advance(1_000);
        await eventually(() => perInstant.has(START_MS + second * 1_000),
          { intervalMs: 1, message: `states at +${second} s` });
      }
    } finally {
      await feed.stop();
    }
    assert.ok(universes >= 40, 'a universe every 5 s of market time');
    assert.is(seenAt.size, WALLETS, 'every tracked wallet reported');
    assert.ok(Math.max(...perInstant.values()) <= 100, 'one turn hands out at most 100');
    // Once the first round (drained 100 a second) has caught up, each wallet every ~60 s.
    const steadyFromMs = START_MS + 70_000;
    for (const [address, times] of seenAt) {
      const steady = times.filter((t) => t >= steadyFromMs);
      for (let i = 1; i < steady.length; i++) {
        const gapMs = steady[i] - steady[i - 1];
        assert.ok(gapMs >= 59_000 && gapMs <= 61_000, `${address} came after ${gapMs} ms`);
      }
      assert.ok(steady.length >= 2, `${address} twice in the last 130 s`);
    }
  });

test('the wallet count travels to the shards: trades name the reported wallets', async () => {
  const world = simWorld(7, WALLETS);
  assert.is(world.wallets.length, WALLETS);
  assert.is(simWorld(7).wallets.length, 2_000, 'the default world is unchanged');
  const reported = new Set(trackedWallets(world.wallets, WALLETS).map((w) => w.address));
  assert.is(reported.size, WALLETS);
  const encoded = encodeFeedSpec({ kind: 'sim', seed: 7, speed: Infinity, startMs: START_MS,
    walletsTracked: WALLETS });
  const spec = decodeFeedSpec(JSON.parse(JSON.stringify(encoded)), Date.now(), Date.now());
  const feed = createPairFeed(spec, { clock: systemClock, logger: silentLogger });
  const trades: TradeEvent[] = [];
  feed.setSymbols(['BTC', 'ETH']);
  feed.start((e) => { if (e.type === 'trade' && trades.length < 500) trades.push(e); });
  await eventually(() => trades.length >= 500, { message: '500 trades' });
  await feed.stop();
  const named = trades.flatMap((t) => [t.buyer, t.seller]).filter((a) => a !== null);
  assert.ok(named.length > 0);
  assert.ok(named.every((a) => reported.has(a!)), 'every trade address is a reported wallet');
  const defaults = new Set(simWorld(7).wallets.map((w) => w.address));
  assert.ok(named.some((a) => !defaults.has(a!)), 'not the default population');
});

test('a state names a reported wallet and is stamped with market time', async () => {
  const clock = new ManualClock(0);
  const feed = createUniverseFeed({ kind: 'sim', seed: 7, speed: 1, startMs: START_MS },
    { clock, logger: silentLogger, cadenceMs: 5_000 });
  const states: WalletStateEvent[] = [];
  feed.start((e) => { if (e.type === 'wallet') states.push(e); });
  await feed.stop();
  assert.is(states.length, 100, 'the default 300 wallets: the first turn reports 100');
  assert.ok(states.every((s) => s.tsMs === START_MS && /^0x[0-9a-f]{40}$/.test(s.address)));
});

test.run();
