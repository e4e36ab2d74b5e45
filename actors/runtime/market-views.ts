// The universe's views: screener, pair detail and signals, rebuilt once per cadence from the
// venue metadata and the tracked pairs' summaries, stored as bytes to serve. The service builds
// them in the views worker (actors/views-worker/worker.ts), off the thread that serves them.
import type { PairViews, UniverseEvent } from '../../core/messages.js';
import { viewName } from '../topics.js';
import {
  MarketInputs, unpublishedCountOf, type Market, type TrackedPair, type ViewSink,
} from './market-inputs.js';
import {
  encodeFeedView, encodeFeedViewSteps, encodeRecordSteps, fundingAnnualizedPct,
} from '../views/encode.js';
import { pairDetail, screenerRow, HOME_FUNDING_INTERVAL_HOURS, type ScreenerRow }
  from '../views/pair-detail.js';

export type { ViewSink } from './market-inputs.js';

/**
 * What a market's pair detail was last built from. Its bytes are a function of these alone, so
 * a refresh that finds them all the same object or value skips the build, the encode and the
 * compare: a tracked pair's detail is built when its shard publishes, and the once-per-cadence
 * refresh no longer builds it a second time (nor the untracked markets' between universes).
 */
interface DetailInputs {
  readonly market: Market;
  readonly pair: TrackedPair | undefined;
  readonly isTracked: boolean;
  readonly stale: boolean;
  readonly universeAtMs: number;
  readonly row: ScreenerRow;
}

export class MarketViews extends MarketInputs {
  private rows: ScreenerRow[] = [];
  /** The tracked pairs in the last signals view built: readiness waits for every one. */
  private signalsSymbols: ReadonlySet<string> = new Set();
  private rowsNewestMs = -1;
  private readonly details = new Map<string, DetailInputs>();

  constructor(sink: ViewSink, cadenceMs: number, private readonly universeCadenceMs: number) {
    super(sink, cadenceMs);
  }

  get screenerRows(): readonly ScreenerRow[] {
    return this.rows;
  }

  override applyUniverse(event: UniverseEvent): void {
    super.applyUniverse(event);
    for (const symbol of [...this.details.keys()]) {
      if (!this.marketBySymbol.has(symbol)) this.details.delete(symbol);
    }
  }

  /**
   * Tracked pairs a client cannot yet read in full: no deep view, CVD view or pair detail
   * stored, or absent from the signals view. `/readyz` answers 200 only when this is 0.
   */
  unpublishedCount(): number {
    return unpublishedCountOf(this.trackedSet, this.signalsSymbols, this.sink);
  }

  /** The tracked pairs in the last signals view built. */
  get signalsPairs(): ReadonlySet<string> {
    return this.signalsSymbols;
  }

  /**
   * Stores a shard's per-pair views as they are and keeps the summaries for the rest. Answers
   * whether a pair published for the first time: the caller then rebuilds the signals view at
   * once, so a pair is whole (and the service ready) without waiting for the next cadence.
   */
  applyPairViews(views: readonly PairViews[], wallNowMs: number): boolean {
    let first = false;
    for (const pair of views) {
      const stored = this.storePair(pair, wallNowMs);
      if (!stored.tracked) continue;
      first ||= stored.first;
      // The pair detail follows its summary at once rather than at the next refresh, so it is
      // no staler than the deep view.
      const market = this.marketBySymbol.get(pair.symbol);
      if (market) this.putPairDetail(market, wallNowMs);
    }
    return first;
  }

  /** Builds and stores one market's pair detail; returns its screener row. */
  private putPairDetail(market: Market, wallNowMs: number): ScreenerRow {
    const pair = this.tracked.get(market.symbol);
    const isTracked = this.trackedSet.has(market.symbol);
    const stale = isTracked && (!pair || pair.summary.stale ||
      wallNowMs - pair.lastPublishWallMs > 3 * this.cadenceMs);
    const last = this.details.get(market.symbol);
    if (last !== undefined && last.market === market && last.pair === pair &&
      last.isTracked === isTracked && last.stale === stale &&
      last.universeAtMs === this.universeAtMs) return last.row;
    const row = screenerRow(market, pair?.summary, isTracked, stale);
    const updatedAtMs = Math.max(this.universeAtMs, pair?.updatedAtMs ?? 0);
    const asOfMs = pair?.summary.asOfMs ?? this.universeAtMs;
    this.putIfChanged(viewName('pair', market.symbol), pairDetail(row, pair?.summary, asOfMs),
      updatedAtMs, isTracked ? this.cadenceMs : this.universeCadenceMs);
    this.details.set(market.symbol,
      { market, pair, isTracked, stale, universeAtMs: this.universeAtMs, row });
    return row;
  }

