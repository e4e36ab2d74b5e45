// Quantiles of Student's t by bisection on its CDF: needed once per interval, so exactness
// matters more than speed.
import { studentTCdf } from './distributions.js';

/** The p-quantile (0 < p < 1) of Student's t with `df` > 0 degrees of freedom. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) throw new RangeError(`bad t quantile (p ${p}, df ${df})`);
  let low = -1e3;
  let high = 1e3;
  // 80 halvings of 2,000 leave less than 1e-20: far below double precision at the answer.
  for (let i = 0; i < 80; i++) {
    const mid = (low + high) / 2;
    if (studentTCdf(mid, df) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}
