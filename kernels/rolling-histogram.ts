// Trailing distribution of non-negative values on log-spaced bins, kept in time slots that
// expire whole: a bounded, allocation-free quantile for the whale and absorption thresholds.
//
//   counts: [slot 0: bin 0 .. bin B-1][slot 1: ...] ... [slot S-1]   (ring over time slots)
//   totals: [bin 0 .. bin B-1]  = sum of counts over the live slots
//   bin 0 holds values below minValue (zeros included), the last bin values >= the top edge.
import { checkOption } from './check.js';

export interface RollingHistogram {
  readonly slotMs: number;
  readonly slots: number;
  readonly binsPerDecade: number;
  readonly minValue: number;
  readonly binCount: number;
  readonly counts: Int32Array;
  readonly totals: Float64Array;
  /** Lower edge of each bin (edges[0] = 0), then +Infinity up to a power-of-two length. */
  readonly edges: Float64Array;
  /** Values in the live slots. */
  count: number;
  /** Absolute index (floor(tsMs / slotMs)) of the newest slot, or -Infinity before any value. */
  slotIndex: number;
  /** End of the newest slot, and its offset into counts. */
  slotEndMs: number;
  slotBase: number;
}

export function createRollingHistogram(
  slotMs: number, slots: number, minValue: number, decades: number, binsPerDecade: number,
): RollingHistogram {
  checkOption('slotMs', slotMs, 1, 1e12, true);
  checkOption('slots', slots, 1, 10_000, true);
  checkOption('minValue', minValue, 1e-12, 1e12);
  checkOption('decades', decades, 1, 30, true);
  checkOption('binsPerDecade', binsPerDecade, 1, 1000, true);
  const binCount = decades * binsPerDecade + 2;
  let padded = 1;
  while (padded < binCount + 1) padded *= 2;
  const edges = new Float64Array(padded).fill(Infinity);
  edges[0] = 0;
  for (let b = 1; b < binCount; b++) edges[b] = binLowerEdge(minValue, binsPerDecade, b);
  return {
    slotMs, slots, binsPerDecade, minValue, binCount,
    counts: new Int32Array(slots * binCount),
    totals: new Float64Array(binCount),
    edges,
    count: 0,
    slotIndex: -Infinity,
    slotEndMs: -Infinity,
    slotBase: 0,
  };
}

function binLowerEdge(minValue: number, binsPerDecade: number, bin: number): number {
  return minValue * Math.pow(10, (bin - 1) / binsPerDecade);
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

/** Adds one value at time `tsMs` (not before the newest slot). */
export function pushRollingHistogram(h: RollingHistogram, tsMs: number, value: number): void {
  if (tsMs >= h.slotEndMs) advanceRollingHistogram(h, tsMs);
  // The last bin whose lower edge is <= value: a branch-free binary search over the edges,
  // padded with +Infinity to a power of two.
  const edges = h.edges;
  let bin = 0;
  for (let step = edges.length >> 1; step > 0; step >>= 1) {
    bin = edges[bin + step] <= value ? bin + step : bin;
  }
  h.counts[h.slotBase + bin] += 1;
  h.totals[bin] += 1;
  h.count += 1;
}

/**
 * The q-quantile (0 < q < 1) of the live values, interpolated geometrically inside its bin
 * (relative error at most one bin width, 10^(1/binsPerDecade)); NaN when empty.
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