  /** Rebuilds screener, pair details and signals; unchanged bytes keep their version and tag. */
  refresh(wallNowMs: number): void {
    const steps = this.refreshSteps(wallNowMs);
    while (!steps.next().done) { /* every step, in this call */ }
  }

  /**
   * `refresh` as small steps, for a caller on a thread that serves (`runSliced`): one market's
   * pair detail a step, then the screener, then the signals view. The service's views worker
   * runs them in one call. A publish applied between two steps stores its own pair detail; its
   * screener row joins at the next refresh, as it would have done had it arrived after this one.
   */
  *refreshSteps(wallNowMs: number): Generator<void> {
    const rows: ScreenerRow[] = [];
    let newestMs = this.universeAtMs;
    for (const market of this.markets) {
      rows.push(this.putPairDetail(market, wallNowMs));
      newestMs = Math.max(newestMs, this.tracked.get(market.symbol)?.updatedAtMs ?? 0);
      yield;
    }
    // Every row the same object and the same newest time: screener and signals would encode to
    // the bytes they already have.
    const unchanged = newestMs === this.rowsNewestMs && rows.length === this.rows.length &&
      rows.every((row, i) => row === this.rows[i]);
    this.rows = rows;
    this.rowsNewestMs = newestMs;
    if (unchanged) return;
    const screener = { pairs: rows, count: rows.length };
    const screenerBytes = yield* encodeFeedViewSteps(screener, 'pairs', newestMs,
      this.universeCadenceMs);
    this.putBytesIfChanged('screener', screenerBytes, newestMs, this.universeCadenceMs, screener);
    yield;
    yield* this.putSignals(rows, newestMs);
  }

  private *putSignals(rows: readonly ScreenerRow[], updatedAtMs: number): Generator<void> {
    const body: Record<string, unknown> = {};
    const symbols = new Set<string>();
    for (const row of rows) {
      const summary = this.tracked.get(row.symbol)?.summary;
      if (!row.tracked || !summary) continue;
      symbols.add(row.symbol);
      body[row.symbol] = {
        symbol: row.symbol,
        score: summary.score ?? 0,
        direction: summary.direction,
        vpin: summary.vpin,
        cvd: summary.cvd,
        regime: summary.regime,
        fundingRate: row.fundingRate,
        fundingAnnualized: fundingAnnualizedPct(row.fundingRate, HOME_FUNDING_INTERVAL_HOURS),
        stale: row.stale,
      };
    }
    yield;
    // Signals are keyed per pair, so freshness travels in headers, not in the body.
    const bytes = yield* encodeRecordSteps(body);
    this.putBytesIfChanged('signals', bytes, updatedAtMs, this.cadenceMs, body);
    this.signalsSymbols = symbols;
  }

  private putIfChanged(name: string, body: Record<string, unknown>, updatedAtMs: number,
    cadenceMs: number): void {
    this.putBytesIfChanged(name, encodeFeedView(body, updatedAtMs, cadenceMs), updatedAtMs,
      cadenceMs, body);
  }

  private readonly lastBytes = new Map<string, Uint8Array>();

  private putBytesIfChanged(name: string, bytes: Uint8Array, updatedAtMs: number,
    cadenceMs: number, data: unknown): void {
    const previous = this.lastBytes.get(name);
    if (previous && Buffer.compare(previous, bytes) === 0) return;
    this.lastBytes.set(name, bytes);
    const version = (this.sink.get(name)?.version ?? 0) + 1;
    this.sink.put(name, bytes, { version, updatedAtMs, cadenceMs, data });
  }
}
