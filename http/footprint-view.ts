// The 'footprint/<SYMBOL>' view as the shards publish it (actors/shard/pair-footprint.ts): per
// timeframe the open bar and the newest closed one; joined here with the stored closed bars.
import type { FootprintRecord, FootprintTimeframe } from '../core/footprint.js';
import type { FootprintStore } from '../persistence/footprints.js';

export interface FootprintView {
  readonly symbol: string;
  readonly timeframes: Readonly<Record<FootprintTimeframe,
    { readonly open: FootprintRecord | null; readonly closed: FootprintRecord | null }>>;
  readonly updatedAt: string;
  readonly cadenceMs: number;
  readonly stale: boolean;
  /** Market time of the newest event folded in. */
  readonly asOfMs: number;
}

/**
 * Closed bars with fromMs <= openMs < toMs (the newest `limit`), oldest first: the store's, and
 * the view's newest closed bar, which the store may not have committed yet.
 */
export function closedBars(store: FootprintStore | null, view: FootprintView,
  timeframe: FootprintTimeframe, fromMs: number, toMs: number, limit: number):
  FootprintRecord[] {
  const stored = store === null ? [] : store.range(view.symbol, timeframe, fromMs, toMs, limit);
  const newest = view.timeframes[timeframe]?.closed ?? null;
  if (newest !== null && newest.openMs >= fromMs && newest.openMs < toMs &&
    (stored.length === 0 || stored[stored.length - 1].openMs < newest.openMs)) {
    stored.push(newest);
  }
  return stored.length > limit ? stored.slice(stored.length - limit) : stored;
}

/** The view's open bar of a timeframe, or null. */
export function openBar(view: FootprintView, timeframe: FootprintTimeframe):
  FootprintRecord | null {
  return view.timeframes[timeframe]?.open ?? null;
}

/** The feed fields every footprint answer ends with (docs/decisions.md "Feeds and freshness"). */
export function freshnessOf(view: FootprintView): Record<string, unknown> {
  return { updatedAt: view.updatedAt, cadenceMs: view.cadenceMs, stale: view.stale,
    asOf: Number.isFinite(view.asOfMs) ? new Date(view.asOfMs).toISOString() : null };
}
