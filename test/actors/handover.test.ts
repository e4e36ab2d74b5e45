// The shard -> main hand-over's moved bytes: a publish's views travel packed in one buffer,
// on a real MessageChannel (the moved buffer is detached on the sending side, the bytes the
// pairs were built with are not).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MessageChannel } from 'node:worker_threads';
import type { PairViews } from '../../core/messages.js';
import { movedPairs } from '../../actors/shard/handover.js';
import { closingMember } from '../../actors/views/splice-field.js';
import { strongEtag } from '../../core/etag.js';
import { handoverPortMessage, isHandoverPortMessage } from '../../actors/shard/protocol.js';

const encoder = new TextEncoder();
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();

function pair(symbol: string, views: Record<string, Uint8Array>): PairViews {
  return { symbol, version: 1, updatedAtMs: 0, summary: {} as PairViews['summary'], views,
    etags: { cvd: `"${symbol}"` } };
}

test('every view of every pair is packed into one buffer, in order, the rest kept', () => {
  const pooled = Buffer.from('{"b":2}');
  const shared = new Uint8Array(new SharedArrayBuffer(4)).fill(33);
  const { pairs, transfer } = movedPairs([pair('BTC', { 'deep-view': encoder.encode('{"a":1}'),
    cvd: pooled }), pair('ETH', { 'deep-view': shared, cvd: encoder.encode('') })]);
  assert.is(transfer.length, 1);
  const [buffer] = transfer;
  assert.is(buffer!.byteLength, 7 + 7 + 4);
  assert.equal(pairs.map((p) => Object.keys(p.views)),
    [['deep-view', 'cvd'], ['deep-view', 'cvd']]);
  for (const p of pairs) {
    for (const bytes of Object.values(p.views)) assert.is(bytes.buffer, buffer);
  }
  assert.is(text(pairs[0]!.views['deep-view']!), '{"a":1}');
  assert.is(text(pairs[0]!.views.cvd!), '{"b":2}');
  assert.is(text(pairs[1]!.views['deep-view']!), '!!!!');
  assert.is(pairs[1]!.views.cvd!.byteLength, 0);
  assert.equal(pairs[1]!.etags, { cvd: '"ETH"' });
  assert.equal(movedPairs([]), { pairs: [], transfer: [] });
});

test('a deep view closed as it is packed: one more member, hashed as closed', () => {
  const deep = encoder.encode('{"symbol":"BTC","price":1}');
  const { pairs } = movedPairs([pair('BTC', { 'deep-view': deep, cvd: encoder.encode('[1]') }),
    pair('ETH', { cvd: encoder.encode('[2]') })],
  (symbol) => closingMember('smartMoney', `{"of":"${symbol}"}`));
  const closed = pairs[0]!.views['deep-view']!;
  assert.equal(JSON.parse(text(closed)), { symbol: 'BTC', price: 1, smartMoney: { of: 'BTC' } });
  assert.equal(pairs[0]!.etags, { cvd: '"BTC"', 'deep-view': strongEtag(closed) });
  assert.is(text(pairs[0]!.views.cvd!), '[1]', 'other views as they were');
  assert.equal(pairs[1]!.etags, { cvd: '"ETH"' }, 'a pair without a deep view keeps its tags');
  assert.is(text(deep), '{"symbol":"BTC","price":1}', 'the bytes built with are untouched');
});

test('posting with the list moves one buffer: the receiver reads every view, the sender cannot',
  async () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const deep = encoder.encode('{"deep":true}');
      const pooled = Buffer.from('{"cvd":true}');
      const { pairs, transfer } = movedPairs([pair('BTC', { 'deep-view': deep, cvd: pooled }),
        pair('ETH', { cvd: encoder.encode('{"eth":1}') })]);
      const received = new Promise<PairViews[]>((resolve) =>
        port2.once('message', (message: PairViews[]) => resolve(message)));
      port1.postMessage(pairs, transfer);
      const [btc, eth] = await received;
      assert.is(text(btc!.views['deep-view']!), '{"deep":true}');
      assert.is(text(btc!.views.cvd!), '{"cvd":true}');
      assert.is(text(eth!.views.cvd!), '{"eth":1}');
      assert.is(btc!.views.cvd!.buffer, eth!.views.cvd!.buffer, 'one buffer on arrival too');
      assert.is(transfer[0]!.byteLength, 0, 'moved: detached on the sending side');
      assert.is(text(deep), '{"deep":true}', 'the bytes built with are untouched');
      assert.is(pooled.toString(), '{"cvd":true}');
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
