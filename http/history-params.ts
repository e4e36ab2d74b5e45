// The query of GET /api/v1/history/{symbol} (docs/decisions.md "History"): metrics, interval,
// start, end, limit, cursor and format, each checked; a bad one is a 400 naming it.
import type { Problem } from './access-types.js';
import { problems } from './problems.js';
import { enumParam, intParam, type QueryParams } from './query.js';

export const HISTORY_METRICS = [
  'candle', 'openInterest', 'fundingRate', 'fundingAnnualized', 'cvd', 'vpin', 'obi', 'ofi',
  'kyleLambda', 'signalScore', 'regime',
] as const;
export type HistoryMetric = (typeof HISTORY_METRICS)[number];

export const HISTORY_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];
export const INTERVAL_MS: Readonly<Record<HistoryInterval, number>> = Object.freeze({
  '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '4h': 14_400_000,
  '1d': 86_400_000,
});

export const HISTORY_FORMATS = ['json', 'csv', 'arrow'] as const;
export type HistoryFormat = (typeof HISTORY_FORMATS)[number];

export const HISTORY_LIMIT_DEFAULT = 500;
export const HISTORY_LIMIT_MAX = 5_000;
export const HISTORY_QUERY = ['metrics', 'interval', 'start', 'end', 'limit', 'cursor', 'format'];

/** Where the previous page stopped: opaque to clients (base64url JSON). */
export interface HistoryCursor {
  readonly symbol: string;
  readonly interval: HistoryInterval;
  readonly metrics: string;
  readonly fromMs: number;
  readonly toMs: number;
}

export interface HistoryRequest {
  readonly metrics: readonly HistoryMetric[];
  readonly interval: HistoryInterval;
  readonly intervalMs: number;
  readonly startMs: number | null;
  readonly endMs: number | null;
  readonly limit: number;
  readonly cursor: HistoryCursor | null;
  readonly format: HistoryFormat;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: Problem };

function shown(text: string): string {
  return JSON.stringify(text.length > 40 ? text.slice(0, 40) + '…' : text);
}

const bad = (detail: string): { ok: false; problem: Problem } =>
  ({ ok: false, problem: problems.badRequest(detail) });

/** An instant as ISO 8601 (with a date) or epoch milliseconds. */
export function parseInstant(name: string, text: string | undefined): Parsed<number | null> {
  if (text === undefined) return { ok: true, value: null };
  const ms = /^\d{1,15}$/.test(text) ? Number(text)
    : /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isFinite(ms) && ms >= 0) return { ok: true, value: ms };
  return bad(`${name} must be an ISO 8601 instant or epoch milliseconds (was ${shown(text)})`);
}

function parseMetrics(text: string | undefined): Parsed<HistoryMetric[]> {
  if (text === undefined) return { ok: true, value: ['candle'] };
  const names = text.split(',').map((s) => s.trim());
  const unknown = names.find((n) => !(HISTORY_METRICS as readonly string[]).includes(n));
  if (unknown !== undefined || names.length === 0) {
    return bad(`metrics must be a comma list of ${HISTORY_METRICS.join(', ')} ` +
      `(was ${shown(unknown ?? text)})`);
  }
  // Each metric once, in the documented order: the columns do not depend on the spelling.
  return { ok: true, value: HISTORY_METRICS.filter((m) => names.includes(m)) };
}

export function encodeCursor(cursor: HistoryCursor): string {
  return Buffer.from(JSON.stringify([cursor.symbol, cursor.interval, cursor.metrics,
    cursor.fromMs, cursor.toMs])).toString('base64url');
}

function decodeCursor(text: string): HistoryCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 5) return null;
    const [symbol, interval, metrics, fromMs, toMs] = value as unknown[];
    if (typeof symbol !== 'string' || typeof metrics !== 'string' ||
      !(HISTORY_INTERVALS as readonly unknown[]).includes(interval) ||
      !Number.isSafeInteger(fromMs) || !Number.isSafeInteger(toMs) ||
      (fromMs as number) < 0 || (fromMs as number) >= (toMs as number)) return null;
    return { symbol, interval: interval as HistoryInterval, metrics, fromMs: fromMs as number,
      toMs: toMs as number };
  } catch {
    return null;
  }
}

/** The checked query; the cursor is checked against the symbol and the other parameters. */
export function parseHistoryQuery(params: QueryParams, symbol: string): Parsed<HistoryRequest> {
  const metrics = parseMetrics(params.get('metrics'));
  if (!metrics.ok) return metrics;
  const interval = enumParam(params, 'interval', HISTORY_INTERVALS, '1h');
  if (!interval.ok) return interval;
  const start = parseInstant('start', params.get('start'));
  if (!start.ok) return start;
  const end = parseInstant('end', params.get('end'));
  if (!end.ok) return end;
  if (start.value !== null && end.value !== null && start.value >= end.value) {
    return bad(`end must be after start (start ${new Date(start.value).toISOString()}, ` +
      `end ${new Date(end.value).toISOString()})`);
  }
  const limit = intParam(params, 'limit', HISTORY_LIMIT_DEFAULT, 1, HISTORY_LIMIT_MAX);
  if (!limit.ok) return limit;
  const format = enumParam(params, 'format', HISTORY_FORMATS, 'json');
  if (!format.ok) return format;
  const cursorText = params.get('cursor');
  let cursor: HistoryCursor | null = null;
  if (cursorText !== undefined) {
    cursor = decodeCursor(cursorText);
    if (cursor === null) {
      return bad(`cursor must be the nextCursor of a previous page (was ${shown(cursorText)})`);
    }
    if (cursor.symbol !== symbol || cursor.interval !== interval.value ||
      cursor.metrics !== metrics.value.join(',')) {
      return bad('cursor must be used with the symbol, interval and metrics of the query ' +
        `that gave it (it was for ${cursor.symbol} ${cursor.interval} ${cursor.metrics})`);
    }
  }
  return { ok: true, value: {
    metrics: metrics.value, interval: interval.value, intervalMs: INTERVAL_MS[interval.value],
    startMs: start.value, endMs: end.value, limit: limit.value, cursor, format: format.value,
  } };
}
