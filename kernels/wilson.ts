// Wilson score interval for a proportion (Wilson 1927): unlike the normal approximation it stays
// inside [0, 1] and is honest with few trials or a rate near 0 or 1.

/** z of a two-sided 95 % interval. */
export const Z_95 = 1.959963984540054;

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** The 95 % Wilson interval of `successes` out of `trials`; null with no trial. */
export function wilsonInterval(successes: number, trials: number, z = Z_95): Interval | null {
  if (!(trials > 0)) return null;
  if (!(successes >= 0 && successes <= trials)) {
    throw new RangeError(`successes must be in 0..${trials} (was ${successes})`);
  }
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
