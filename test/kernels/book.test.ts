// OBI and OFI: hand-computed books, random books against the plain case-table OFI, and the
// real Hyperliquid l2Book frames.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createObiState, snapshotObi, updateObi, type ObiSnapshot } from '../../kernels/obi.js';
import {
  createOfiSnapshot, createOfiState, readOfiHistory, snapshotOfi, updateOfi, type OfiState,
} from '../../kernels/ofi.js';
import { plainObi, plainOfi } from './helpers/plain.js';
import { close, randomBooks, realL2Books, type Book } from './helpers/streams.js';

const f = (...x: number[]) => Float64Array.from(x);
const obiSnap = (): ObiSnapshot => ({ obi: null, obiTopK: null, mid: null, books: 0 });

test('OBI hand case: top-k and band around mid; empty sides give null', () => {
  const s = createObiState({ levels: 2, bandPct: 1 });
  // mid 100; band [99, 101]: bids 99.5 (3) and 99 (1) in, 90 out; asks 100.5 (1) in, 102 out.
  updateObi(s, 1, f(99.5, 99, 90), f(3, 1, 10), 3, f(100.5, 102), f(1, 4), 2);
  const out = snapshotObi(s, obiSnap());
  assert.is(out.obiTopK, (4 - 5) / 9);
  assert.is(out.obi, (4 - 1) / 5);
  assert.is(out.mid, 100);
  updateObi(s, 2, f(), f(), 0, f(), f(), 0);
  assert.equal(snapshotObi(s, obiSnap()).obi, null);
  assert.equal(snapshotObi(s, obiSnap()).obiTopK, null);
  updateObi(s, 3, f(99), f(0), 1, f(101), f(0), 1);
  assert.equal(snapshotObi(s, obiSnap()).obi, null, 'zero depth on both sides is undefined');
});

test('OFI hand case: the CKS table at the best level, summed per interval', () => {
  const s = createOfiState({ levels: 1, intervalMs: 10, historyIntervals: 4 });
  updateOfi(s, 0, f(100), f(5), 1, f(101), f(5), 1);
  updateOfi(s, 1, f(100), f(7), 1, f(101), f(5), 1); // bid same price, +2
  updateOfi(s, 2, f(100.5), f(1), 1, f(101), f(4), 1); // bid up: +1; ask same: -(4-5) = +1
  updateOfi(s, 3, f(100.5), f(1), 1, f(100.8), f(3), 1); // ask down: -3
  updateOfi(s, 4, f(100), f(9), 1, f(101), f(2), 1); // bid down: -1; ask up: +3
  updateOfi(s, 12, f(100), f(9), 1, f(101), f(2), 1); // next interval, nothing changed
  const out = snapshotOfi(s, createOfiSnapshot(1));
  assert.is(out.ofi, 2 + 2 - 3 + 2);
  assert.is(out.ofiOpen, 0);
  updateOfi(s, 13, f(101.5), f(1), 1, f(101), f(1), 1); // crossed: skipped
  updateOfi(s, 14, f(100), f(1), 1, f(101), f(1), 1); // starts afresh: no contribution
  updateOfi(s, 35, f(100), f(1), 1, f(101), f(1), 1);
  const ts = new Float64Array(4); const v = new Float64Array(4);
  assert.is(readOfiHistory(s, 4, ts, v), 3);
  assert.equal(Array.from(ts.subarray(0, 3)), [0, 10, 20]);
  assert.equal(Array.from(v.subarray(0, 3)), [3, 0, 0], 'empty interval is 0');
});

function runOfi(books: Book[], levels: number, ms: number): OfiState {
  const s = createOfiState({ levels, intervalMs: ms, historyIntervals: 100_000 });
  for (const b of books) {
    updateOfi(s, b.tsMs, b.bidPx, b.bidSz, b.bidLevels, b.askPx, b.askSz, b.askLevels);
  }
  return s;
}

function assertOfiMatches(books: Book[], levels: number, ms: number): void {
  const s = runOfi(books, levels, ms);
  const expected = plainOfi(books, levels, ms);
  assert.is(s.count, expected.length);
  for (let h = 0; h < s.count; h++) {
    assert.is(s.historyTsMs[h], expected[h].tsMs);
    for (let k = 0; k < levels; k++) {
      assert.ok(close(s.historyOfi[h * levels + k], expected[h].ofi[k]),
        `interval ${h} level ${k}`);
    }
  }
}

test('random books: OBI and multi-level OFI match the plain versions', () => {
  const books = randomBooks(3, 5000, 8);
  const s = createObiState({ levels: 3, bandPct: 0.4 });
  for (const b of books) {
    updateObi(s, b.tsMs, b.bidPx, b.bidSz, b.bidLevels, b.askPx, b.askSz, b.askLevels);
    const out = snapshotObi(s, obiSnap());
    const p = plainObi(b, 3, 0.4);
    assert.ok(close(out.obiTopK ?? NaN, p.topK) && close(out.obi ?? NaN, p.band));
  }
  assertOfiMatches(books, 8, 10_000);
});

test('the real l2Book frames: OBI and OFI (10 levels, 1 s and 10 s) match', () => {
  const books = realL2Books();
  assert.is(books.length, 46);
  const s = createObiState({ levels: 10, bandPct: 0.5 });
  for (const b of books) {
    updateObi(s, b.tsMs, b.bidPx, b.bidSz, b.bidLevels, b.askPx, b.askSz, b.askLevels);
    const p = plainObi(b, 10, 0.5);
    const out = snapshotObi(s, obiSnap());
    assert.ok(close(out.obiTopK!, p.topK) && close(out.obi!, p.band));
    assert.ok(out.obi! >= -1 && out.obi! <= 1);
  }
  assertOfiMatches(books, 10, 1000);
  assertOfiMatches(books, 10, 10_000);
});

test('bad books are rejected', () => {
  const s = createObiState();
  assert.throws(() => updateObi(s, 1, f(NaN), f(1), 1, f(2), f(1), 1), /book bid price \[0\]/);
  assert.throws(() => updateOfi(createOfiState(), 1, f(1), f(-1), 1, f(2), f(1), 1),
    /book bid size \[0\] must be a finite number >= 0 \(was -1\)/);
});

test.run();
