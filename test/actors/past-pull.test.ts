// A shard's held past (actors/shard/past-queue.ts) and the main thread's puller
// (actors/runtime/past-puller.ts): what is held, in what order it leaves, and that the main
// thread pulls it one message at a time, only once the views are in.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MessageChannel } from 'node:worker_threads';
import {
  chunked, pastChunkItems, pastHeldMessagesMax, pastHoldItemsMin, PastQueue,
} from '../../actors/shard/past-queue.js';
import {
  isPastPull, pastPullMessage, type ShardHistory,
} from '../../actors/shard/protocol.js';
import { PastPuller } from '../../actors/runtime/past-puller.js';
import { eventually } from '../helpers/eventually.js';

function history(count: number): ShardHistory {
  return { type: 'shardHistory', shardId: 0, generation: 1,
    points: Array.from({ length: count }, () => ({}) as ShardHistory['points'][number]) };
}

test('chunked keeps every item in order, in parts of at most the size', () => {
  const items = Array.from({ length: 2_501 }, (_, i) => i);
  const parts = chunked(items, pastChunkItems);
  assert.equal(parts.map((p) => p.length), [1_000, 1_000, 501]);
  assert.equal(parts.flat(), items);
  assert.equal(chunked([], pastChunkItems), []);
  assert.equal(chunked([1, 2], pastChunkItems), [[1, 2]]);
});

test('a large batch is held, and every batch after it until the queue is empty', () => {
  const queue = new PastQueue();
  assert.not.ok(queue.holds(pastHoldItemsMin - 1), 'a cadence batch leaves at once');
  assert.ok(queue.holds(pastHoldItemsMin), 'a warm-up batch is held');
  queue.hold(history(3));
  assert.ok(queue.holds(1), 'a small batch behind a held one is held too (order)');
  queue.hold(history(1));
  assert.equal([queue.take(), queue.take()].map((h) =>
    (h?.message as ShardHistory).points.length), [3, 1]);
  assert.is(queue.take(), undefined);
  assert.not.ok(queue.holds(1));
});

test('the queue is bounded: past its bound it says so', () => {
  const queue = new PastQueue();
  for (let i = 0; i <= pastHeldMessagesMax; i++) queue.hold(history(0));
  assert.ok(queue.full);
});

test('the pull message is recognised, and nothing else is', () => {
  assert.ok(isPastPull(pastPullMessage));
  assert.not.ok(isPastPull({ type: 'shardPast' }));
  assert.not.ok(isPastPull(null));
});

/** A puller over fake shards: each pull is answered by `answer` later, as a port would. */
function harness() {
  const state = { viewsPending: false, allPublished: false, pulls: [] as number[] };
  const left = new Map<number, number>();
  const puller: PastPuller = new PastPuller({
    pull: (shardId, all) => {
      state.pulls.push(shardId);
      const rest = all ? 0 : Math.max(0, (left.get(shardId) ?? 0) - 1);
      left.set(shardId, rest);
      setImmediate(() => puller.onAnswer(shardId, rest));
      return true;
    },
    viewsPending: () => state.viewsPending,
    allPublished: () => state.allPublished,
    nowMs: () => performance.now(),
  });
  const hold = (shardId: number, count: number) => {
    left.set(shardId, count);
    puller.onHeld(shardId, count);
  };
  return { state, puller, hold };
}

test('nothing is pulled until every tracked pair published and no views wait', async () => {
  const { state, puller, hold } = harness();
  try {
    hold(1, 2);
    hold(0, 3);
    state.viewsPending = true;
    state.allPublished = true;
    // The gate is looked at every few tens of milliseconds: give it several looks.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(state.pulls, [], 'views first');
    state.viewsPending = false;
    await eventually(() => puller.held === 0, { message: 'everything pulled' });
    assert.equal(state.pulls, [0, 0, 0, 1, 1], 'one shard after the other, in order');
  } finally {
    puller.stop();
  }
});

test('a restarted shard is not waited for; the others are still pulled', async () => {
  const { state, puller, hold } = harness();
  try {
    state.allPublished = true;
    hold(0, 1);
    puller.onShardRestarted(0);
    assert.is(puller.held, 0);
    hold(1, 1);
    await eventually(() => puller.held === 0, { message: 'shard 1 pulled' });
    assert.ok(state.pulls.includes(1));
  } finally {
    puller.stop();
  }
});

test('held messages cross a real port in order, transferred bytes included', async () => {
  const { port1, port2 } = new MessageChannel();
  try {
    const queue = new PastQueue();
    const bytes = new Uint8Array([1, 2, 3]);
    queue.hold(history(2));
    queue.hold({ type: 'shardPairStates', shardId: 0, generation: 1,
      states: [{ symbol: 'BTC', bytes }] }, [bytes.buffer as ArrayBuffer]);
    port2.on('message', (message: unknown) => {
      if (!isPastPull(message)) return;
      const next = queue.take();
      port2.postMessage({ left: queue.size, message: next?.message ?? null },
        next?.transfer ?? []);
    });
    const got: unknown[] = [];
    for (;;) {
      const answer = new Promise<{ left: number; message: unknown }>((resolve) =>
        port1.once('message', resolve));
      port1.postMessage(pastPullMessage);
      const { left, message } = await answer;
      got.push(message);
      if (left === 0) break;
    }
    assert.equal(got.map((m) => (m as { type: string }).type),
      ['shardHistory', 'shardPairStates']);
    assert.is(bytes.byteLength, 0, 'the state bytes moved');
  } finally {
    port1.close();
  }
});

test.run();
