// RelevanceHeap against a brute-force minimum under random pushes, updates and removals; and the
// tracker's score rebasing over long market time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RelevanceHeap, type HeapItem } from '../../actors/positioning/relevance-heap.js';
import { WalletTracker } from '../../actors/positioning/wallet-tracker.js';
import { addressOf } from './helpers.js';

function lowest(items: Set<HeapItem>): HeapItem | undefined {
  let best: HeapItem | undefined;
  for (const item of items) {
    if (best === undefined || item.score < best.score ||
      (item.score === best.score && item.address > best.address)) best = item;
  }
  return best;
}

test('the heap always yields the brute-force minimum', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const heap = new RelevanceHeap<HeapItem>();
  const live = new Set<HeapItem>();
  for (let step = 0; step < 5_000; step++) {
    const roll = random();
    const items = [...live];
    if (roll < 0.4 || items.length === 0) {
      const item = { score: Math.floor(random() * 50), heapIndex: -1, address: addressOf(step) };
      heap.push(item);
      live.add(item);
    } else if (roll < 0.8) {
      const item = items[Math.floor(random() * items.length)];
      item.score = Math.floor(random() * 50);
      heap.update(item);
    } else {
      const item = items[Math.floor(random() * items.length)];
      heap.remove(item);
      live.delete(item);
    }
    assert.is(heap.peek(), lowest(live), `step ${step}`);
    assert.is(heap.size, live.size);
  }
  const stranger = { score: 1, heapIndex: 0, address: 'x' };
  assert.throws(() => heap.remove(stranger), /not in this heap/);
});

test('scores rebase over long market time without changing the order', () => {
  const halfLifeMs = 1_000;
  const tracker = new WalletTracker({ walletsMax: 2, halfLifeMs });
  tracker.observeTrade(addressOf(1), 100, 1, 'BTC', 0);
  tracker.observeTrade(addressOf(2), 1e6, 1, 'BTC', 0);
  // 2000 half-lives later: 2^2000 would overflow without rebasing.
  const later = 2_000 * halfLifeMs;
  assert.ok(tracker.observeTrade(addressOf(3), 1, 1, 'BTC', later));
  assert.not.ok(tracker.has(addressOf(1)), 'the least relevant is still evicted');
  const relevance = tracker.record(addressOf(3), later)!.relevanceUsd;
  assert.ok(Math.abs(relevance - 1) < 1e-9, `relevance ${relevance}`);
  assert.ok(tracker.observeTrade(addressOf(4), 0.5, 1, 'BTC', later), 'the old whale decayed');
  assert.not.ok(tracker.has(addressOf(2)));
});

test.run();
