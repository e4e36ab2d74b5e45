// GET /api/v1/volume-profile/{symbol}: the volume profile of today or yesterday (UTC days of
// market time) or of start..end over the stored bars, as JSON or CSV (docs/footprint.md, "API").
import { FOOTPRINT_TIMEFRAME_MS, type FootprintTimeframe } from '../../core/footprint.js';
import { stringifyRounded } from '../../core/json-numbers.js';
import type { FootprintStore } from '../../persistence/footprints.js';
import { volumeProfileJson, type ProfileAsk, type ProfileSession }
  from '../../actors/footprint/profile.js';
import type { Outcome } from '../access-types.js';
import { toCsv, type Column } from '../csv.js';
import { closedBars, freshnessOf, openBar, type FootprintView } from '../footprint-view.js';
import { parseInstant } from '../history-params.js';
import { problems } from '../problems.js';
import { enumParam, type QueryParams } from '../query.js';
import type { SnapshotStore } from '../snapshots.js';
import { variantEtag, type VariantCache } from '../variants.js';
import { lookupSymbolView } from './feeds.js';
import { ANSWER_FORMATS, type SymbolAnswer } from './footprint.js';
import { CSV_TYPE, JSON_TYPE, payloadOutcome } from './payloads.js';
import { VariantHits } from './variant-hits.js';

export const VOLUME_PROFILE_QUERY = ['session', 'start', 'end', 'format'];
const DAY_MS = 86_400_000;
/** The longest range asked for: the 1-hour bars' default retention, and a day to spare. */
export const PROFILE_RANGE_MS_MAX = 31 * DAY_MS;
/** Days before a profile whose points of control can still be naked in it. */
const NAKED_LOOKBACK_MS = 7 * DAY_MS;

type Range = Omit<ProfileAsk, 'symbol'>;

const bad = (detail: string) => ({ ok: false, problem: problems.badRequest(detail) }) as const;

/** today / yesterday from market time, or start..end (an end defaults to now). */
function parseRange(params: QueryParams, nowMs: number): Outcome<Range> {
  const start = parseInstant('start', params.get('start'));
  if (!start.ok) return start;
  const end = parseInstant('end', params.get('end'));
  if (!end.ok) return end;
  const sessionText = params.get('session');
  if (start.value === null && end.value === null) {
    const session = enumParam(params, 'session', ['today', 'yesterday'] as const, 'today');
    if (!session.ok) return session;
    const todayMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
    const startMs = session.value === 'today' ? todayMs : todayMs - DAY_MS;
    return { ok: true, value: { session: session.value, startMs, endMs: startMs + DAY_MS } };
  }
  if (sessionText !== undefined) {
    return bad('session must not be given with start or end ' +
      `(was ${JSON.stringify(sessionText.slice(0, 40))})`);
  }
  if (start.value === null) return bad('start must be given with end');
  const endMs = end.value ?? Math.max(nowMs + 1, start.value + 1);
  if (endMs <= start.value || endMs - start.value > PROFILE_RANGE_MS_MAX) {
    return bad('end must be after start and at most 31 days after it ' +
      `(start ${new Date(start.value).toISOString()}, end ${new Date(endMs).toISOString()})`);
  }
  return { ok: true, value: { session: 'range' as ProfileSession, startMs: start.value, endMs } };
}

/** 5m bars while the range is within their retention, else the 1h ones. */
function timeframeFor(store: FootprintStore | null, range: Range, nowMs: number):
  FootprintTimeframe {
  const days = store?.retentionDays['5m'] ?? 0;
  return range.startMs >= nowMs - days * DAY_MS ? '5m' : '1h';
}

const csvColumns: Column[] = ['price', 'buy', 'sell', 'volume', 'poc', 'valueArea']
  .map((header) => ({ header, value: (row: Record<string, unknown>) => row[header] }));

function answer(view: FootprintView, store: FootprintStore | null, range: Range,
  format: string): string {
  const tf = timeframeFor(store, range, view.asOfMs);
  const bars = closedBars(store, view, tf, range.startMs - NAKED_LOOKBACK_MS, range.endMs,
    Math.ceil((range.endMs - range.startMs + NAKED_LOOKBACK_MS) / FOOTPRINT_TIMEFRAME_MS[tf]));
  const open = openBar(view, tf);
  if (open !== null && open.openMs < range.endMs &&
    (bars.length === 0 || bars[bars.length - 1].openMs < open.openMs)) bars.push(open);
  const body = volumeProfileJson({ symbol: view.symbol, ...range }, bars);
  if (format !== 'csv') return stringifyRounded({ ...body, ...freshnessOf(view) });
  const low = body.valueAreaLow as number | null;
  const high = body.valueAreaHigh as number | null;
  const rows = (body.levels as Record<string, unknown>[]).map((level) => ({ ...level,
    poc: level.price === body.pocPrice,
    valueArea: low !== null && high !== null && (level.price as number) >= low &&
      (level.price as number) < high }));
  return toCsv(csvColumns, rows);
}

export function volumeProfileHandler(snapshots: SnapshotStore, variants: VariantCache,
  store: FootprintStore | null): SymbolAnswer {
  const storeVersion = () => store?.version() ?? 0;
  const hits = new VariantHits(snapshots, variants, storeVersion);
  return ({ segment, params }) => {
    const hit = hits.find(params, segment);
    if (hit !== undefined) return hit;
    const format = enumParam(params, 'format', ANSWER_FORMATS, 'json');
    if (!format.ok) return format;
    const found = lookupSymbolView(snapshots, 'footprint', segment, 'the volume profile');
    if (!found.ok) return found;
    const { entry, symbol } = found.value;
    const view = variants.dataOf('footprint/' + symbol, entry) as FootprintView;
    const range = parseRange(params, view.asOfMs);
    if (!range.ok) return range;
    const { session, startMs, endMs } = range.value;
    const version = storeVersion();
    const paramsKey = `vp.${session}.${startMs}.${endMs}.${format.value}.${version}`;
    const key = variants.keyOf('footprint/' + symbol, entry, paramsKey);
    const payload = variants.variantAt(key, 'footprint/' + symbol, entry, () => ({
      contentType: format.value === 'csv' ? CSV_TYPE : JSON_TYPE,
      body: Buffer.from(answer(view, store, range.value, format.value)),
      cacheControl: entry.cacheControl,
      etag: variantEtag(entry, paramsKey),
      lastModified: entry.lastModified,
      cadence: entry.cadenceHeader,
      ...(format.value === 'csv' ? { headers: [['Content-Disposition',
        `attachment; filename="${symbol.replace(':', '_')}-volume-profile-${session}.csv"`]] }
        : {}),
    }));
    hits.remember(params, segment, symbol, 'footprint', entry, version, key);
    return payloadOutcome(payload);
  };
}
