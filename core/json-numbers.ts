// Numbers in JSON answers: figures made by arithmetic are written with at most 10 significant
// digits (`41.99544`, not `41.995439999999995`). A venue's prices and sizes have fewer, so
// rounding leaves them as they came; integers (times in ms, counts) are never touched.

/** Significant digits a derived figure keeps in an answer. */
export const ANSWER_SIGNIFICANT_DIGITS = 10;

/** Powers of ten exact as doubles: 10^0 .. 10^22. */
const EXACT_POWER_MAX = 22;

/**
 * `x` to `digits` significant digits, as the double nearest that decimal (so JSON writes at
 * most `digits` of them). Integers, NaN and the infinities are returned as they are.
 */
export function roundSignificant(x: number, digits: number = ANSWER_SIGNIFICANT_DIGITS): number {
  if (Number.isInteger(x) || !Number.isFinite(x)) return x;
  const abs = Math.abs(x);
  // log10 can be one off next to a power of ten: corrected against the power itself.
  let exponent = Math.floor(Math.log10(abs));
  const power = 10 ** exponent;
  if (power > abs) exponent -= 1;
  else if (power * 10 <= abs) exponent += 1;
  const shift = digits - 1 - exponent;
  if (shift > EXACT_POWER_MAX || -shift > EXACT_POWER_MAX) return Number(x.toPrecision(digits));
  // Dividing by an exact power of ten gives the double nearest the rounded decimal.
  if (shift >= 0) return Math.round(x * 10 ** shift) / 10 ** shift;
  return Math.round(x / 10 ** -shift) * 10 ** -shift;
}

const rounded = (_key: string, value: unknown): unknown =>
  typeof value === 'number' ? roundSignificant(value) : value;

/** JSON.stringify with every non-integer number to 10 significant digits. */
export function stringifyRounded(value: unknown): string {
  return JSON.stringify(value, rounded);
}

/** One number as JSON writes it, rounded the same way: null for NaN and the infinities. */
export function jsonNumberRounded(x: number): string {
  return Number.isFinite(x) ? String(roundSignificant(x)) : 'null';
}
