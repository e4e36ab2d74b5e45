// GET /api/v1/footprint/{symbol}: the last `bars` footprint bars of a timeframe (the open one
// last), as JSON or CSV, cached per (view version, stored bars, parameters).
import {
  FOOTPRINT_TIMEFRAMES, footprintBarJson, footprintLevelSize,
  type FootprintRecord,
} from '../../core/footprint.js';
import { stringifyRounded } from '../../core/json-numbers.js';
import type { FootprintStore } from '../../persistence/footprints.js';
import { toCsv, type Column } from '../csv.js';
import { closedBars, freshnessOf, openBar, type FootprintView } from '../footprint-view.js';
import { enumParam, intParam } from '../query.js';
import type { HandlerContext } from '../routes.js';
import type { Outcome } from '../access-types.js';
import type { Payload } from '../respond.js';
import type { SnapshotStore } from '../snapshots.js';
import { variantEtag, type VariantCache } from '../variants.js';
import { lookupSymbolView } from './feeds.js';
import { CSV_TYPE, JSON_TYPE, payloadOutcome } from './payloads.js';
import { VariantHits } from './variant-hits.js';

export const FOOTPRINT_QUERY = ['timeframe', 'bars', 'format'];
export const FOOTPRINT_BARS_DEFAULT = 50;
export const FOOTPRINT_BARS_MAX = 200;
export const ANSWER_FORMATS = ['json', 'csv'] as const;

type Row = Record<string, unknown>;

const csvColumns: Column[] = ['openTime', 'closeTime', 'closed', 'basis', 'price', 'buy', 'sell',
  'delta', 'poc'].map((header) => ({ header, value: (row: Row) => row[header] }));

/** One CSV row per level; a bar without levels (candles) gets one row with empty level cells. */
function csvRows(bars: readonly { record: FootprintRecord; closed: boolean }[]): Row[] {
  const rows: Row[] = [];
  for (const { record: r, closed } of bars) {
    const bar = footprintBarJson(r, closed);
    const head = { openTime: bar.openTime, closeTime: bar.closeTime, closed, basis: r.basis };
    if (r.buy.length === 0) rows.push(head);
    for (const level of bar.levels as Row[]) rows.push({ ...head, ...level, poc: level.price ===
      bar.pocPrice });
  }
  return rows;
}

function answer(view: FootprintView, store: FootprintStore | null, timeframe: string,
  count: number, format: string): string {
  const tf = timeframe as (typeof FOOTPRINT_TIMEFRAMES)[number];
  const open = openBar(view, tf);
  const closed = closedBars(store, view, tf, 0, open?.openMs ?? Infinity,
    open === null ? count : count - 1);
  const bars = closed.map((record) => ({ record, closed: true }));
  if (open !== null) bars.push({ record: open, closed: false });
  if (format === 'csv') return toCsv(csvColumns, csvRows(bars));
  const newest = bars.length === 0 ? null : bars[bars.length - 1].record;
  return stringifyRounded({
    symbol: view.symbol, timeframe, tickSize: newest?.tickSize ?? null,
    levelSize: newest === null ? null : footprintLevelSize(newest),
    bars: bars.map((b) => footprintBarJson(b.record, b.closed)), ...freshnessOf(view),
  });
}

/** What the footprint answers read of a request: REST routes and MCP tools both call them. */
export type SymbolAsk = Pick<HandlerContext, 'segment' | 'params'>;
export type SymbolAnswer = (ask: SymbolAsk) => Outcome<Payload>;

export function footprintHandler(snapshots: SnapshotStore, variants: VariantCache,
  store: FootprintStore | null): SymbolAnswer {
  const storeVersion = () => store?.version() ?? 0;
  const hits = new VariantHits(snapshots, variants, storeVersion);
  return ({ segment, params }) => {
    const hit = hits.find(params, segment);
    if (hit !== undefined) return hit;
    const timeframe = enumParam(params, 'timeframe', FOOTPRINT_TIMEFRAMES, '5m');
    if (!timeframe.ok) return timeframe;
    const bars = intParam(params, 'bars', FOOTPRINT_BARS_DEFAULT, 1, FOOTPRINT_BARS_MAX);
    if (!bars.ok) return bars;
    const format = enumParam(params, 'format', ANSWER_FORMATS, 'json');
    if (!format.ok) return format;
    const found = lookupSymbolView(snapshots, 'footprint', segment, 'the footprint');
    if (!found.ok) return found;
    const { entry, symbol } = found.value;
    const version = storeVersion();
    const paramsKey = `${timeframe.value}.${bars.value}.${format.value}.${version}`;
    const key = variants.keyOf('footprint/' + symbol, entry, paramsKey);
    const payload = variants.variantAt(key, 'footprint/' + symbol, entry, (data) => ({
      contentType: format.value === 'csv' ? CSV_TYPE : JSON_TYPE,
      body: Buffer.from(answer(data as FootprintView, store, timeframe.value, bars.value,
        format.value)),
      cacheControl: entry.cacheControl,
      etag: variantEtag(entry, paramsKey),
      lastModified: entry.lastModified,
      cadence: entry.cadenceHeader,
      ...(format.value === 'csv' ? { headers: [['Content-Disposition',
        `attachment; filename="${symbol.replace(':', '_')}-footprint-${timeframe.value}.csv"`]] }
        : {}),
    }));
    hits.remember(params, segment, symbol, 'footprint', entry, version, key);
    return payloadOutcome(payload);
  };
}
