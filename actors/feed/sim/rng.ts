// Seeded randomness for the simulator: a small fast PRNG and stateless hashes, so every thread
// that simulates the same seed and symbol draws the same numbers.

/** FNV-1a over a string, 32-bit unsigned. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mixes integers into one well-spread 32-bit value (murmur3 finalizer per input). */
export function hashInts(a: number, b: number, c = 0, d = 0): number {
  // Unrolled: an array of the inputs per call was most of a warm-up's price path before the
  // optimizer had the function (the price path hashes 14 times per price).
  return mix(mix(mix((a ^ 0x9e3779b9) >>> 0, b), c), d) >>> 0;
}

function mix(h: number, v: number): number {
  h = Math.imul(h ^ (v | 0), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A uniform draw in [0, 1) from integer coordinates: stateless, same on every thread. */
export function hashUnit(a: number, b: number, c = 0, d = 0): number {
  return hashInts(a, b, c, d) / 4294967296;
}

/** mulberry32: a 32-bit state PRNG, good enough for simulation and very cheap. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Exponential with the given rate (events per unit). */
  exponential(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }
  /** Standard normal (Box-Muller, one value per call). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** 40 lower-case hex characters after 0x: an address. */
  address(): string {
    let out = '0x';
    for (let i = 0; i < 5; i++) out += (this.int(0x100000000) >>> 0).toString(16).padStart(8, '0');
    return out;
  }
}

/**
 * Smooth value noise in [-1, 1] at time t for a stream id: random values on a grid of
 * `periodMs`, eased between grid points. Stateless, so any thread can evaluate any instant.
 */
export function valueNoise(seed: number, stream: number, tMs: number, periodMs: number): number {
  const x = tMs / periodMs;
  const k = Math.floor(x);
  const f = x - k;
  const ease = f * f * (3 - 2 * f);
  const a = hashUnit(seed, stream, k, periodMs) * 2 - 1;
  const b = hashUnit(seed, stream, k + 1, periodMs) * 2 - 1;
  return a + (b - a) * ease;
}
