// A store that is its views' one holder releases a replaced view's moved bytes: what it serves is
// unchanged, and the views passing through no longer count as the old generation's external
// memory (which started a full GC every few seconds on the main thread).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SnapshotStore } from '../../http/snapshots.js';
import type { ViewMeta } from '../../core/view-meta.js';
import { packedBytes } from '../../core/owned-bytes.js';

const test = suite('snapshot release');

const meta = (version: number, moved = true): ViewMeta =>
  ({ version, updatedAtMs: version, cadenceMs: 1_000, moved });
const bytes = (text: string) => new TextEncoder().encode(text);

test('a replaced moved view is detached; the new one is served whole', () => {
  const store = new SnapshotStore({ releaseMoved: true });
  const first = bytes('{"v":1}');
  store.put('cvd/BTC', first, meta(1));
  assert.is(store.get('cvd/BTC')!.body.toString(), '{"v":1}');
  store.put('cvd/BTC', bytes('{"v":2}'), meta(2));
  assert.is(first.byteLength, 0, 'the old bytes are given back');
  assert.is(store.get('cvd/BTC')!.body.toString(), '{"v":2}');
  assert.is(store.get('cvd/BTC')!.version, 2);
  const second = store.get('cvd/BTC')!.body;
  store.delete('cvd/BTC');
  assert.is(second.byteLength, 0, 'a deleted view is released too');
  assert.is(store.get('cvd/BTC'), undefined);
});

test('bytes that are not moved, or share their buffer with a view still read, stay', () => {
  const store = new SnapshotStore({ releaseMoved: true });
  const own = bytes('{"own":1}');
  store.put('a', own, meta(1, false));
  store.put('a', bytes('{"own":2}'), meta(2, false));
  assert.is(own.byteLength, 9, 'not moved: another holder may still read it');
  // Two views on one buffer (a copied slice of a pool): releasing one would empty the other.
  const pool = bytes('{"x":1}{"y":1}');
  const x = pool.subarray(0, 7);
  const y = pool.subarray(7);
  store.put('x', x, meta(1));
  store.put('y', y, meta(1));
  store.put('x', bytes('{"x":2}'), meta(2));
  assert.is(y.byteLength, 7);
  assert.is(store.get('y')!.body.toString(), '{"y":1}');
  // The same bytes put again are the view itself, not a replaced one.
  const same = bytes('{"s":1}');
  store.put('s', same, meta(1));
  store.put('s', same, meta(2));
  assert.is(store.get('s')!.body.toString(), '{"s":1}');
});

/** Views moved in one message: their bytes packed in one buffer, as a shard sends them. */
function message(texts: readonly string[]): { parts: Uint8Array[]; buffer: ArrayBuffer } {
  return packedBytes(texts.map(bytes));
}

test('views moved in one message share a buffer: it goes when the last is replaced', () => {
  const store = new SnapshotStore({ releaseMoved: true });
  const first = message(['{"a":1}', '{"b":1}', '{"c":"half of it"}']);
  first.parts.forEach((part, i) => store.put('abc'[i]!, part, meta(1)));
  assert.is(store.movedBuffers, 1);
  const second = message(['{"a":2}', '{"b":2}']);
  second.parts.forEach((part, i) => store.put('ab'[i]!, part, meta(2)));
  assert.is(first.buffer.byteLength, 32, 'c still reads the first message');
  assert.is(store.get('c')!.body.toString(), '{"c":"half of it"}');
  assert.is(store.movedBuffers, 2);
  store.put('c', message(['{"c":2}']).parts[0]!, meta(2));
  assert.is(first.buffer.byteLength, 0, 'no view reads it any more: given back');
  assert.equal(['a', 'b', 'c'].map((name) => store.get(name)!.body.toString()),
    ['{"a":2}', '{"b":2}', '{"c":2}']);
  store.delete('a');
  assert.is(second.buffer.byteLength, 14, 'b still reads it');
  store.delete('b');
  assert.is(second.buffer.byteLength, 0);
  assert.is(store.movedBuffers, 1);
});

test('views left holding under half of their buffer get bytes of their own', () => {
  const store = new SnapshotStore({ releaseMoved: true });
  const first = message(['{"quiet":1}', '{"busy":1}', '{"busy":2}', '{"busy":3}']);
  const names = ['quiet', 'busy1', 'busy2', 'busy3'];
  first.parts.forEach((part, i) => store.put(names[i]!, part, { ...meta(1), etag: `"${i}"` }));
  const before = store.get('quiet')!;
  store.put('busy1', bytes('{"busy":4}'), meta(2));
  store.put('busy2', bytes('{"busy":5}'), meta(2));
  assert.is(first.buffer.byteLength, 41, 'two views still read half of it');
  store.put('busy3', bytes('{"busy":6}'), meta(2));
  assert.is(first.buffer.byteLength, 0, 'the quiet view alone no longer keeps it');
  const after = store.get('quiet')!;
  assert.is(after.body.toString(), '{"quiet":1}');
  assert.is(after.body.byteLength, after.body.buffer.byteLength, 'its own buffer');
  assert.equal([after.etag, after.version, after.lastModified, after.moved],
    [before.etag, before.version, before.lastModified, true]);
  assert.is(store.movedBuffers, 4);
  store.put('quiet', bytes('{"quiet":2}'), meta(2));
  assert.is(after.body.byteLength, 0, 'its own bytes are released in turn');
});

test('a store that is not the one holder never releases', () => {
  const store = new SnapshotStore();
  const first = bytes('{"v":1}');
  store.put('v', first, meta(1));
  store.put('v', bytes('{"v":2}'), meta(2));
  assert.is(first.byteLength, 7);
  // Moved bytes sharing their message's buffer are copied: a quiet view kept (here, or by a
  // scale-out publisher patching from it) does not keep the whole message alive.
  const packed = message(['{"a":1}', '{"b":1}']);
  store.put('a', packed.parts[0]!, meta(1));
  const a = store.get('a')!.body;
  assert.is(a.toString(), '{"a":1}');
  assert.is.not(a.buffer, packed.buffer);
  assert.is(a.byteLength, a.buffer.byteLength);
  assert.is(store.movedBuffers, 0);
});

test('replaced views that outlived a young collection do not pile up as external memory', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
  const store = new SnapshotStore({ releaseMoved: true });
  const views = 50;
  const viewBytes = 100_000;
  const publish = (version: number) => {
    for (let i = 0; i < views; i++) {
      store.put(`v${i}`, new Uint8Array(viewBytes).fill(version), meta(version));
    }
    // And views moved in one message, as a shard's publish brings them.
    const { parts } = packedBytes(Array.from({ length: views },
      () => new Uint8Array(viewBytes).fill(version)));
    parts.forEach((part, i) => store.put(`p${i}`, part, meta(version)));
    // Each view lives through a young collection, as a view served for a cadence does.
    gc({ type: 'minor' });
  };
  publish(1);
  gc({ type: 'minor' });
  const startBytes = process.memoryUsage().external;
  for (let version = 2; version <= 8; version++) publish(version);
  gc({ type: 'minor' });
  const grownBytes = process.memoryUsage().external - startBytes;
  // Released: a few bytes. Unreleased: at least one publish's 10 MB stays counted.
  assert.ok(grownBytes < (views * viewBytes) / 2,
    `external memory grew ${(grownBytes / 1e6).toFixed(1)} MB over 7 publishes`);
  assert.is(store.get('v0')!.body[0], 8);
  assert.is(store.get('p49')!.body[viewBytes - 1], 8);
});

test.run();
