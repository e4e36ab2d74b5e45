// The ring sigma (kernels/ring-sigma.ts): the same double as the plain two-pass sum in index
// order, while the ring fills, after it wraps, and when it is reset or rewritten unseen.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ringSigma, writeRing } from '../../kernels/ring-sigma.js';

/** The two-pass sigma over ring[0 .. n) as vpin.ts computed it before. */
function plainSigma(ring: Float64Array, n: number): number {
  let sum = 0;
  for (let k = 0; k < n; k++) sum += ring[k];
  const mean = sum / n;
  let squares = 0;
  for (let k = 0; k < n; k++) {
    const d = ring[k] - mean;
    squares += d * d;
  }
  return Math.sqrt(squares / (n - 1));
}

function values(seed: number, count: number): number[] {
  let s = seed;
  // Price changes of mixed scales: sums that round differently in another order.
  return Array.from({ length: count }, (_, i) =>
    ((s = (s * 16807) % 2147483647) / 2147483647 - 0.5) * 10 ** ((i % 7) - 3));
}

test('bit for bit the plain two-pass sigma, filling and wrapping', () => {
  for (const cap of [2, 5, 64]) {
    const ring = new Float64Array(cap);
    let head = 0;
    let count = 0;
    for (const v of values(cap, 5 * cap + 3)) {
      writeRing(ring, head, count, v);
      head = (head + 1) % cap;
      if (count < cap) count++;
      if (count >= 2) assert.ok(Object.is(ringSigma(ring, count), plainSigma(ring, count)));
    }
  }
});

test('a reset or a write behind its back starts the sums over', () => {
  const ring = new Float64Array(8);
  let head = 0;
  let count = 0;
  const write = (v: number) => {
    writeRing(ring, head, count, v);
    head = (head + 1) % ring.length;
    if (count < ring.length) count++;
  };
  for (const v of values(3, 6)) write(v);
  ringSigma(ring, count);
  // Reset as resetVpin does: zeros, head and count 0.
  ring.fill(0);
  head = 0;
  count = 0;
  for (const v of values(4, 3)) write(v);
  assert.ok(Object.is(ringSigma(ring, count), plainSigma(ring, count)));
  // Restored in place (another head and count): the kept sums are not trusted.
  ring.set(values(5, 8));
  head = 5;
  count = 8;
  write(0.25);
  assert.ok(Object.is(ringSigma(ring, count), plainSigma(ring, count)));
});

test.run();
