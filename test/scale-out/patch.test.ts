// Patches (scale-out/patch.ts): a view's new bytes as a patch of its keyframe make exactly
// the new bytes, are a small share of them for the changes a cadence brings (numbers, time
// stamps, an entry added to or dropped from a list), give up (null) on a view that changed
// throughout, and a damaged patch is refused rather than applied.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyPatch, diffBytes } from '../../scale-out/patch.js';
import { decodeFrame, encodeFrame, patchHeaderMarker } from '../../scale-out/frames.js';
import { seededRandom as random } from '../helpers/seeded-random.js';

/** A deep view's shape: scalars, a 5-minute CVD history (from its `first` bucket), whales
 *  newest first; `at` (s) is its time stamp. */
function deepView(at: number, cvd: number, history: number[], whales: string[], first = 0):
  Buffer {
  return Buffer.from(JSON.stringify({
    symbol: 'BTC', price: 117_600 + cvd % 7, cvd, obi: Math.sin(cvd),
    cvdHistory: history.map((v, i) => ({
      time: new Date(Date.UTC(2026, 10, 26) + (i + first) * 300_000).toISOString(), cvd: v,
      delta: i === 0 ? 0 : v - history[i - 1]!,
    })),
    whales: whales.map((address, i) => ({ address, side: i % 2 ? 'buy' : 'sell',
      notional: 250_000 + i * 1_013.25, time: new Date(Date.UTC(2026, 10, 26, i)).toISOString() })),
    asOf: new Date(Date.UTC(2026, 10, 26) + at * 1_000).toISOString(),
  }));
}

function roundTrip(base: Buffer, target: Buffer): Buffer {
  const patch = diffBytes(base, target, target.length / 4);
  assert.ok(patch !== null, 'a patch for a small change');
  assert.ok(applyPatch(base, patch, target.length).equals(target), 'the patch makes the target');
  return patch;
}

const history = Array.from({ length: 288 }, (_, i) => 671_719_170 + i * 1_234.5);
const whales = Array.from({ length: 40 },
  (_, i) => `0x${(i * 7_919).toString(16).padStart(40, '0')}`);

test('a cadence\'s changes (numbers, time stamps) patch in a few hundred bytes', () => {
  const base = deepView(0, 311_535_142.915, history, whales);
  const target = deepView(1, 311_540_001.5, history, whales);
  assert.ok(base.length > 20_000);
  const patch = roundTrip(base, target);
  assert.ok(patch.length < 400, `patch of ${patch.length} bytes`);
});

test('an entry added to a list, one dropped from another: still a small patch', () => {
  const base = deepView(0, 1, history, whales);
  const target = deepView(1, 2, [...history.slice(1), 671_999_999], ['0xnew', ...whales], 1);
  const patch = roundTrip(base, target);
  assert.ok(patch.length < target.length / 10, `patch of ${patch.length} bytes`);
});

test('the same bytes: one copy; a view changed throughout: no patch', () => {
  const base = deepView(0, 1, history, whales);
  assert.ok(roundTrip(base, Buffer.from(base)).length <= 12 + 4);
  const next = random(7);
  const noise = Buffer.from(Array.from({ length: base.length }, () => Math.floor(next() * 256)));
  assert.is(diffBytes(base, noise, noise.length / 4), null);
  assert.is(diffBytes(base, Buffer.alloc(0), 0)?.length, 0, 'an empty target: an empty patch');
  const anew = Buffer.from('x'.repeat(64));
  assert.ok(applyPatch(Buffer.alloc(0), diffBytes(Buffer.alloc(0), anew, 100)!, 64).equals(anew),
    'from nothing: the target as a literal');
  assert.is(diffBytes(Buffer.alloc(0), anew, 16), null, 'over its bytes: no patch');
});

test('a view changed in many places (a screener\'s prices) goes whole; unchanged, one copy', () => {
  const rows = (round: number) => Buffer.from(JSON.stringify(Array.from({ length: 170 },
    (_, i) => ({ symbol: `P${i}`, price: 100 + i + round * 0.37, volume24h: 1e8 + i * round,
      funding: 1e-5 * (i % 7), label: 'x'.repeat(200) }))));
  const [base, target] = [rows(1), rows(2)];
  assert.ok(target.length > 40_000);
  // Under the byte budget the patch would fit (a few bytes a row), but not in few enough ops.
  assert.is(diffBytes(base, target, target.length / 4), null);
  assert.ok(diffBytes(base, Buffer.from(base), 16)!.length <= 16, 'the same bytes: one op');
});

test('fuzz: random edits of JSON text make their target exactly, or no patch', () => {
  const next = random(22);
  let patched = 0;
  for (let round = 0; round < 400; round++) {
    const base = deepView(round, round * 17.5, history.slice(0, 20 + (round % 200)),
      whales.slice(0, round % 40));
    let target = Buffer.from(base);
    const edits = 1 + Math.floor(next() * 6);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(next() * target.length);
      const cut = Math.floor(next() * (next() < 0.9 ? 12 : 600));
      const insert = Buffer.from(Array.from({ length: Math.floor(next() * 40) },
        () => 32 + Math.floor(next() * 95)));
      target = Buffer.concat([target.subarray(0, at), insert, target.subarray(at + cut)]);
    }
    const patch = diffBytes(base, target, target.length / 4);
    if (patch === null) continue;
    patched++;
    assert.ok(applyPatch(base, patch, target.length).equals(target), `round ${round}`);
  }
  assert.ok(patched > 360, `${patched} of 400 small edits patched`);
});

test('a damaged patch is refused, not applied', () => {
  const base = deepView(0, 1, history, whales);
  const target = deepView(1, 2, history, whales);
  const patch = roundTrip(base, target);
  assert.throws(() => applyPatch(base, patch.subarray(0, patch.length - 3), target.length),
    /patch/);
  assert.throws(() => applyPatch(base, patch, target.length + 1), /not/);
  assert.throws(() => applyPatch(base.subarray(0, 100), patch, target.length), /out of bounds/);
  const huge = Buffer.from(patch);
  huge.writeUInt32BE(0xffffff, 0);
  assert.throws(() => applyPatch(base, huge, target.length), /out of bounds/);
});

test('a patch frame: its base and target length read back; cut short, refused', () => {
  const patch = { kind: 'put', name: 'deep-view/BTC', stamp: { epochMs: 1_764_000_000_000, seq: 9 },
    sentAtMs: 1_764_000_000_123.5, updatedAtMs: 1_764_000_000_000, cadenceMs: 1000,
    etag: '"e1"', patch: { baseSeq: 4, targetBytes: 20_834 }, body: Buffer.from('ops') } as const;
  const bytes = encodeFrame(patch);
  assert.is(bytes[4], patchHeaderMarker);
  assert.equal(decodeFrame(bytes), patch);
  const cut = Buffer.from(bytes);
  cut.writeUInt32BE(bytes.readUInt32BE(0) - 12, 0); // the header without its patch tail
  assert.throws(() => decodeFrame(cut), /length|name|short/);
});

test.run();
