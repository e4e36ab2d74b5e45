// History pages as JSON, CSV or an Apache Arrow IPC stream: one column per field, time first
// (ISO 8601 in JSON and CSV, timestamp[ms, UTC] in Arrow). The Arrow library (~0.2-0.5 s of
// module loading) loads before /readyz turns ready (bin/service.ts), or on a front's first Arrow
// request, which is answered 503 until it is in.
import type { HistoryPoint } from '../core/history-point.js';
import { roundSignificant } from '../core/json-numbers.js';
import type { HistoryMetric } from './history-params.js';

/** The columns a metric gives, after `t`. */
export function fieldsOf(metrics: readonly HistoryMetric[]): (keyof HistoryPoint)[] {
  return metrics.flatMap((m): (keyof HistoryPoint)[] =>
    m === 'candle' ? ['open', 'high', 'low', 'close', 'volume'] : [m]);
}

export interface HistoryBody {
  readonly symbol: string;
  readonly interval: string;
  readonly metrics: readonly HistoryMetric[];
  readonly points: readonly HistoryPoint[];
  readonly coverage: { fromMs: number; toMs: number;
    gaps: readonly { fromMs: number; toMs: number }[] };
  readonly nextCursor: string | null;
  readonly updatedAtMs: number | null;
  readonly cadenceMs: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * ISO 8601 of a time on a whole second, from a cached day prefix: pages hold thousands of
 * points, and Date#toISOString per point was most of a page's serialization.
 */
function isoWriter(): (ms: number) => string {
  let dayMs = NaN;
  let prefix = '';
  const two = (n: number) => (n < 10 ? '0' + n : String(n));
  return (ms) => {
    const within = ms - dayMs;
    if (!(within >= 0 && within < 86_400_000) || ms % 1000 !== 0) {
      if (ms % 1000 !== 0) return iso(ms);
      dayMs = ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);
      prefix = iso(dayMs).slice(0, 11);
      return iso(ms);
    }
    const seconds = within / 1000;
    return `${prefix}${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:` +
      `${two(seconds % 60)}.000Z`;
  };
}

/**
 * A finite number as text with at most 10 significant digits (core/json-numbers.ts). Text of
 * up to 11 characters has at most 10 digits (a non-integer holds a point) and is kept as it
 * is: most of a page's numbers, and rounding them all doubled a 5,000-point page's time.
 */
function numberText(x: number): string {
  const text = String(x);
  return text.length <= 11 || Number.isInteger(x) ? text : String(roundSignificant(x));
}

/**
 * A value as JSON: numbers to 10 significant digits as every answer writes them
 * (core/json-numbers.ts), null as it is, the regime quoted (a fixed enum).
 */
function jsonValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? numberText(value) : 'null';
  return JSON.stringify(value);
}

/** The points array as JSON text, written directly (no object per point). */
function pointsJson(points: readonly HistoryPoint[], fields: readonly (keyof HistoryPoint)[]):
  string {
  const isoOf = isoWriter();
  const names = fields.map((f) => `,${JSON.stringify(f)}:`);
  const parts: string[] = [];
  for (const p of points) {
    let line = `{"t":"${isoOf(p.tMs)}"`;
    for (let i = 0; i < fields.length; i++) line += names[i] + jsonValue(p[fields[i]]);
    parts.push(line + '}');
  }
  return '[' + parts.join(',') + ']';
}

export function historyJson(body: HistoryBody): string {
  const { coverage } = body;
  const head = JSON.stringify({ symbol: body.symbol, interval: body.interval,
    metrics: body.metrics });
  const tail = JSON.stringify({
    coverage: { from: iso(coverage.fromMs), to: iso(coverage.toMs),
      gaps: coverage.gaps.map((g) => ({ from: iso(g.fromMs), to: iso(g.toMs) })) },
    nextCursor: body.nextCursor,
    updatedAt: body.updatedAtMs === null ? null : iso(body.updatedAtMs),
    cadenceMs: body.cadenceMs,
  });
  return `${head.slice(0, -1)},"points":${pointsJson(body.points, fieldsOf(body.metrics))},` +
    tail.slice(1);
}

/**
 * RFC 4180 CSV as http/csv.ts writes it, specialised: every cell here is a number, an ISO
 * time or a regime name, none of which needs quoting or formula escaping. Numbers are rounded
 * as in JSON; Arrow keeps the exact doubles (a typed column loses nothing to text).
 */
export function historyCsv(body: HistoryBody): string {
  const fields = fieldsOf(body.metrics);
  const isoOf = isoWriter();
  const lines = ['t,' + fields.join(',')];
  for (const p of body.points) {
    let line = isoOf(p.tMs);
    for (const f of fields) {
      const value = p[f];
      line += ',' + (value === null ? '' : typeof value === 'number'
        ? (Number.isFinite(value) ? numberText(value) : '') : value);
    }
    lines.push(line);
  }
  return lines.join('\r\n') + '\r\n';
}

type ArrowModule = typeof import('apache-arrow');
let arrow: ArrowModule | null = null;
let arrowLoading: Promise<void> | null = null;

/** The Arrow library if loaded; starts loading it otherwise (answer 503 meanwhile). */
export function arrowLibrary(): ArrowModule | null {
  arrowLoading ??= import('apache-arrow').then((module) => { arrow = module; });
  return arrow;
}

/** Resolves once the Arrow library is loaded (tests and benches wait on it). */
export async function arrowReady(): Promise<void> {
  arrowLibrary();
  await arrowLoading;
}

/** Loads the Arrow library once `after` settles (at once without it); the answer says whether it
 *  has, for /readyz: a client that waited for ready gets Arrow at its first request, not 503. */
export function preloadArrow(after?: Promise<void>): () => boolean {
  // A failed import shows as the check staying false (and the Arrow answers as 503).
  void (after ?? Promise.resolve()).then(() => arrowReady()).catch(() => {});
  return () => arrow !== null;
}

export function historyArrow(lib: ArrowModule, body: HistoryBody): Uint8Array {
  const columns: Record<string, unknown> = {
    t: lib.vectorFromArray(body.points.map((p) => p.tMs), new lib.TimestampMillisecond('UTC')),
  };
  for (const f of fieldsOf(body.metrics)) {
    const values = body.points.map((p) => p[f]);
    columns[f] = f === 'regime'
      ? lib.vectorFromArray(values as (string | null)[], new lib.Utf8())
      : lib.vectorFromArray(values as (number | null)[], new lib.Float64());
  }
  const table = new lib.Table(columns as unknown as ConstructorParameters<typeof lib.Table>[0]);
  return lib.tableToIPC(table, 'stream');
}
