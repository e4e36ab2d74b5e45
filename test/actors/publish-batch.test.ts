// The messages a shard's publish batch leaves as (actors/shard/publish-batch.ts), in order: a
// batch whose past is held announces it before its views, so the main thread never sees every
// pair published and nothing held between two messages (a /readyz between them turned ready
// with the warm-up's past still in the shard, and its grading then ran after ready).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PairOutbound, PairViews } from '../../core/messages.js';
import type { ShardPublish } from '../../actors/shard/protocol.js';
import {
  batchMessages, newBatch, type BatchSender, type PublishBatch,
} from '../../actors/shard/publish-batch.js';
import { pastHeldMessagesMax, pastHoldItemsMin, PastQueue } from '../../actors/shard/past-queue.js';

const sender = (past = new PastQueue(), attached = true): BatchSender =>
  ({ shardId: 1, generation: 3, attached, past, droppedEvents: () => 0 });

function views(symbol: string): PairViews {
  return { symbol, views: { pair: new Uint8Array([1, 2, 3]) } } as unknown as PairViews;
}

function batch(outbound: number, extra: Partial<PublishBatch> = {}): PublishBatch {
  return { ...newBatch(), pairs: [views('BTC')], ...extra,
    outbound: Array.from({ length: outbound }, (_, i) => ({ kind: 'bar', symbol: 'BTC',
      tsMs: i, data: {} }) as PairOutbound) };
}

const types = (out: ReturnType<typeof batchMessages>) => out.map((m) => m.message.type);

test('a held past is announced before the views it came with', () => {
  const s = sender();
  const out = batchMessages(batch(pastHoldItemsMin), s);
  assert.equal(types(out), ['shardPastHeld', 'shardPublish']);
  assert.equal(out[0].message, { type: 'shardPastHeld', shardId: 1, generation: 3, left: 2 });
  const publish = out[1].message as ShardPublish;
  assert.equal(publish.outbound, [], 'the bars and signals stay held');
  assert.is(publish.pairs[0].symbol, 'BTC');
  assert.is(out[1].transfer.length, 1, 'the views\' bytes move');
  assert.is(s.past.size, 2, 'two chunks of 1,000 held');
  // Behind a held batch, the next one is held too, and announced no more.
  assert.equal(types(batchMessages(batch(3), s)), ['shardPublish']);
  assert.is(s.past.size, 3);
});

test('a cadence batch leaves at once: views with its items, history, then states', () => {
  const s = sender();
  const out = batchMessages(batch(3, { history: [{} as never],
    states: [{ symbol: 'BTC', bytes: new Uint8Array(4) }] }), s);
  assert.equal(types(out), ['shardPublish', 'shardHistory', 'shardPairStates']);
  assert.is((out[0].message as ShardPublish).outbound.length, 3);
  assert.is(out[2].transfer.length, 1, 'the state bytes move');
  assert.is(s.past.size, 0);
});

test('without a hand-over port nothing is held, however large', () => {
  const out = batchMessages(batch(pastHoldItemsMin), sender(new PastQueue(), false));
  assert.equal(types(out), ['shardPublish']);
  assert.is((out[0].message as ShardPublish).outbound.length, pastHoldItemsMin);
});

test('a queue past its bound sends everything after the views, unannounced', () => {
  const past = new PastQueue();
  for (let i = 0; i < pastHeldMessagesMax; i++) past.hold({ type: 'shardHistory', shardId: 1,
    generation: 3, points: [] });
  const out = batchMessages(batch(pastHoldItemsMin), sender(past));
  assert.is(out[0].message.type, 'shardPublish');
  assert.ok(out.slice(1).every((m) => m.message.type !== 'shardPastHeld'));
  assert.is(out.length, 1 + pastHeldMessagesMax + 2);
  assert.is(past.size, 0);
});

test.run();
