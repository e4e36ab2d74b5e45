// The wallet views built in the views worker (smart money, wallets, each wallet, each tracked
// pair's smart-money split and liquidation map) are the bytes, ETags, versions and freshness the
// main thread's own PositioningViews makes from the same simulated wallets' states and whale
// prints; the CSV export reads the same rows; the poller's due wallets come from the worker's
// tracker; and a worker that dies is restarted, the last bytes served meanwhile, then rebuilt
// from every input again with versions that only go up.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { silentLogger } from '../../core/logger.js';
import type { UniverseEvent, WalletStateEvent, WhalePrint } from '../../core/messages.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { simUniverseAt } from '../../actors/feed/sim/sim-universe.js';
import { trackedWallets, walletStateAt } from '../../actors/feed/sim/wallets.js';
import { emptySmartMoneyJson } from '../../actors/positioning/pair-positioning.js';
import { PositioningViews } from '../../actors/runtime/positioning-views.js';
import { RemoteMarketViews } from '../../actors/runtime/remote-market-views.js';
import { SnapshotStore } from '../../http/snapshots.js';
import { exportSpecs } from '../../http/handlers/export.js';
import { toCsv } from '../../http/csv.js';
import { eventually } from '../helpers/eventually.js';

const SEED = 7;
const T0 = Date.UTC(2026, 10, 2, 12);
const walletCadenceMs = 15_000;
const world = simWorld(SEED, 400);
const wallets = trackedWallets(world.wallets, 400);
const universe: UniverseEvent = simUniverseAt(world, T0);
const tracked = world.liquid.slice(0, 10).map((m) => m.symbol);

/** Round `round`'s inputs: a share of the wallets' states and prints naming some of them. */
function inputsOf(round: number): { states: WalletStateEvent[]; prints: WhalePrint[] } {
  const tMs = T0 + round * walletCadenceMs;
  const from = (round * 150) % wallets.length;
  const states = wallets.slice(from, from + 250).map((w) =>
    walletStateAt(SEED, w, world.liquid, tMs));
  const prints = tracked.map((symbol, i): WhalePrint => ({ symbol, tsMs: tMs + i,
    price: 100 + i, notional: 250_000 * (i + 1), side: i % 2 === 0 ? 1 : -1,
    buyer: wallets[(round * 7 + i) % wallets.length]!.address,
    seller: wallets[(round * 11 + 3 * i) % wallets.length]!.address }));
  return { states, prints };
}

interface Steps {
  inputs(round: number): void;
  refresh(nowMs: number): Promise<void>;
  smartMoneyJson(symbol: string): string;
}

async function play(s: Steps, rounds: readonly number[]): Promise<void> {
  for (const round of rounds) {
    s.inputs(round);
    await s.refresh(T0 + round * walletCadenceMs + 1_000);
  }
}

function onMainThread(store: SnapshotStore): Steps {
  const positioning = new PositioningViews(store, walletCadenceMs, silentLogger);
  return {
    inputs: (round) => {
      const { states, prints } = inputsOf(round);
      for (const state of states) positioning.applyWallet(state);
      positioning.applyWhalePrints(prints);
    },
    refresh: async (nowMs) => {
      positioning.refreshWallets(nowMs, universe.markets, tracked);
      await positioning.settled();
    },
    smartMoneyJson: (symbol) => positioning.smartMoneyJson(symbol),
  };
}

function inWorker(views: RemoteMarketViews): Steps {
  return {
    inputs: (round) => {
      const { states, prints } = inputsOf(round);
      for (const state of states) views.positioning.applyWallet(state);
      views.positioning.applyWhalePrints(prints);
    },
    refresh: (nowMs) => views.positioning.refreshWallets(nowMs, tracked),
    smartMoneyJson: (symbol) => views.positioning.smartMoneyJson(symbol),
  };
}

async function withWorker(run: (views: RemoteMarketViews, store: SnapshotStore) =>
  Promise<void>): Promise<void> {
  // As the service's own store: replaced views' moved bytes are released (http/snapshots.ts).
  const store = new SnapshotStore({ releaseMoved: true });
  const views = new RemoteMarketViews(store, { cadenceMs: 1_000, universeCadenceMs: 5_000,
    fundingCadenceMs: walletCadenceMs, walletCadenceMs }, silentLogger, 'warn');
  try {
    await views.start();
    views.applyUniverse(universe);
    views.setTracked(tracked);
    await run(views, store);
  } finally {
    await views.stop();
  }
}

interface Served { etag: string; version: number; updatedAtMs: number; cadenceMs: number;
  body: Buffer }

