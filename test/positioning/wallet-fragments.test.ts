// Per-wallet view cache and sliced runner: a wallet is re-encoded only when its view changes,
// and long work yields to the event loop between slices.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildWalletView } from '../../actors/positioning/views.js';
import { WalletFragments } from '../../actors/positioning/wallet-fragments.js';
import { runSliced } from '../../actors/runtime/sliced.js';
import { withFreshness } from '../../actors/runtime/wallet-refresh.js';
import { encodeFeedView } from '../../actors/views/encode.js';
import { addressOf, baseMetrics, position, record, walletState } from './helpers.js';

const state = walletState(addressOf(1), 5_000, [position({ symbol: 'BTC', size: 2 })]);

test('fragments: same view, same fragment; any shown field changed, encoded again', () => {
  const fragments = new WalletFragments();
  const first = fragments.fragmentOf(record(state))!;
  assert.is(first.json, JSON.stringify(buildWalletView(record(state))));
  assert.is(fragments.fragmentOf(record(state)), first, 'equal record: no encoding');
  assert.is(fragments.encodedCount, 1);
  const moved = fragments.fragmentOf(record(state, { metrics: { ...baseMetrics,
    buyNotional: 1 } }))!;
  assert.is.not(moved, first);
  assert.is(moved.view.metrics.buyNotional, 1);
  assert.is.not(fragments.fragmentOf(record(state, { category: 'fund' })), moved);
  assert.is.not(fragments.fragmentOf(record({ ...state, tsMs: 2_000 },
    { category: 'fund' }))!.json, moved.json);
  assert.is(fragments.encodedCount, 4);
});

test('fragments: no state, no fragment; retainOnly forgets wallets no longer tracked', () => {
  const fragments = new WalletFragments();
  fragments.fragmentOf(record(state));
  fragments.fragmentOf(record(walletState(addressOf(2), 1, [])));
  assert.is(fragments.size, 2);
  assert.is(fragments.fragmentOf(record(null, { address: addressOf(2) })), null);
  assert.is(fragments.size, 1);
  fragments.retainOnly(new Set([addressOf(3)]));
  assert.is(fragments.size, 0);
});

test('withFreshness gives the bytes encodeFeedView gives', () => {
  const view = buildWalletView(record(state))!;
  const bytes = encodeFeedView(view as unknown as Record<string, unknown>, 1_234, 15_000);
  assert.is(withFreshness(JSON.stringify(view), 1_234, 15_000), new TextDecoder().decode(bytes));
});

test('runSliced: work longer than a slice lets other callbacks in, and finishes', async () => {
  let units = 0;
  let otherRan = false;
  let otherRanBeforeEnd = false;
  function* work() {
    for (let i = 0; i < 200; i++) {
      const untilMs = performance.now() + 0.2;
      while (performance.now() < untilMs); // busy: a unit of real work
      units++;
      otherRanBeforeEnd ||= otherRan;
      yield;
    }
  }
  setImmediate(() => { otherRan = true; });
  await runSliced(work(), 1);
  assert.is(units, 200);
  assert.ok(otherRanBeforeEnd, 'an event-loop turn passed in the middle');
});

test('runSliced: what the work throws rejects; a bad slice is refused', async () => {
  function* broken() {
    yield;
    throw new Error('boom');
  }
  try {
    await runSliced(broken(), 5);
    assert.unreachable('must reject');
  } catch (error) {
    assert.match((error as Error).message, 'boom');
  }
  assert.throws(() => runSliced(broken(), 0), /sliceMs/);
});

test.run();
