// Serializing a view once per change: JSON bytes with the freshness fields every feed carries.

const encoder = new TextEncoder();

/** ISO 8601 UTC with milliseconds, the time format of every feed body. */
export function isoMs(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** Adds `updatedAt` and `cadenceMs` (DECISIONS.md "Feeds and freshness") and encodes. */
export function encodeFeedView(body: Record<string, unknown>, updatedAtMs: number,
  cadenceMs: number): Uint8Array {
  return encoder.encode(JSON.stringify({ ...body, updatedAt: isoMs(updatedAtMs), cadenceMs }));
}

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** Annualized funding in percent on the venue's real settlement interval (DECISIONS.md). */
export function fundingAnnualizedPct(rate: number, intervalHours: number): number {
  return rate * (24 / intervalHours) * 365 * 100;
}

/** Rounds to `digits` significant decimals without turning integers into floats. */
export function roundTo(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
