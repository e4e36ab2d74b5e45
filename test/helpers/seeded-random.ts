// A seeded random generator for tests whose cases must be the same on every run.
import { createSeededRng } from '../../kernels/seeded-rng.js';

/** A small seeded generator (mulberry32) so a failing run can be replayed with its seed. */
export const seededRandom = (seed: number): (() => number) => createSeededRng(seed);
