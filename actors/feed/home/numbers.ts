// The venue sends prices and sizes as decimal strings; these read them strictly.

/** A finite number from a decimal string (or number); NaN for anything else. */
export function decimal(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.length === 0 || value.length > 40) return NaN;
  return Number(value);
}

/** A finite, strictly positive decimal, or NaN. */
export function positive(value: unknown): number {
  const x = decimal(value);
  return Number.isFinite(x) && x > 0 ? x : NaN;
}

/** A finite decimal, or null when the field is null or missing; NaN when present but bad. */
export function optionalDecimal(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const x = decimal(value);
  return Number.isFinite(x) ? x : NaN;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
