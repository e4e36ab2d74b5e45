// GET /api/v1/signals/history and /api/v1/signals/performance: the stored entry signals with
// their 4-hour outcomes, and per-group figures over a window (docs/decisions.md "History").
import { createHash } from 'node:crypto';
import { stringifyRounded } from '../../core/json-numbers.js';
import { GRADES, TIMEFRAMES } from '../../core/messages.js';
import {
  filterSignals, PERFORMANCE_GROUPS, PERFORMANCE_WINDOWS, WINDOW_MS, type TrackedSignal,
} from '../../actors/signals/track-record.js';
import {
  cachedAnswer, trackedAt, trackedColumns, type TrackedStore,
} from './track-record-cache.js';
import { columnsReport } from '../../actors/signals/performance-report.js';
import { performanceCsv } from '../performance-csv.js';
import type { Outcome, Problem } from '../access-types.js';
import type { Payload } from '../respond.js';
import { parseInstant } from '../history-params.js';
import { problems } from '../problems.js';
import { enumParam, intParam, type QueryParams } from '../query.js';
import { etagMatches } from '../request.js';
import type { Handler } from '../routes.js';
import { parseSymbol } from '../symbols.js';
import { historyNowMs, type HistorySource } from './history.js';
import { CSV_TYPE, fail, JSON_TYPE, ok } from './payloads.js';

export const SIGNALS_HISTORY_QUERY = ['symbol', 'timeframe', 'grade', 'start', 'end', 'limit',
  'cursor'];
export const SIGNALS_PERFORMANCE_QUERY = ['window', 'groupBy', 'format'];
export const PERFORMANCE_FORMATS = ['json', 'csv'] as const;
export const SIGNALS_LIMIT_DEFAULT = 100;
export const SIGNALS_LIMIT_MAX = 1_000;
/** Outcomes are evaluated every 5 s: the producer cadence of both answers. */
export const SIGNALS_CADENCE_MS = 5_000;
const DEFAULT_SPAN_MS = 7 * 86_400_000;

export interface SignalSource extends HistorySource {
  /** The stored signals (a scale-out front holds a mirror of ingest's: only the list). */
  readonly signals: TrackedStore;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: Problem };
const bad = (detail: string): { ok: false; problem: Problem } =>
  ({ ok: false, problem: problems.badRequest(detail) });

