// The sample standard deviation (ddof 1) of a ring of values, two-pass, in index order, with
// the first pass's sums kept between calls. BVC's sigma is taken over up to 1,440 price changes
// at every closed bar; the sum of the values in index order is the same double whether it is
// added up again or continued from the sums of the slots that did not change, so only the
// slots from the one written on are added again (the ring filling: one slot). The second pass
// (squares around the new mean) is taken in full, as before: its result is unchanged.
//
//   ring:  [ x0 ][ x1 ] ... [ x(n-1) ]            sums[k] = ((x0 + x1) + ...) + xk
//   sums:  [ s0 ][ s1 ] ... [ s(n-1) ]            valid for k < validCount

/** The kept sums of one ring, and the ring's head and count they were taken at. */
interface RingSums {
  readonly sums: Float64Array;
  validCount: number;
  head: number;
  count: number;
}

// Keyed by the ring: its sums are derived data, not state (images and saved states do not hold
// them). A ring reset, restored or written behind writeRing's back shows by its head or count
// (a restore goes into a freshly created state, which has no sums yet).
const ringSums = new WeakMap<Float64Array, RingSums>();

function sumsOf(ring: Float64Array): RingSums {
  let kept = ringSums.get(ring);
  if (kept === undefined) {
    kept = { sums: new Float64Array(ring.length), validCount: 0, head: -1, count: -1 };
    ringSums.set(ring, kept);
  }
  return kept;
}

/**
 * Writes `value` at `head` of a ring holding `count` values (head and count before the
 * write); call it for every write that ringSigma's later calls should see.
 */
export function writeRing(ring: Float64Array, head: number, count: number, value: number): void {
  const kept = sumsOf(ring);
  if (kept.head !== head || kept.count !== count) kept.validCount = 0;
  ring[head] = value;
  if (head < kept.validCount) kept.validCount = head;
  const cap = ring.length;
  kept.head = (head + 1) % cap;
  kept.count = count < cap ? count + 1 : count;
}

/** Sample standard deviation of ring[0 .. n), n >= 2, written through writeRing. */
export function ringSigma(ring: Float64Array, n: number): number {
  const kept = sumsOf(ring);
  const sums = kept.sums;
  let k = Math.min(kept.validCount, n);
  let sum = k === 0 ? 0 : sums[k - 1];
  for (; k < n; k++) sums[k] = sum += ring[k];
  kept.validCount = n;
  const mean = sum / n;
  let squares = 0;
  for (let j = 0; j < n; j++) {
    const d = ring[j] - mean;
    squares += d * d;
  }
  return Math.sqrt(squares / (n - 1));
}
