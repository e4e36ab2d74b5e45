// The cross-pair views built in small steps on the main thread (screener, signals, funding
// arbitrage) are the bytes and ETags the one-call encoders made: the same seeded simulated
// universe and funding through both paths, compared byte for byte, and the work spread over
// many steps rather than one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { silentLogger } from '../../core/logger.js';
import { strongEtag } from '../../core/etag.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { simFundingAt, simUniverseAt } from '../../actors/feed/sim/sim-universe.js';
import { buildFundingArb } from '../../actors/positioning/funding-arb.js';
import { MarketViews } from '../../actors/runtime/market-views.js';
import { PositioningViews } from '../../actors/runtime/positioning-views.js';
import {
  encodeFeedView, encodeFeedViewSteps, encodeJson, encodeRecordSteps, encodeStepItems,
} from '../../actors/views/encode.js';
import { SnapshotStore } from '../../http/snapshots.js';

const SEED = 11;
const T0 = Date.UTC(2026, 10, 2, 12);
const world = simWorld(SEED, 200);

/** Runs a generator to its end; answers its value and how many steps it yielded. */
function drain<T>(steps: Generator<void, T>): { value: T; steps: number } {
  let count = 0;
  for (;;) {
    const next = steps.next();
    if (next.done) return { value: next.value, steps: count };
    count++;
  }
}

test('a list view encoded in steps is the bytes of the one-call encoder', () => {
  const rows = Array.from({ length: 3 * encodeStepItems + 5 }, (_, i) => ({
    symbol: `S${i}`, price: 1 / (i + 3), change: i % 7 === 0 ? NaN : -i * 0.1234567891234,
    nested: { list: [i, i / 3, null], flag: i % 2 === 0 }, missing: undefined,
  }));
  for (const body of [{ pairs: rows, count: rows.length }, { pairs: [] }, { pairs: [undefined] }]) {
    const whole = encodeFeedView(body, T0 + 123, 5_000);
    const { value, steps } = drain(encodeFeedViewSteps(body, 'pairs', T0 + 123, 5_000));
    assert.ok(Buffer.from(whole).equals(Buffer.from(value)), JSON.stringify(body).slice(0, 60));
    assert.is(steps, Math.ceil(body.pairs.length / encodeStepItems));
  }
  assert.throws(() => drain(encodeFeedViewSteps({ count: 1, pairs: [] }, 'pairs', T0, 1)),
    /first field/);
});

test('a record encoded in steps is the bytes of the one-call encoder, key order kept', () => {
  const record: Record<string, unknown> = { ETH: { score: 0.1 + 0.2 }, 7: { a: 1 },
    BTC: { vpin: NaN }, GONE: undefined, kPEPE: { cvd: -1e-12 / 3 } };
  for (let i = 0; i < 40; i++) record[`P${i}`] = { score: i / 9 };
  const { value, steps } = drain(encodeRecordSteps(record));
  assert.ok(Buffer.from(encodeJson(record)).equals(Buffer.from(value)));
  assert.ok(steps > 1, 'more than one step');
});

test('screener and signals from a simulated universe: same bytes and ETags, many steps', () => {
  const universe = simUniverseAt(world, T0);
  const store = new SnapshotStore();
  const views = new MarketViews(store, 1_000, 5_000);
  views.applyUniverse(universe);
  const { steps } = drain(views.refreshSteps(T0));
  assert.ok(steps > universe.markets.length + 2, 'the encodes are steps of their own');
  const screener = store.get('screener')!;
  const expected = encodeFeedView({ pairs: views.screenerRows, count: views.screenerRows.length },
    T0, 5_000);
  assert.ok(Buffer.from(expected).equals(screener.body));
  assert.is(screener.etag, strongEtag(expected));
  assert.ok(Buffer.from(encodeJson({})).equals(store.get('signals')!.body));
});

test('funding arbitrage refreshed in steps: the bytes of building and encoding it at once', () => {
  const store = new SnapshotStore();
  const positioning = new PositioningViews(store, 15_000, silentLogger);
  const events = simFundingAt(world, T0);
  assert.ok(events.length > 100);
  for (const event of events) positioning.applyFunding(event);
  const { steps } = drain(positioning.refreshFundingSteps());
  const rows = events.map((e) => ({ symbol: e.symbol, venues: e.venues }));
  const expected = encodeFeedView(buildFundingArb(rows), T0, 15_000);
  const stored = store.get('funding-arb')!;
  assert.ok(Buffer.from(expected).equals(stored.body));
  assert.is(stored.etag, strongEtag(expected));
  assert.ok(steps > events.length / 64, 'rows and items spread over steps');
  // The whole refresh, as tests and start-up call it, stores the same bytes.
  positioning.refreshFunding();
  assert.is(store.get('funding-arb')!.etag, stored.etag);
});

test.run();
