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
import { keptMessages } from '../../http/moved-buffers.js';

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

test('views left reading under half of an old buffer move to one of their own', () => {
  const store = new SnapshotStore({ releaseMoved: true });
  const first = message(['{"quiet":1}', '{"quiet":2}', '{"busy":1}', '{"busy":2}',
    '{"busy":3}', '{"busy":4}']);
  const names = ['quiet1', 'quiet2', 'busy1', 'busy2', 'busy3', 'busy4'];
  first.parts.forEach((part, i) => store.put(names[i]!, part, { ...meta(1), etag: `"${i}"` }));
  const before = store.get('quiet1')!;
  // Later messages: the busy views each cadence, and another view that comes and goes.
  const cadence = (n: number) => {
    const next = message(['{"busy":5}', '{"busy":6}', '{"busy":7}', '{"busy":8}']);
    next.parts.forEach((part, i) => store.put(names[i + 2]!, part, meta(n)));
  };
  cadence(2);
  assert.is(first.buffer.byteLength, 62, 'the quiet views keep it: it is young');
  for (let n = 3; n < keptMessages; n++) cadence(n);
  assert.is(first.buffer.byteLength, 62, 'still');
  cadence(keptMessages);
  assert.is(first.buffer.byteLength, 0, 'old and read under half: its views moved out');
  const [quiet1, quiet2] = [store.get('quiet1')!, store.get('quiet2')!];
  assert.equal([quiet1.body.toString(), quiet2.body.toString()], ['{"quiet":1}', '{"quiet":2}']);
  assert.is(quiet1.body.buffer, quiet2.body.buffer, 'one buffer for both');
  assert.is(quiet1.body.buffer.byteLength, 22, 'of exactly their bytes');
  assert.equal([quiet1.etag, quiet1.version, quiet1.lastModified, quiet1.moved],
    [before.etag, before.version, before.lastModified, true]);
  assert.is(store.movedBuffers, 2, 'the quiet views\' and the last cadence\'s');
  store.put('quiet1', bytes('{"quiet":3}'), meta(2));
  assert.is(quiet2.body.byteLength, 11, 'half of it is still read');
  store.put('quiet2', bytes('{"quiet":4}'), meta(2));
  assert.is(quiet2.body.byteLength, 0, 'and released in turn');
});

test('an old buffer still read over half stays, and is looked at again later', () => {
  const store = new SnapshotStore({ releaseMoved: true });
  const first = message(['{"kept":"most of it"}', '{"b":1}']);
  store.put('kept', first.parts[0]!, meta(1));
  store.put('b', first.parts[1]!, meta(1));
  for (let n = 2; n <= keptMessages * 3; n++) {
    store.put('b', message(['{"b":2}']).parts[0]!, meta(n));
  }
  assert.is(store.get('kept')!.body.buffer, first.buffer, 'read over half: not copied');
  assert.is(store.movedBuffers, 2);
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
