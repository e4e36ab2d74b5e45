// The publisher's in-place batch writer: what it writes is a batch the fronts split and decode
// (frames.ts), a full batch refuses the next frame, one bigger frame leaves alone, and a message
// stays intact while the next ones are written behind it in the same slab.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatchWriter } from '../../scale-out/batch-writer.js';
import { decodeFrame, splitBatch, type FrameHeader } from '../../scale-out/frames.js';

const header = (name: string, seq: number): string => JSON.stringify({ kind: 'put', name,
  stamp: { epochMs: 5, seq }, sentAtMs: 9, updatedAtMs: 7, cadenceMs: 1000,
  etag: '"e"' } satisfies FrameHeader);

test('frames written in place split and decode as sent; a slice of a frame is its own', () => {
  const writer = new BatchWriter(4_096);
  const body = Buffer.from('{"a":1}');
  const start = writer.add(header('pair/BTC', 1), body);
  writer.add(JSON.stringify({ kind: 'delete', name: 'pair/ETH', stamp: { epochMs: 5, seq: 2 } }));
  assert.is(writer.frameCount, 2);
  const end = writer.byteLength;
  const message = writer.take(1234.5);
  assert.is(message.length, end);
  const { sentAtMs, frames } = splitBatch(message);
  assert.is(sentAtMs, 1234.5);
  const [put, deleted] = frames.map(decodeFrame);
  assert.ok(put!.kind === 'put' && put!.body.equals(body) && put!.etag === '"e"');
  assert.ok(deleted!.kind === 'delete' && deleted!.name === 'pair/ETH');
  assert.ok(message.subarray(start, start + frames[0]!.length).equals(frames[0]!));
  assert.is(writer.frameCount, 0);
});

test('a full batch refuses the next frame; a bigger frame goes alone; slabs are shared', () => {
  const writer = new BatchWriter(4_096);
  const body = Buffer.alloc(1_500, 1);
  assert.ok(writer.add(header('a', 1), body) > 0);
  assert.ok(writer.add(header('b', 2), body) > 0);
  assert.is(writer.add(header('c', 3), body), -1, 'a third would pass 4 KB');
  assert.is(writer.frameCount, 2);
  const first = writer.take(1);
  const copy = Buffer.from(first);
  assert.ok(writer.add(header('big', 4), Buffer.alloc(10_000, 2)) > 0, 'alone, in its own slab');
  const big = writer.take(2);
  assert.ok(big.length > 10_000);
  // A small message leaves the rest of its slab to the next: the first stays as it was.
  writer.add(header('d', 5), Buffer.from('x'));
  const small = writer.take(3);
  writer.add(header('e', 6), Buffer.from('y'));
  const next = writer.take(4);
  assert.is(small.buffer, next.buffer, 'the same slab');
  assert.ok(first.equals(copy));
  assert.equal(splitBatch(small).frames.map(decodeFrame).map((f) => f.kind === 'put' && f.name),
    ['d']);
  assert.equal(splitBatch(next).frames.map(decodeFrame).map((f) => f.kind === 'put' && f.name),
    ['e']);
});

test.run();