/** An answer's bytes with a strong ETag of them. */
function rendered(value: unknown, nowMs: number, csv?: (value: unknown) => string): Payload {
  const body = csv === undefined ? stringifyRounded(value) : csv(value);
  const etag = `"s${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  return { contentType: csv === undefined ? JSON_TYPE : CSV_TYPE,
    cacheControl: `max-age=${SIGNALS_CADENCE_MS / 1000}`, etag,
    cadence: String(SIGNALS_CADENCE_MS), lastModified: new Date(nowMs).toUTCString(), body };
}

/** The payload, empty when the client holds it already (304). */
function answered(ifNoneMatch: string, payload: Payload): Outcome<Payload> {
  return ok(etagMatches(ifNoneMatch, payload.etag ?? '') ? { ...payload, body: '' } : payload);
}

/** A JSON answer computed per request, with a strong ETag of its bytes (304 when unchanged). */
function answer(ifNoneMatch: string, value: unknown, nowMs: number): Outcome<Payload> {
  return answered(ifNoneMatch, rendered(value, nowMs));
}

const iso = (ms: number) => new Date(ms).toISOString();

function parseCursor(text: string | undefined): Parsed<{ signalMs: number; signalId: string } |
  undefined> {
  if (text === undefined) return { ok: true, value: undefined };
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string') {
      return { ok: true, value: { signalMs: value[0] as number, signalId: value[1] } };
    }
  } catch {
    // answered below
  }
  return bad('cursor must be the nextCursor of a previous page');
}

function parseGrade(params: QueryParams): Parsed<string | undefined> {
  const text = params.get('grade');
  if (text === undefined) return { ok: true, value: undefined };
  // An unencoded `+` arrives as a space: `grade=A+` means A+.
  const grade = text === 'A ' ? 'A+' : text;
  if ((GRADES as readonly string[]).includes(grade)) return { ok: true, value: grade };
  return bad(`grade must be one of ${GRADES.join(', ')} (was ${JSON.stringify(text)})`);
}

function entryOf(item: TrackedSignal): Record<string, unknown> {
  return { ...item.signal, signaled_at: iso(item.signalMs), outcome: item.outcome };
}

export function signalHistoryHandler(source: SignalSource | null): Handler {
  return (ctx) => {
    if (source === null) return fail(problems.notReady('the signal history'));
    const { params } = ctx;
    let symbol: string | undefined;
    const symbolText = params.get('symbol');
    if (symbolText !== undefined) {
      const parsed = parseSymbol(symbolText);
      if (!parsed.ok) return parsed;
      symbol = parsed.symbol;
    }
    const timeframe = params.has('timeframe')
      ? enumParam(params, 'timeframe', TIMEFRAMES, '5m') : { ok: true as const, value: undefined };
    if (!timeframe.ok) return timeframe;
    const grade = parseGrade(params);
    if (!grade.ok) return grade;
    const start = parseInstant('start', params.get('start'));
    if (!start.ok) return start;
    const end = parseInstant('end', params.get('end'));
    if (!end.ok) return end;
    const limit = intParam(params, 'limit', SIGNALS_LIMIT_DEFAULT, 1, SIGNALS_LIMIT_MAX);
    if (!limit.ok) return limit;
    const cursor = parseCursor(params.get('cursor'));
    if (!cursor.ok) return cursor;
    const nowMs = historyNowMs(source);
    const toMs = end.value ?? nowMs + 1;
    const fromMs = start.value ?? toMs - DEFAULT_SPAN_MS;
    if (fromMs >= toMs) return fail(problems.badRequest('end must be after start'));
    const page = filterSignals(trackedAt(source.signals, nowMs), {
      symbol, timeframe: timeframe.value, grade: grade.value, fromMs, toMs, after: cursor.value,
      limit: limit.value,
    });
    const nextCursor = page.next === null ? null : Buffer.from(JSON.stringify(
      [page.next.signalMs, page.next.signal.signal_id])).toString('base64url');
    return answer(ctx.info.ifNoneMatch, {
      from: iso(fromMs), to: iso(toMs), count: page.signals.length,
      signals: page.signals.map(entryOf), nextCursor, cadenceMs: SIGNALS_CADENCE_MS,
    }, nowMs);
  };
}

export function signalPerformanceHandler(source: SignalSource | null): Handler {
  return (ctx) => signalPerformanceAnswer(source, ctx.params, ctx.info.ifNoneMatch);
}

/** The answer of GET /api/v1/signals/performance (also behind get_signal_performance). */
export function signalPerformanceAnswer(source: SignalSource | null, params: QueryParams,
  ifNoneMatch: string): Outcome<Payload> {
  if (source === null) return fail(problems.notReady('the signal performance'));
  const window = enumParam(params, 'window', PERFORMANCE_WINDOWS, '30d');
  if (!window.ok) return window;
  const groupBy = enumParam(params, 'groupBy', PERFORMANCE_GROUPS, 'grade');
  if (!groupBy.ok) return groupBy;
  const format = enumParam(params, 'format', PERFORMANCE_FORMATS, 'json');
  if (!format.ok) return format;
  const nowMs = historyNowMs(source);
  // The window is [from, to) as /signals/history takes start and end: `to` is its exclusive
  // end, so the same bounds passed to history list the same signals.
  const toMs = nowMs + 1;
  const fromMs = window.value === 'all' ? 0 : toMs - WINDOW_MS[window.value];
  const make = () => {
    const report = columnsReport(trackedColumns(source.signals), fromMs, toMs, nowMs,
      groupBy.value);
    return rendered({
      window: window.value, groupBy: groupBy.value, from: iso(fromMs), to: iso(toMs),
      groups: report.rows, informationCoefficient: report.informationCoefficient,
      calibration: report.calibration, multipleComparisons: report.multipleComparisons,
      cadenceMs: SIGNALS_CADENCE_MS,
    }, nowMs, format.value === 'csv' ? performanceCsv : undefined);
  };
  return answered(ifNoneMatch, cachedAnswer(source.signals, nowMs,
    `${window.value}:${groupBy.value}:${format.value}`, make));
}
