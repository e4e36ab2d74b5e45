// Trailing distribution of non-negative values on log-spaced bins, kept in time slots that
// expire whole: a bounded, allocation-free quantile for the whale and absorption thresholds.
//
//   counts: [slot 0: bin 0 .. bin B-1][slot 1: ...] ... [slot S-1]   (ring over time slots)
//   totals: [bin 0 .. bin B-1]  = sum of counts over the live slots
//   bin 0 holds values below 2^minExponent (zeros included), the last bin values >= the top
//   edge 2^(minExponent + octaves). In between, each octave [2^e, 2^(e+1)) is cut into k equal
//   sub-bins (k a power of two), so a value's bin is read straight off its IEEE-754 bits: the
//   exponent and the top log2(k) mantissa bits. No log and no search on the push path (a
//   binary search over the edges costs more: its branches are unpredictable).
import { checkOption, reject } from './check.js';

export interface RollingHistogram {
  readonly slotMs: number;
  readonly slots: number;
  /** Lowest edge: 2^minExponent. */
  readonly minValue: number;
  readonly binCount: number;
  /** Bits of the high word of a double to drop so that exponent and sub-bin remain. */
  readonly shift: number;
  /** (high word >>> shift) of minValue: the bin index of minValue is 1. */
  readonly base: number;
  readonly counts: Int32Array;
  readonly totals: Float64Array;
  /** Lower edge of each bin (edges[0] = 0). */
  readonly edges: Float64Array;
  /** Values in the live slots. */
  count: number;
  /** Absolute index (floor(tsMs / slotMs)) of the newest slot, or -Infinity before any value. */
  slotIndex: number;
  /** End of the newest slot, and its offset into counts. */
  slotEndMs: number;
  slotBase: number;
}

/** Scratch to read a double's bits (big-endian view: the high word is at offset 0). */
const bits = new DataView(new ArrayBuffer(8));

/**
 * Bins of k = binsPerOctave (a power of two) per octave, from 2^minExponent over `octaves`
 * octaves: a bin is at most 1/k wide relative to its lower edge (12.5 % for k = 8).
 */
export function createRollingHistogram(
  slotMs: number, slots: number, minExponent: number, octaves: number, binsPerOctave: number,
): RollingHistogram {
  checkOption('slotMs', slotMs, 1, 1e12, true);
  checkOption('slots', slots, 1, 10_000, true);
  checkOption('minExponent', minExponent, -1000, 1000, true);
  checkOption('octaves', octaves, 1, 1023 - minExponent, true);
  checkOption('binsPerOctave', binsPerOctave, 1, 1 << 16, true);
  const subBits = Math.log2(binsPerOctave);
  if (!Number.isInteger(subBits)) reject('option binsPerOctave', 'a power of two', binsPerOctave);
  const binCount = octaves * binsPerOctave + 2;
  const minValue = Math.pow(2, minExponent);
  const edges = new Float64Array(binCount);
  for (let b = 1; b < binCount; b++) {
    const octave = Math.floor((b - 1) / binsPerOctave);
    edges[b] = minValue * Math.pow(2, octave) * (1 + ((b - 1) % binsPerOctave) / binsPerOctave);
  }
  bits.setFloat64(0, minValue);
  const shift = 20 - subBits;
  return {
    slotMs, slots, minValue, binCount, shift, base: bits.getUint32(0) >>> shift,
    counts: new Int32Array(slots * binCount),
    totals: new Float64Array(binCount),
    edges,
    count: 0,
    slotIndex: -Infinity,
    slotEndMs: -Infinity,
    slotBase: 0,
  };
}

/** Ring position of an absolute slot index (non-negative even for times before 1970). */
function ringSlot(h: RollingHistogram, slot: number): number {
  return ((slot % h.slots) + h.slots) % h.slots;
}

export function resetRollingHistogram(h: RollingHistogram): void {
  h.counts.fill(0);
  h.totals.fill(0);
  h.count = 0;
  h.slotIndex = -Infinity;
  h.slotEndMs = -Infinity;
  h.slotBase = 0;
}

/** Moves the newest slot to the one holding `tsMs`, expiring the slots that fell out. */
export function advanceRollingHistogram(h: RollingHistogram, tsMs: number): void {
  if (tsMs < h.slotEndMs) return;
  const slot = Math.floor(tsMs / h.slotMs);
  if (slot <= h.slotIndex) return;
  const steps = h.slotIndex === -Infinity ? h.slots : Math.min(slot - h.slotIndex, h.slots);
  for (let k = 1; k <= steps; k++) {
    const base = ringSlot(h, slot - steps + k) * h.binCount;
    for (let b = 0; b < h.binCount; b++) {
      const c = h.counts[base + b];
      if (c !== 0) {
        h.totals[b] -= c;
        h.count -= c;
        h.counts[base + b] = 0;
      }
    }
  }
  h.slotIndex = slot;
  h.slotEndMs = (slot + 1) * h.slotMs;
  h.slotBase = ringSlot(h, slot) * h.binCount;
}

/** The bin of a value: 0 below minValue, else exponent and top mantissa bits, capped. */
function binOf(h: RollingHistogram, value: number): number {
  if (!(value >= h.minValue)) return 0;
  bits.setFloat64(0, value);
  const bin = (bits.getUint32(0) >>> h.shift) - h.base + 1;
  return bin < h.binCount ? bin : h.binCount - 1;
}

/** Adds one value at time `tsMs` (not before the newest slot). */
export function pushRollingHistogram(h: RollingHistogram, tsMs: number, value: number): void {
  if (tsMs >= h.slotEndMs) advanceRollingHistogram(h, tsMs);
  const bin = binOf(h, value);
  h.counts[h.slotBase + bin] += 1;
  h.totals[bin] += 1;
  h.count += 1;
}

/**
 * The q-quantile (0 < q < 1) of the live values, interpolated geometrically inside its bin
 * (relative error at most one bin width); NaN when empty.
 */
export function quantileRollingHistogram(h: RollingHistogram, q: number): number {
  if (h.count === 0) return NaN;
  const exceed = (1 - q) * h.count;
  let above = 0;
  for (let b = h.binCount - 1; b >= 0; b--) {
    const inBin = h.totals[b];
    if (inBin > 0 && above + inBin >= exceed) {
      if (b === 0) return 0;
      const lower = h.edges[b];
      if (b === h.binCount - 1) return lower;
      const upper = h.edges[b + 1];
      return upper * Math.pow(lower / upper, (exceed - above) / inBin);
    }
    above += inBin;
  }
  return 0;
}
