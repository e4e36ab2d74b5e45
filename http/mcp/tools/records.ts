// Reading the served views, which reach the MCP tools as untyped JSON: checked, never trusted.

export type Row = Readonly<Record<string, unknown>>;

export function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A view that is not the object its REST endpoint returns is a bug in the data provider. */
export function asRow(value: unknown, what: string): Row {
  if (!isRow(value)) throw new Error(`${what} must be a JSON object (was ${typeOf(value)})`);
  return value;
}

/** The array of objects under `field`, e.g. screener `pairs`. */
export function rowsAt(view: Row, field: string, what: string): Row[] {
  const list = view[field];
  if (!Array.isArray(list)) {
    throw new Error(`${what}.${field} must be an array (was ${typeOf(list)})`);
  }
  return list.filter(isRow);
}

export function numberAt(row: Row, field: string): number | null {
  const value = row[field];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function stringAt(row: Row, field: string): string | null {
  const value = row[field];
  return typeof value === 'string' ? value : null;
}

/** Freshness fields a view carries at top level (docs/decisions.md), copied onto a tool answer. */
export function freshness(view: Row): Row {
  const out: Record<string, unknown> = {};
  for (const field of ['updatedAt', 'cadenceMs', 'stale', 'asOf']) {
    if (view[field] !== undefined) out[field] = view[field];
  }
  return out;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
