// The cross-pair views built in the views worker (screener, every listed market's pair detail,
// signals, funding arbitrage) are the bytes, ETags and versions the main thread's own
// MarketViews and PositioningViews make from the same seeded simulated universe, pair summaries
// and funding; readiness waits for the worker's signals;
// the CSV exports read the same values from the bytes; and a worker that dies is restarted,
// the store serving the last bytes meanwhile and keeping their versions after.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { silentLogger } from '../../core/logger.js';
import { strongEtag } from '../../core/etag.js';
import {
  DIRECTIONS, REGIMES, VPIN_LEVELS, type FundingEvent, type PairViews, type UniverseEvent,
} from '../../core/messages.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { simFundingAt, simUniverseAt } from '../../actors/feed/sim/sim-universe.js';
import { MarketViews } from '../../actors/runtime/market-views.js';
import { PositioningViews } from '../../actors/runtime/positioning-views.js';
import { RemoteMarketViews } from '../../actors/runtime/remote-market-views.js';
import { SnapshotStore } from '../../http/snapshots.js';
import { exportSpecs } from '../../http/handlers/export.js';
import { toCsv } from '../../http/csv.js';
import { eventually } from '../helpers/eventually.js';

const SEED = 11;
const T0 = Date.UTC(2026, 10, 2, 12);
const cadenceMs = 1_000;
const universeCadenceMs = 5_000;
const fundingCadenceMs = 15_000;
const world = simWorld(SEED, 200);
const universes = [simUniverseAt(world, T0), simUniverseAt(world, T0 + universeCadenceMs)];
const tracked = universes[0]!.markets.slice(0, 12).map((m) => m.symbol);

/** A tracked pair's publish as a shard sends it: a summary and two views with their tags. */
function publish(symbol: string, round: number, i: number): PairViews {
  const updatedAtMs = T0 + round * cadenceMs + i;
  const views = { 'deep-view': new TextEncoder().encode(`{"symbol":"${symbol}","r":${round}}`),
    cvd: new TextEncoder().encode(`{"cvd":${round * i}}`) };
  const etags = Object.fromEntries(Object.entries(views).map(([k, b]) => [k, strongEtag(b)]));
  return { symbol, version: round + 1, updatedAtMs, views, etags, summary: {
    symbol, price: 100 + i + round / 7, vpin: (i % 5) / 5.3, vpinLevel: VPIN_LEVELS[i % 4]!,
    cvd: i % 3 === 0 ? null : -i * 1234.5678901234 * (round + 1), obi: 0.1, ofi: -0.2,
    kyleLambda: 1e-9, score: i % 4 === 0 ? null : (i - 6) / 3.1, direction: DIRECTIONS[i % 3]!,
    regime: i % 6 === 0 ? null : REGIMES[i % 4]!, stale: i === 5 && round > 0, asOfMs: updatedAtMs,
    basis: 'trades' } };
}

interface Steps {
  universe(event: UniverseEvent): void;
  tracked(symbols: readonly string[]): void;
  publish(pairs: PairViews[], wallNowMs: number): Promise<void>;
  refresh(wallNowMs: number): Promise<void>;
  funding(events: readonly FundingEvent[]): void;
  refreshFunding(): Promise<void>;
}

/** The service's sequence of inputs: universes, a re-rank, publishes and cadences. */
async function play(s: Steps, rounds: number, only?: (round: number) => boolean): Promise<void> {
  s.universe(universes[0]!);
  s.tracked(tracked);
  for (let round = 0; round < rounds; round++) {
    if (only && !only(round)) continue;
    if (round === 2) s.universe(universes[1]!);
    // Round 3 leaves out a pair (stale after 3 cadences); round 4 re-ranks one away.
    if (round === 4) s.tracked(tracked.slice(1));
    const symbols = round === 3 ? tracked.slice(0, -1) : tracked;
    await s.publish(symbols.map((symbol, i) => publish(symbol, round, i)), T0 + round * 1_000);
    await s.refresh(T0 + round * 1_000 + 500 + (round === 3 ? 4 * cadenceMs : 0));
    // Funding every other round: the rounds between refresh it unchanged.
    if (round % 2 === 0) s.funding(simFundingAt(world, T0 + round * universeCadenceMs));
    await s.refreshFunding();
  }
}

function onMainThread(store: SnapshotStore): { views: MarketViews; steps: Steps } {
  const views = new MarketViews(store, cadenceMs, universeCadenceMs);
  const positioning = new PositioningViews(store, fundingCadenceMs, silentLogger);
  return { views, steps: {
    universe: (event) => views.applyUniverse(event),
    tracked: (symbols) => views.setTracked(symbols),
    // As the service did: each pair stored, then the refresh at once for a first publish.
    publish: async (pairs, wallNowMs) => {
      let first = false;
      for (const pair of pairs) first = views.applyPairViews([pair], wallNowMs) || first;
      if (first) views.refresh(wallNowMs);
    },
    refresh: async (wallNowMs) => views.refresh(wallNowMs),
    funding: (events) => { for (const event of events) positioning.applyFunding(event); },
    refreshFunding: async () => positioning.refreshFunding(views.screenerRows),
  } };
}

