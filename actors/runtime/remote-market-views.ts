// The cross-pair views as the main thread holds them when the views worker builds them: the
// inputs are kept here and sent on (the universe, the tracked pairs, each publish's summaries,
// the venues' funding), the shards' per-pair bytes are stored as they came, and the worker's
// finished screener, pair details, signals and funding arbitrage are swapped into the store.
// The wallet views go through the same worker (remote-positioning.ts).
import type { Logger, LogLevel } from '../../core/logger.js';
import type { FundingEvent, PairViews, UniverseEvent } from '../../core/messages.js';
import { FundingArbView } from '../positioning/funding-arb-view.js';
import type { ProtocolHandlers } from '../shard/protocol.js';
import type { ScreenerRow } from '../views/pair-detail.js';
import {
  viewsTypes, type FinishedView, type MainToViews, type PairSummaryUpdate, type ViewsToMain,
} from '../views-worker/protocol.js';
import { MarketInputs, unpublishedCountOf } from './market-inputs.js';
import type { PositioningSink } from './positioning-views.js';
import { RemotePositioning } from './remote-positioning.js';
import { ViewsWorkerHandle } from './views-worker-handle.js';

export class RemoteMarketViews extends MarketInputs {
  private universeEvent: UniverseEvent | null = null;
  /** Summaries applied since the last post: sent together once the current task ends. */
  private pairsPending: PairSummaryUpdate[] = [];
  /** Each symbol's newest funding since the last funding refresh: sent with the next one. */
  private fundingPending = new Map<string, FundingEvent>();
  /** The funding kept, for a restarted worker (this side never builds the view). */
  private readonly funding: FundingArbView;
  private rows: readonly ScreenerRow[] = [];
  private signalsSymbols: ReadonlySet<string> = new Set();
  private readonly refreshes = new Map<number, () => void>();
  private refreshId = 0;
  /** The worker was started before: the next start is a restart. */
  private started = false;
  readonly worker: ViewsWorkerHandle;
  /** The wallet views, built in the same worker. */
  readonly positioning: RemotePositioning;

  constructor(sink: PositioningSink, cadences: { cadenceMs: number; universeCadenceMs: number;
    fundingCadenceMs: number; walletCadenceMs: number; workerNice?: number }, log: Logger,
  logLevel: LogLevel) {
    super(sink, cadences.cadenceMs);
    this.funding = new FundingArbView(cadences.fundingCadenceMs);
    this.positioning = new RemotePositioning(sink, {
      running: () => this.worker.running,
      send: (message) => this.send(message),
      ask: (message) => this.ask(message),
    });
    const handlers: ProtocolHandlers<ViewsToMain> = {
      ...this.positioning.handlers,
      [viewsTypes.put]: (message) => { for (const view of message.views) this.swapIn(view); },
      [viewsTypes.rows]: (message) => {
        this.rows = message.rows;
        this.signalsSymbols = new Set(message.signalsSymbols);
      },
      [viewsTypes.refreshed]: (message) => this.settle(message.id),
    };
    this.worker = new ViewsWorkerHandle({ ...cadences, logLevel }, {
      handlers, onStart: () => this.sendAll(), onExit: () => {
        this.settleAll();
        this.positioning.settleAll();
      },
    }, log);
  }

  start(): Promise<void> {
    return this.worker.start();
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }

  get screenerRows(): readonly ScreenerRow[] {
    return this.rows;
  }

  override applyUniverse(event: UniverseEvent): void {
    super.applyUniverse(event);
    this.universeEvent = event;
    this.send({ type: viewsTypes.universe, event });
  }

  override setTracked(symbols: readonly string[]): void {
    super.setTracked(symbols);
    this.send({ type: viewsTypes.tracked, symbols });
  }

  /** Stores a shard's per-pair views and sends their summaries on (pair details: worker's). */
  applyPairViews(views: readonly PairViews[], wallNowMs: number): void {
    for (const pair of views) {
      if (!this.storePair(pair, wallNowMs, true).tracked) continue;
      this.sendSoon();
      this.pairsPending.push({ symbol: pair.symbol, summary: pair.summary,
        updatedAtMs: pair.updatedAtMs, wallNowMs });
    }
  }

