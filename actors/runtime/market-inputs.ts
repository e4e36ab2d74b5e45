// What the universe's views are built from: the venue metadata of every listed market and the
// tracked pairs' newest summaries. Held where the views are built (market-views.ts) and on the
// main thread in front of the views worker (remote-market-views.ts), which both store the
// shards' per-pair view bytes as they came.
import type { AssetCtx, MarketMeta, PairSummary, PairViews, UniverseEvent } from
  '../../core/messages.js';
import type { ViewMeta } from '../../core/view-meta.js';
import { viewName } from '../topics.js';

/** Where views go: the HTTP front's SnapshotStore satisfies it. */
export interface ViewSink {
  put(name: string, body: Uint8Array, meta: ViewMeta): void;
  get(name: string): { etag: string; version: number } | undefined;
  delete(name: string): void;
}

export interface TrackedPair {
  summary: PairSummary;
  /** Wall time of the last publish: a pair silent for 3 cadences is stale. */
  lastPublishWallMs: number;
  updatedAtMs: number;
}

export type Market = MarketMeta & { ctx: AssetCtx };

/** The per-pair views every tracked pair must have before the service is ready. */
const firstViewKinds = ['deep-view', 'cvd', 'pair'] as const;

/**
 * Tracked pairs not yet readable in full: a deep view, CVD view or pair detail missing from
 * `sink`, or absent from the signals view (`signalsSymbols`).
 */
export function unpublishedCountOf(tracked: Iterable<string>,
  signalsSymbols: ReadonlySet<string>, sink: Pick<ViewSink, 'get'>): number {
  let missing = 0;
  for (const symbol of tracked) {
    const served = signalsSymbols.has(symbol) &&
      firstViewKinds.every((kind) => sink.get(viewName(kind, symbol)) !== undefined);
    if (!served) missing += 1;
  }
  return missing;
}

export class MarketInputs {
  protected markets: readonly Market[] = [];
  protected readonly marketBySymbol = new Map<string, Market>();
  protected universeAtMs = 0;
  protected readonly tracked = new Map<string, TrackedPair>();
  protected trackedSet: ReadonlySet<string> = new Set();

  constructor(protected readonly sink: ViewSink, protected readonly cadenceMs: number) {}

  get listedSymbols(): readonly string[] {
    return this.markets.map((m) => m.symbol);
  }

  get universe(): readonly Market[] {
    return this.markets;
  }

  summaryOf(symbol: string): PairSummary | undefined {
    return this.tracked.get(symbol)?.summary;
  }

  /** The listed pairs' contexts from the newest universe (a pair not listed has none). */
  contextsOf(symbols: readonly string[]): Record<string, AssetCtx> {
    const out: Record<string, AssetCtx> = {};
    for (const symbol of symbols) {
      const ctx = this.marketBySymbol.get(symbol)?.ctx;
      if (ctx) out[symbol] = ctx;
    }
    return out;
  }

  applyUniverse(event: UniverseEvent): void {
    this.markets = event.markets;
    this.universeAtMs = event.tsMs;
    this.marketBySymbol.clear();
    for (const market of event.markets) this.marketBySymbol.set(market.symbol, market);
  }

  setTracked(symbols: readonly string[]): void {
    this.trackedSet = new Set(symbols);
    for (const symbol of [...this.tracked.keys()]) {
      if (this.trackedSet.has(symbol)) continue;
      this.tracked.delete(symbol);
      for (const kind of ['deep-view', 'cvd']) this.sink.delete(viewName(kind, symbol));
    }
  }

  /**
   * Keeps a tracked pair's summary and stores its views as they are; false for a pair not
   * tracked. `first` says whether the pair published for the first time. `moved`: the views'
   * bytes came over a worker's port and are this thread's alone (ViewMeta).
   */
  protected storePair(pair: PairViews, wallNowMs: number, moved = false):
    { tracked: boolean; first: boolean } {
    if (!this.trackedSet.has(pair.symbol)) return { tracked: false, first: false };
    const first = !this.tracked.has(pair.symbol);
    this.tracked.set(pair.symbol, {
      summary: pair.summary, lastPublishWallMs: wallNowMs, updatedAtMs: pair.updatedAtMs,
    });
    for (const [kind, bytes] of Object.entries(pair.views)) {
      // Stored as sent, under the shard's ETag of these bytes: the shard closed the deep view
      // with the pair's smart money itself (shard-actor.ts).
      this.sink.put(viewName(kind, pair.symbol), bytes, {
        version: pair.version, updatedAtMs: pair.updatedAtMs, cadenceMs: this.cadenceMs,
        etag: pair.etags?.[kind], moved,
      });
    }
    return { tracked: true, first };
  }
}
