// GET /api/v1/cvd/{symbol}: the current CVD and a slice of one interval's history, cut from the
// 'cvd/<SYMBOL>' view and cached per (view version, interval, limit).
import { intParam, enumParam } from '../query.js';
import type { Handler } from '../routes.js';
import type { SnapshotStore } from '../snapshots.js';
import { variantEtag, type VariantCache } from '../variants.js';
import { lookupSymbolView } from './feeds.js';
import { JSON_TYPE, ok } from './payloads.js';

export const CVD_INTERVALS = ['1m', '5m', '15m', '1h'] as const;
export type CvdInterval = (typeof CVD_INTERVALS)[number];
export const CVD_LIMIT_DEFAULT = 100;
export const CVD_LIMIT_MAX = 1_000;

/** The 'cvd/<SYMBOL>' body as the runtime writes it. */
interface CvdView {
  readonly symbol: string;
  readonly cvd: number;
  readonly history: Readonly<Partial<Record<CvdInterval, readonly (readonly [number, number])[]>>>;
  readonly updatedAt: string;
  readonly cadenceMs: number;
  readonly stale: boolean;
  readonly asOf: string | null;
  /** Candles, mixed or trades (warm-up and backfill fill windows from candles). */
  readonly basis?: string;
}

function slice(view: CvdView, interval: CvdInterval, limit: number): string {
  const history = view.history?.[interval] ?? [];
  const points = history.slice(Math.max(0, history.length - limit))
    .map(([timeMs, cvd]) => ({ time: new Date(timeMs).toISOString(), cvd }));
  return JSON.stringify({
    symbol: view.symbol, interval, cvd: view.cvd, points, updatedAt: view.updatedAt,
    cadenceMs: view.cadenceMs, stale: view.stale, asOf: view.asOf, basis: view.basis ?? 'trades',
  });
}

export function cvdHandler(snapshots: SnapshotStore, variants: VariantCache): Handler {
  return ({ segment, params }) => {
    const interval = enumParam(params, 'interval', CVD_INTERVALS, '5m');
    if (!interval.ok) return interval;
    const limit = intParam(params, 'limit', CVD_LIMIT_DEFAULT, 1, CVD_LIMIT_MAX);
    if (!limit.ok) return limit;
    const found = lookupSymbolView(snapshots, 'cvd', segment, 'CVD');
    if (!found.ok) return found;
    const { entry } = found.value;
    const name = 'cvd/' + found.value.symbol;
    const paramsKey = `${interval.value}.${limit.value}`;
    return ok(variants.variant(name, entry, paramsKey, (data) => ({
      contentType: JSON_TYPE,
      body: slice(data as CvdView, interval.value, limit.value),
      cacheControl: entry.cacheControl,
      etag: variantEtag(entry, paramsKey),
      lastModified: entry.lastModified,
      cadence: entry.cadenceHeader,
    })));
  };
}
