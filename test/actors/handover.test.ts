// The shard -> main hand-over's transfer list: which view bytes move and which are copied, on a
// real MessageChannel (a moved buffer is detached on the sending side, a copied one is not).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MessageChannel } from 'node:worker_threads';
import type { PairViews } from '../../core/messages.js';
import { transferablesOf } from '../../actors/shard/handover.js';
import { handoverPortMessage, isHandoverPortMessage } from '../../actors/shard/protocol.js';

const encoder = new TextEncoder();

function pair(symbol: string, views: Record<string, Uint8Array>): PairViews {
  return { symbol, version: 1, updatedAtMs: 0, summary: {} as PairViews['summary'], views };
}

test('whole buffers move; pooled slices and shared buffers are copied; each listed once', () => {
  const own = encoder.encode('{"a":1}');
  const pooled = Buffer.from('{"b":2}');
  const shared = new Uint8Array(new SharedArrayBuffer(4));
  const list = transferablesOf([pair('BTC', { 'deep-view': own, cvd: pooled }),
    pair('ETH', { 'deep-view': own, cvd: shared })]);
  assert.equal(list, [own.buffer]);
  assert.ok(pooled.byteLength < pooled.buffer.byteLength, 'the Buffer is a slice of the pool');
});

test('posting with the list moves the bytes: the receiver reads them, the sender cannot',
  async () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const own = encoder.encode('{"deep":true}');
      const pooled = Buffer.from('{"cvd":true}');
      const views = [pair('BTC', { 'deep-view': own, cvd: pooled })];
      const received = new Promise<PairViews[]>((resolve) =>
        port2.once('message', (message: PairViews[]) => resolve(message)));
      port1.postMessage(views, transferablesOf(views));
      const [got] = await received;
      assert.is(Buffer.from(got.views['deep-view']).toString(), '{"deep":true}');
      assert.is(Buffer.from(got.views.cvd).toString(), '{"cvd":true}');
      assert.is(own.byteLength, 0, 'moved: detached on the sending side');
      assert.is(pooled.toString(), '{"cvd":true}', 'copied: the pool is untouched');
    } finally {
      port1.close();
    }
  });

test('the port message is recognised, and nothing else is', () => {
  const { port1, port2 } = new MessageChannel();
  try {
    assert.ok(isHandoverPortMessage(handoverPortMessage(port2)));
    assert.not.ok(isHandoverPortMessage({ type: 'orderflow-handover-port' }));
    assert.not.ok(isHandoverPortMessage({ type: 'actor-message', port: port2 }));
    assert.not.ok(isHandoverPortMessage(null));
    assert.not.ok(isHandoverPortMessage('orderflow-handover-port'));
  } finally {
    port1.close();
  }
});

test.run();
