// GET /api/v1/history/{symbol}: recorded history at an interval, paged by cursor, as JSON, CSV
// or Arrow (docs/decisions.md "History"). Pro reaches back 30 days, Whale and API the whole
// retention. "Now" is market time: the close of the newest recorded minute.
import type { Clock } from '../../core/clock.js';
import { planAtLeast } from '../../core/plans.js';
import type { HistoryStore } from '../../persistence/history.js';
import { bucketOf } from '../../persistence/history-aggregate.js';
import { readHistoryPage } from '../../persistence/history-query.js';
import { MINUTE_MS } from '../../core/history-point.js';
import type { Identity, Outcome } from '../access-types.js';
import {
  arrowLibrary, historyArrow, historyCsv, historyJson, type HistoryBody,
} from '../history-formats.js';
import { encodeCursor, HISTORY_METRICS, parseHistoryQuery, type HistoryRequest }
  from '../history-params.js';
import { problems } from '../problems.js';
import { etagMatches } from '../request.js';
import { withPrebuiltHeaders } from '../respond.js';
import { createHistoryCache } from '../history-cache.js';
import type { LRUCache } from 'lru-cache';
import type { QueryParams } from '../query.js';
import type { Payload } from '../respond.js';
import type { Handler } from '../routes.js';
import type { SnapshotStore } from '../snapshots.js';
import { parseSymbol, resolveListedSymbol } from '../symbols.js';
import { CSV_TYPE, fail, JSON_TYPE, ok } from './payloads.js';

export const ARROW_TYPE = 'application/vnd.apache.arrow.stream';
/** How far back a Pro key reaches; Whale and API reach the whole retention. */
export const PRO_LOOKBACK_MS = 30 * 86_400_000;
/** A cursor page may start this much before the Pro floor (the floor moves while paging). */
const cursorSlackMs = 3_600_000;
/** Points are written once a minute: the producer cadence of every history answer. */
export const HISTORY_CADENCE_MS = MINUTE_MS;

export interface HistorySource {
  readonly store: HistoryStore;
  /** The service clock: "now" before anything was recorded. */
  readonly clock: Clock;
  /**
   * Changes when points older than the newest minute land (a scale-out front copying ingest's
   * history): appended to the ETag, so no answer from before them is kept or revalidated.
   */
  readonly revision?: () => string;
}

/** Market time now: the close of the newest recorded minute, else the service clock. */
export function historyNowMs(source: HistorySource): number {
  return source.store.newestMs() ?? source.clock.nowMs();
}

interface Range {
  readonly fromMs: number;
  readonly toMs: number;
}

/** The range asked for, the Pro floor applied: an explicit earlier start is a 403. */
function resolveRange(ctx: HistoryAsk, q: HistoryRequest, nowMs: number): Outcome<Range> {
  const iv = q.intervalMs;
  let toMs = q.cursor?.toMs ?? q.endMs ?? bucketOf(nowMs - 1, iv) + iv;
  let fromMs = q.cursor?.fromMs ??
    (q.startMs !== null ? bucketOf(q.startMs, iv) : toMs - q.limit * iv);
  if (q.cursor === null && q.endMs === null && fromMs >= toMs) {
    // A start after now with no end: the range is empty, not an error of the client's.
    toMs = fromMs;
  }
  const identity = ctx.identity;
  if (identity?.kind === 'key' && !planAtLeast(identity.plan, 'Whale')) {
    const floorMs = nowMs - PRO_LOOKBACK_MS;
    const explicit = q.cursor !== null ? q.cursor.fromMs + cursorSlackMs : q.startMs;
    if (explicit !== null && explicit < floorMs) {
      return { ok: false, problem: problems.planRequired('Whale', identity.plan,
        `history before ${new Date(floorMs).toISOString()} (30 days back)`) };
    }
    const firstMs = bucketOf(floorMs, iv) + (floorMs % iv === 0 ? 0 : iv);
    if (fromMs < firstMs) fromMs = Math.min(firstMs, toMs);
  }
  return { ok: true, value: { fromMs, toMs } };
}

function metricsMask(q: HistoryRequest): number {
  return q.metrics.reduce((mask, m) => mask | (1 << HISTORY_METRICS.indexOf(m)), 0);
}

/** What an answer depends on besides the store: REST passes its request, MCP its tool call. */
export interface HistoryAsk {
  readonly segment: string;
  readonly params: QueryParams;
  readonly identity: Identity | null;
  readonly ifNoneMatch: string;
}

export function historyHandler(snapshots: SnapshotStore, source: HistorySource | null):
  Handler {
  const cache = createHistoryCache();
  return (ctx) => historyAnswer(snapshots, source, { segment: ctx.segment,
    params: ctx.params, identity: ctx.identity, ifNoneMatch: ctx.info.ifNoneMatch }, cache);
}