  /**
   * Keeps a symbol's newest funding; it goes to the worker with the next funding refresh (only
   * the newest per symbol: a feed that sends funding often costs this thread no more).
   */
  applyFunding(event: FundingEvent): void {
    if (this.funding.apply(event)) this.fundingPending.set(event.symbol, event);
  }

  /** `/readyz` answers 200 only when this is 0 (market-inputs.ts). */
  unpublishedCount(): number {
    return unpublishedCountOf(this.trackedSet, this.signalsSymbols, this.sink);
  }

  /**
   * Asks the worker to rebuild screener, pair details and signals; settles once their bytes are
   * in the store (or the worker is gone: its restart sends everything again).
   */
  refresh(wallNowMs: number): Promise<void> {
    return this.ask((id) => ({ type: viewsTypes.refresh, id, wallNowMs }));
  }

  /** The same for the funding-arbitrage view (built from the funding and the screener rows). */
  refreshFunding(): Promise<void> {
    if (this.fundingPending.size > 0 && this.worker.running) {
      this.send({ type: viewsTypes.funding, events: [...this.fundingPending.values()] });
    }
    this.fundingPending.clear();
    return this.ask((id) => ({ type: viewsTypes.refreshFunding, id }));
  }

  private ask(message: (id: number) => MainToViews): Promise<void> {
    if (!this.worker.running) return Promise.resolve();
    const id = ++this.refreshId;
    const done = new Promise<void>((resolve) => this.refreshes.set(id, resolve));
    this.send(message(id));
    return done;
  }

  /**
   * A finished view into the store. Bytes with the ETag already stored keep their version (a
   * restarted worker builds every view again); otherwise the version follows the stored one.
   */
  private swapIn(view: FinishedView): void {
    if (view.version !== undefined) return this.positioning.swapIn(view);
    const known = this.sink.get(view.name);
    if (known?.etag === view.etag) return;
    this.sink.put(view.name, view.body, { version: (known?.version ?? 0) + 1,
      updatedAtMs: view.updatedAtMs, cadenceMs: view.cadenceMs, etag: view.etag, moved: true });
  }

  /** Every message goes after the inputs applied before it. */
  private send(message: MainToViews): void {
    this.sendPending();
    this.positioning.sendPending();
    this.worker.post(message);
  }

  /** The summaries applied in this task go in one message once it ends. */
  private sendSoon(): void {
    if (this.pairsPending.length === 0) queueMicrotask(() => this.sendPending());
  }

  private sendPending(): void {
    if (this.pairsPending.length === 0) return;
    this.worker.post({ type: viewsTypes.pairs, pairs: this.pairsPending });
    this.pairsPending = [];
  }

  /** A (re)started worker gets the newest universe, the tracked pairs and their summaries. */
  private sendAll(): void {
    this.pairsPending = [];
    this.fundingPending.clear();
    if (this.universeEvent !== null) {
      this.worker.post({ type: viewsTypes.universe, event: this.universeEvent });
    }
    this.worker.post({ type: viewsTypes.tracked, symbols: [...this.trackedSet] });
    const pairs = [...this.tracked].map(([symbol, pair]) => ({ symbol, summary: pair.summary,
      updatedAtMs: pair.updatedAtMs, wallNowMs: pair.lastPublishWallMs }));
    if (pairs.length > 0) this.worker.post({ type: viewsTypes.pairs, pairs });
    const events = this.funding.events();
    if (events.length > 0) this.worker.post({ type: viewsTypes.funding, events });
    this.positioning.sendAll(this.started);
    this.started = true;
  }

  private settle(id: number): void {
    this.refreshes.get(id)?.();
    this.refreshes.delete(id);
  }

  private settleAll(): void {
    for (const resolve of this.refreshes.values()) resolve();
    this.refreshes.clear();
  }
}