function inWorker(store: SnapshotStore): { views: RemoteMarketViews; steps: Steps } {
  const views = new RemoteMarketViews(store, { cadenceMs, universeCadenceMs,
    fundingCadenceMs, walletCadenceMs: fundingCadenceMs }, silentLogger, 'warn');
  return { views, steps: {
    universe: (event) => views.applyUniverse(event),
    tracked: (symbols) => views.setTracked(symbols),
    publish: async (pairs, wallNowMs) => {
      for (const pair of pairs) views.applyPairViews([pair], wallNowMs);
    },
    refresh: (wallNowMs) => views.refresh(wallNowMs),
    funding: (events) => { for (const event of events) views.applyFunding(event); },
    refreshFunding: () => views.refreshFunding(),
  } };
}

/** A started views worker for `run`, stopped after it. */
async function withWorker(run: (remote: ReturnType<typeof inWorker>, store: SnapshotStore) =>
  Promise<void>): Promise<void> {
  // As the service's own store: replaced views' moved bytes are released (http/snapshots.ts).
  const store = new SnapshotStore({ releaseMoved: true });
  const remote = inWorker(store);
  try {
    await remote.views.start();
    await run(remote, store);
  } finally {
    await remote.views.stop();
  }
}

function entries(store: SnapshotStore): Map<string, { etag: string; version: number;
  updatedAtMs: number; cadenceMs: number; body: Buffer }> {
  const out = new Map();
  store.forEachView((name) => {
    const { etag, version, updatedAtMs, cadenceMs, body } = store.get(name)!;
    out.set(name, { etag, version, updatedAtMs, cadenceMs, body });
  });
  return out;
}

test('the worker\'s views are the main thread\'s bytes, ETags and versions', async () => {
  const expected = new SnapshotStore();
  const local = onMainThread(expected);
  await play(local.steps, 6);
  await withWorker(async (remote, store) => {
    remote.steps.universe(universes[0]!);
    remote.steps.tracked(tracked);
    assert.is(remote.views.unpublishedCount(), tracked.length, 'nothing published yet');
    await play(remote.steps, 6);
    const want = entries(expected);
    const got = entries(store);
    assert.equal([...got.keys()].sort(), [...want.keys()].sort());
    assert.ok(want.size > universes[0]!.markets.length, 'every listed market has a detail');
    for (const [name, entry] of want) {
      const served = got.get(name)!;
      assert.ok(served.body.equals(entry.body), `${name} bytes`);
      assert.is(served.etag, entry.etag, `${name} etag`);
      // The positioning views number every put of the funding view, the front each change.
      if (name !== 'funding-arb') assert.is(served.version, entry.version, `${name} version`);
      assert.is(served.updatedAtMs, entry.updatedAtMs, `${name} updatedAtMs`);
      assert.is(served.cadenceMs, entry.cadenceMs, `${name} cadenceMs`);
    }
    assert.ok(want.get('screener')!.version > 1, 'the screener changed over the rounds');
    // Each message moved its views in one buffer: far fewer buffers than views are held.
    const buffers = new Set([...got.values()].map((entry) => entry.body.buffer));
    assert.ok(buffers.size * 4 < got.size, `${buffers.size} buffers for ${got.size} views`);
    assert.is(store.movedBuffers, buffers.size);
    assert.equal(remote.views.screenerRows, local.views.screenerRows);
    assert.is(remote.views.unpublishedCount(), 0);
    assert.is(local.views.unpublishedCount(), 0);
    // No value crosses back: the CSV exports parse the bytes, and read what the values gave.
    assert.ok(want.has('funding-arb'), 'the funding view is compared too');
    for (const view of ['screener', 'signals', 'funding-arb']) {
      const spec = exportSpecs[view]!;
      assert.is(store.get(view)!.data, undefined);
      assert.is(toCsv(spec.columns, spec.rows(JSON.parse(store.get(view)!.body.toString()))),
        toCsv(spec.columns, spec.rows(expected.get(view)!.data)), `${view}.csv`);
    }
  });
});

test('readiness waits for the worker\'s signals view, not only the shards\' bytes', async () => {
  await withWorker(async (remote, store) => {
    remote.steps.universe(universes[0]!);
    remote.steps.tracked(tracked);
    await remote.steps.publish(tracked.map((symbol, i) => publish(symbol, 0, i)), T0);
    // The shards' bytes are in at once; the pair details and signals come from the worker.
    assert.ok(store.get(`deep-view/${tracked[0]}`));
    assert.is(remote.views.unpublishedCount(), tracked.length);
    await eventually(() => remote.views.unpublishedCount() === 0,
      { message: 'every tracked pair in the worker\'s signals view' });
    assert.ok(store.get(`pair/${tracked[0]}`));
  });
});

test('a worker that dies is restarted; its views keep their bytes and versions', async () => {
  await withWorker(async (remote, store) => {
    await play(remote.steps, 2);
    const before = entries(store);
    await remote.views.worker.kill();
    // Meanwhile the store serves the last bytes, and a refresh does not wait for the dead.
    assert.equal(entries(store), before);
    await remote.views.refresh(T0 + 5_000);
    await eventually(() => remote.views.worker.running && remote.views.worker.restarts === 1,
      { message: 'the views worker restarted', timeoutMs: 20_000 });
    await remote.views.refresh(T0 + 2_500);
    // Built again from the inputs the main thread sent the new worker: the same bytes.
    assert.equal(entries(store), before);
    // And it goes on: a new round changes the views, each one version up.
    await play(remote.steps, 3, (round) => round === 2);
    assert.is(store.get('screener')!.version, before.get('screener')!.version + 1);
    assert.is.not(store.get('screener')!.etag, before.get('screener')!.etag);
  });
});

test.run();
