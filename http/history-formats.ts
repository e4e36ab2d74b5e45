// History pages as JSON, CSV or an Apache Arrow IPC stream: one column per field, time first
// (ISO 8601 in JSON and CSV, timestamp[ms, UTC] in Arrow). The Arrow library (~0.2-0.5 s of
// module loading) is loaded on the first Arrow request; until then Arrow answers 503.
import type { HistoryPoint } from '../core/history-point.js';
import { toCsv, type Column } from './csv.js';
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

export function historyJson(body: HistoryBody): string {
  const fields = fieldsOf(body.metrics);
  const points = body.points.map((p) => {
    const out: Record<string, unknown> = { t: iso(p.tMs) };
    for (const f of fields) out[f] = p[f];
    return out;
  });
  const { coverage } = body;
  return JSON.stringify({
    symbol: body.symbol, interval: body.interval, metrics: body.metrics, points,
    coverage: { from: iso(coverage.fromMs), to: iso(coverage.toMs),
      gaps: coverage.gaps.map((g) => ({ from: iso(g.fromMs), to: iso(g.toMs) })) },
    nextCursor: body.nextCursor,
    updatedAt: body.updatedAtMs === null ? null : iso(body.updatedAtMs),
    cadenceMs: body.cadenceMs,
  });
}

export function historyCsv(body: HistoryBody): string {
  const columns: Column[] = [{ header: 't', value: (row) => iso(row.tMs as number) },
    ...fieldsOf(body.metrics).map((f): Column => ({ header: f, value: (row) => row[f] }))];
  return toCsv(columns, body.points as unknown as Record<string, unknown>[]);
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
