// Quantiles of Student's t: at the 95 % bounds with many degrees of freedom, the Cornish-Fisher
// expansion around the normal quantile (Abramowitz and Stegun 26.7.5; its error falls as
// 1/df^5), as each new outcome changes df; else bisection on the CDF.
import { studentTCdf } from './distributions.js';

/** From here on the expansion is within 1e-7 at the 0.975 quantile. */
const EXPANSION_DF_MIN = 30;

/** z of the two-sided 95 % quantiles, the only ones the track record asks for. */
const Z_975 = 1.959963984540054;

/** The p-quantile (0 < p < 1) of Student's t with `df` > 0 degrees of freedom. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) throw new RangeError(`bad t quantile (p ${p}, df ${df})`);
  // The expansion needs the normal quantile: exact here for the 95 % bounds only.
  if (df < EXPANSION_DF_MIN || (p !== 0.975 && p !== 0.025)) {
    return studentTQuantileByBisection(p, df);
  }
  const z = p === 0.975 ? Z_975 : -Z_975;
  const z2 = z * z;
  const g1 = (z2 + 1) * z / 4;
  const g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  const g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  const g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92_160;
  return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4;
}

function studentTQuantileByBisection(p: number, df: number): number {
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
