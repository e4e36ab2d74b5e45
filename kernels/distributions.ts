// Cumulative distribution functions for bulk volume classification: standard normal and
// Student-t (fractional degrees of freedom allowed), accurate to about 1e-12 relative.

const SQRT_PI = Math.sqrt(Math.PI);
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** erfc for z >= 0: a positive-term series below 3, a continued fraction above. */
function erfcNonNegative(z: number): number {
  if (z < 3) {
    // erf(z) = 2/sqrt(pi) e^{-z^2} sum (2z^2)^n z / (1*3*..*(2n+1)): no cancellation.
    const z2 = 2 * z * z;
    let term = z;
    let sum = z;
    for (let n = 1; n < 200 && term > sum * 1e-17; n++) {
      term *= z2 / (2 * n + 1);
      sum += term;
    }
    return 1 - (2 / SQRT_PI) * Math.exp(-z * z) * sum;
  }
  // erfc(z) = e^{-z^2}/sqrt(pi) / (z + (1/2)/(z + 1/(z + (3/2)/(z + ...)))), evaluated backwards.
  let f = z;
  for (let k = 120; k >= 1; k--) f = z + k / 2 / f;
  return Math.exp(-z * z) / (SQRT_PI * f);
}

/** Standard normal CDF. */
export function normalCdf(x: number): number {
  const z = -x / Math.SQRT2;
  return z >= 0 ? 0.5 * erfcNonNegative(z) : 1 - 0.5 * erfcNonNegative(-z);
}

/** log Gamma(x) for x > 0 (Lanczos, g = 7). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const y = x - 1;
  let a = LANCZOS[0];
  const t = y + LANCZOS_G + 0.5;
  for (let i = 1; i < LANCZOS.length; i++) a += LANCZOS[i] / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz, bounded iterations). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d; if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c; if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d; if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c; if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b), x in [0, 1]. */
export function incompleteBeta(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) +
    a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(a, b, x)) / a
    : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** Student-t CDF with `nu` > 0 degrees of freedom (fractional allowed). */
export function studentTCdf(x: number, nu: number): number {
  if (x === 0) return 0.5;
  const tail = 0.5 * incompleteBeta(nu / 2, 0.5, nu / (nu + x * x));
  return x > 0 ? 1 - tail : tail;
}