/** The answer of GET /api/v1/history/{symbol} (also behind the MCP tool get_history). */
export function historyAnswer(snapshots: SnapshotStore, source: HistorySource | null,
  ctx: HistoryAsk, cache?: LRUCache<string, Payload>): Outcome<Payload> {
  if (source === null) return fail(problems.notReady('the history'));
  const parsed = parseSymbol(ctx.segment);
  if (!parsed.ok) return parsed;
  const { store } = source;
  const symbol = store.updatedAtMs(parsed.symbol) !== null ? parsed.symbol
    : resolveListedSymbol(snapshots, parsed.symbol);
  if (symbol === undefined) return fail(problems.unknownSymbol(parsed.symbol));
  const query = parseHistoryQuery(ctx.params, symbol);
  if (!query.ok) return query;
  const q = query.value;
  const nowMs = historyNowMs(source);
  const range = resolveRange(ctx, q, nowMs);
  if (!range.ok) return range;
  const { fromMs, toMs } = range.value;
  const updatedAtMs = store.updatedAtMs(symbol);
  // The answer is a function of these and of what was recorded up to updatedAtMs (nowMs ends
  // the coverage of a range reaching past it).
  const etag = `"h${(updatedAtMs ?? 0).toString(36)}-${nowMs.toString(36)}-` +
    `${fromMs.toString(36)}-${toMs.toString(36)}-${q.limit}-${q.interval}-${metricsMask(q)}-` +
    `${q.format}${source.revision?.() ?? ''}"`;
  const base = {
    cacheControl: `max-age=${HISTORY_CADENCE_MS / 1000}`, etag,
    lastModified: new Date(updatedAtMs ?? nowMs).toUTCString(),
    cadence: String(HISTORY_CADENCE_MS),
  };
  if (etagMatches(ctx.ifNoneMatch, etag)) {
    return ok({ ...base, contentType: JSON_TYPE, body: '' });
  }
  // The tag names everything the bytes depend on but the symbol.
  const cacheKey = symbol + etag;
  const cached = cache?.get(cacheKey);
  if (cached !== undefined) return ok(cached);
  const built = buildAnswer(store, symbol, q, fromMs, toMs, nowMs, updatedAtMs, base);
  if (built.ok && cache !== undefined) {
    // Bytes, not a string: uWS would encode a string to UTF-8 on every send.
    const { body } = built.value;
    const payload = withPrebuiltHeaders({ ...built.value,
      body: typeof body === 'string' ? Buffer.from(body) : body });
    cache.set(cacheKey, payload);
    return ok(payload);
  }
  return built;
}

interface AnswerBase {
  readonly cacheControl: string;
  readonly etag: string;
  readonly lastModified: string;
  readonly cadence: string;
}

/** The page in the asked format (the store read and the serialization: what the cache saves). */
function buildAnswer(store: HistoryStore, symbol: string, q: HistoryRequest, fromMs: number,
  toMs: number, nowMs: number, updatedAtMs: number | null, base: AnswerBase):
  Outcome<Payload> {
  const lib = q.format === 'arrow' ? arrowLibrary() : null;
  if (q.format === 'arrow' && lib === null) return fail(problems.notReady('the Arrow encoder'));
  const page = readHistoryPage(store, { symbol, intervalMs: q.intervalMs, fromMs, toMs,
    limit: q.limit, nowMs });
  const nextCursor = page.nextFromMs === null ? null : encodeCursor({ symbol,
    interval: q.interval, metrics: q.metrics.join(','), fromMs: page.nextFromMs, toMs });
  const body: HistoryBody = { symbol, interval: q.interval, metrics: q.metrics,
    points: page.points, coverage: page.coverage, nextCursor, updatedAtMs,
    cadenceMs: HISTORY_CADENCE_MS };
  if (q.format === 'json') {
    return ok({ ...base, contentType: JSON_TYPE, body: historyJson(body) });
  }
  const headers: [string, string][] = [
    ['X-Coverage-From', new Date(page.coverage.fromMs).toISOString()],
    ['X-Coverage-To', new Date(page.coverage.toMs).toISOString()],
  ];
  if (nextCursor !== null) headers.push(['X-Next-Cursor', nextCursor]);
  const file = `${symbol.replace(':', '_')}-${q.interval}`;
  if (q.format === 'csv') {
    headers.push(['Content-Disposition', `attachment; filename="${file}.csv"`]);
    return ok({ ...base, contentType: CSV_TYPE, body: historyCsv(body), headers });
  }
  headers.push(['Content-Disposition', `attachment; filename="${file}.arrows"`]);
  return ok({ ...base, contentType: ARROW_TYPE, body: historyArrow(lib!, body), headers });
}

