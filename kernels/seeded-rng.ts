// A seeded uniform generator for resampling (mulberry32) and a string hash (FNV-1a) to seed it
// from a label, so a statistic recomputed from the same outcomes gives the same interval.
// The simulator has its own copy in actors/feed/sim: kernels may not import actors.

/** FNV-1a over a string, 32-bit unsigned. */
export function seedOf(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: returns uniform draws in [0, 1), the same sequence for the same seed. */
export function createSeededRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