/** Every view served: those put and each wallet of the family, by name. */
function served(store: SnapshotStore): Map<string, Served> {
  const out = new Map<string, Served>();
  const add = (name: string) => {
    const entry = store.get(name);
    if (entry === undefined) return;
    const { etag, version, updatedAtMs, cadenceMs, body } = entry;
    // A copy: the store releases a view's bytes once it replaces them.
    out.set(name, { etag, version, updatedAtMs, cadenceMs, body: Buffer.from(body) });
  };
  store.forEachView(add);
  for (const wallet of wallets) add(`wallets/${wallet.address}`);
  return out;
}

test('the worker\'s wallet views are the main thread\'s bytes, ETags and versions', async () => {
  const expected = new SnapshotStore();
  const local = onMainThread(expected);
  await play(local, [0, 1, 2]);
  await withWorker(async (views, store) => {
    await play(inWorker(views), [0, 1, 2]);
    const want = served(expected);
    const got = served(store);
    assert.equal([...got.keys()].sort(), [...want.keys()].sort());
    assert.ok(want.has('smart-money') && want.has('wallets'));
    assert.ok(want.has(`liquidation-map/${tracked[0]}`));
    assert.ok([...want.keys()].filter((name) => name.startsWith('wallets/')).length > 300,
      'each wallet with a state has its view');
    for (const [name, entry] of want) {
      const view = got.get(name)!;
      assert.ok(view.body.equals(entry.body), `${name} bytes`);
      assert.is(view.etag, entry.etag, `${name} etag`);
      assert.is(view.version, entry.version, `${name} version`);
      assert.is(view.updatedAtMs, entry.updatedAtMs, `${name} updatedAtMs`);
      assert.is(view.cadenceMs, entry.cadenceMs, `${name} cadenceMs`);
    }
    for (const symbol of tracked) {
      assert.is(views.positioning.smartMoneyJson(symbol), local.smartMoneyJson(symbol), symbol);
    }
    assert.ok(tracked.some((symbol) => local.smartMoneyJson(symbol) !== emptySmartMoneyJson),
      'some tracked pair has smart money');
    // No value crosses back: the CSV export parses the bytes, and reads what the values gave.
    const spec = exportSpecs['smart-money']!;
    assert.is(store.get('smart-money')!.data, undefined);
    assert.is(toCsv(spec.columns, spec.rows(JSON.parse(store.get('smart-money')!.body.toString()))),
      toCsv(spec.columns, spec.rows(expected.get('smart-money')!.data)), 'smart-money.csv');
  });
});

test('the poller\'s due wallets come from the worker\'s tracker, as from its own', async () => {
  const local = new PositioningViews(new SnapshotStore(), walletCadenceMs, silentLogger);
  for (const state of inputsOf(0).states) local.applyWallet(state);
  await withWorker(async (views) => {
    for (const state of inputsOf(0).states) views.positioning.applyState(state);
    const nowMs = T0 + 3_600_000;
    const due = await views.positioning.dueForPoll(nowMs, 20);
    assert.is(due.length, 20);
    assert.equal(due, local.tracker.dueForPoll(nowMs, 20));
    // In flight now: the next ask gets others; a failure backs the wallet off in the worker.
    views.positioning.pollFailed(due[0]!, nowMs);
    local.tracker.pollFailed(due[0]!, nowMs);
    assert.equal(await views.positioning.dueForPoll(nowMs, 20), local.tracker.dueForPoll(nowMs,
      20));
  });
});

test('a wallet worker that dies is restarted: last bytes served, then rebuilt', async () => {
  await withWorker(async (views, store) => {
    await play(inWorker(views), [0, 1]);
    const before = served(store);
    await views.worker.kill();
    assert.equal(served(store), before, 'the last bytes serve while the worker is down');
    await views.positioning.refreshWallets(T0 + 40_000, tracked); // does not wait for the dead
    await eventually(() => views.worker.running && views.worker.restarts === 1,
      { message: 'the views worker restarted', timeoutMs: 20_000 });
    await views.positioning.refreshWallets(T0 + 2 * walletCadenceMs, tracked);
    const after = served(store);
    assert.equal([...after.keys()].sort(), [...before.keys()].sort(), 'every wallet again');
    for (const [name, entry] of after) {
      assert.ok(entry.version > before.get(name)!.version, `${name} version goes up`);
    }
    assert.ok(JSON.parse(after.get('wallets')!.body.toString()).count ===
      JSON.parse(before.get('wallets')!.body.toString()).count, 'rebuilt from every input');
  });
});

test.run();
