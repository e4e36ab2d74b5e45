// Published wallet views and the byte writer of the wallets view: a wallet is re-published only
// when its state changes and encoded on request, big bodies are written without joined copies,
// and long work yields to the event loop between slices; a watcher (a scale-out ingest) hears
// every publish and drop.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ByteWriter } from '../../actors/positioning/byte-writer.js';
import { PublishedWallets, walletJson } from '../../actors/positioning/published-wallets.js';
import { buildWalletView } from '../../actors/positioning/views.js';
import { runSliced } from '../../actors/runtime/sliced.js';
import { withFreshness } from '../../actors/runtime/wallet-refresh.js';
import { encodeFeedView } from '../../actors/views/encode.js';
import { addressOf, baseMetrics, position, record, walletState } from './helpers.js';

const state = walletState(addressOf(1), 5_000, [position({ symbol: 'BTC', size: 2 })]);
const decoder = new TextDecoder();

test('published: a new version only for a new state; its bytes as encodeFeedView makes', () => {
  let version = 0;
  const published = new PublishedWallets(15_000, () => ++version);
  assert.ok(published.publish(record(state), 1_000));
  const first = published.view(state.address)!;
  assert.is(first.version, 1);
  const view = buildWalletView(record(state))!;
  assert.is(decoder.decode(first.encode()), decoder.decode(encodeFeedView(
    view as unknown as Record<string, unknown>, 1_000, 15_000)));
  assert.is(walletJson(record(state)), JSON.stringify(view));
  // Same state, other metrics: the view stays as published (state time and all).
  const moved = record(state, { metrics: { ...baseMetrics, buyNotional: 1 } });
  assert.not.ok(published.publish(moved, 2_000));
  assert.is(published.view(state.address), first);
  assert.is(JSON.parse(decoder.decode(first.encode())).metrics.buyNotional,
    baseMetrics.buyNotional);
  assert.ok(published.publish(record({ ...state, tsMs: 6_000 }), 3_000));
  const next = published.view(state.address)!;
  assert.is(next.version, 2);
  assert.is(JSON.parse(decoder.decode(next.encode())).updatedAt, new Date(3_000).toISOString());
  assert.is(published.publishedCount, 2);
});

test('published: no state, nothing published; retainOnly forgets wallets no longer tracked', () => {
  const published = new PublishedWallets(15_000, () => 1);
  assert.not.ok(published.publish(record(null, { address: addressOf(2) }), 0));
  assert.is(walletJson(record(null)), null);
  published.publish(record(state), 0);
  published.publish(record(walletState(addressOf(3), 1, [])), 0);
  assert.is(published.size, 2);
  published.retainOnly(new Set([addressOf(3)]));
  assert.is(published.view(state.address), undefined);
  assert.ok(published.view(addressOf(3)));
});

test('published: a watcher hears each new publish and each drop; keys() lists what is held',
  () => {
    const published = new PublishedWallets(15_000, () => 1);
    const heard: [string, number | undefined][] = [];
    published.watch((key, view) => heard.push([key, view?.updatedAtMs]));
    published.publish(record(state), 10);
    published.publish(record(state), 20); // same state: no publish, nothing heard
    published.publish(record(walletState(addressOf(3), 1, [])), 30);
    assert.equal([...published.keys()].sort(), [state.address, addressOf(3)].sort());
    published.retainOnly(new Set([addressOf(3)]));
    assert.equal(heard, [[state.address, 10], [addressOf(3), 30], [state.address, undefined]]);
    assert.equal([...published.keys()], [addressOf(3)]);
  });

test('byte writer: grows past a short guess, UTF-8 exact, no slack kept', () => {
  const parts = ['{"a":[', '"\u00e9t\u00e9 é ☃ 𝄞"', ',', 'x'.repeat(5_000), ']}'];
  const out = new ByteWriter(8);
  for (const part of parts) out.write(part);
  const body = out.finish();
  assert.is(body.toString('utf8'), parts.join(''));
  assert.is(body.byteLength, Buffer.byteLength(parts.join('')));
  assert.is(body.buffer.byteLength, body.byteLength, 'copied to its exact size');
  const exact = new ByteWriter(Buffer.byteLength(parts.join('')));
  for (const part of parts) exact.write(part);
  assert.is(exact.finish().toString('utf8'), parts.join(''));
  assert.is(new ByteWriter(0).finish().byteLength, 0);
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
