// The universe's views as the main thread holds them when the views worker builds them: the
// inputs are kept here and sent on (the universe, the tracked pairs, each publish's summaries),
// the shards' per-pair bytes are stored as they came, and the worker's finished screener, pair
// details and signals are swapped into the store as they arrive.
import type { Logger, LogLevel } from '../../core/logger.js';
import type { PairViews, UniverseEvent } from '../../core/messages.js';
import type { ProtocolHandlers } from '../shard/protocol.js';
import type { ScreenerRow } from '../views/pair-detail.js';
import {
  viewsTypes, type FinishedView, type PairSummaryUpdate, type ViewsToMain,
} from '../views-worker/protocol.js';
import { MarketInputs, unpublishedCountOf, type ViewSink } from './market-inputs.js';
import { ViewsWorkerHandle } from './views-worker-handle.js';

export class RemoteMarketViews extends MarketInputs {
  private universeEvent: UniverseEvent | null = null;
  /** Summaries applied since the last post: sent together once the current task ends. */
  private pairsPending: PairSummaryUpdate[] = [];
  private rows: readonly ScreenerRow[] = [];
  private signalsSymbols: ReadonlySet<string> = new Set();
  private readonly refreshes = new Map<number, () => void>();
  private refreshId = 0;
  readonly worker: ViewsWorkerHandle;

  constructor(sink: ViewSink, cadenceMs: number, universeCadenceMs: number, log: Logger,
    logLevel: LogLevel) {
    super(sink, cadenceMs);
    const handlers: ProtocolHandlers<ViewsToMain> = {
      [viewsTypes.put]: (message) => { for (const view of message.views) this.swapIn(view); },
      [viewsTypes.rows]: (message) => {
        this.rows = message.rows;
        this.signalsSymbols = new Set(message.signalsSymbols);
      },
      [viewsTypes.refreshed]: (message) => this.settle(message.id),
    };
    this.worker = new ViewsWorkerHandle({ cadenceMs, universeCadenceMs, logLevel }, {
      handlers, onStart: () => this.sendAll(), onExit: () => this.settleAll(),
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
      if (!this.storePair(pair, wallNowMs).tracked) continue;
      if (this.pairsPending.length === 0) queueMicrotask(() => this.sendPairs());
      this.pairsPending.push({ symbol: pair.symbol, summary: pair.summary,
        updatedAtMs: pair.updatedAtMs, wallNowMs });
    }
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
    if (!this.worker.running) return Promise.resolve();
    const id = ++this.refreshId;
    const done = new Promise<void>((resolve) => this.refreshes.set(id, resolve));
    this.send({ type: viewsTypes.refresh, id, wallNowMs });
    return done;
  }

  /**
   * A finished view into the store. Bytes with the ETag already stored keep their version (a
   * restarted worker builds every view again); otherwise the version follows the stored one.
   */
  private swapIn(view: FinishedView): void {
    const known = this.sink.get(view.name);
    if (known?.etag === view.etag) return;
    this.sink.put(view.name, view.body, { version: (known?.version ?? 0) + 1,
      updatedAtMs: view.updatedAtMs, cadenceMs: view.cadenceMs, etag: view.etag });
  }

  /** Every message goes after the summaries applied before it. */
  private send(message: Parameters<ViewsWorkerHandle['post']>[0]): void {
    this.sendPairs();
    this.worker.post(message);
  }

  private sendPairs(): void {
    if (this.pairsPending.length === 0) return;
    const pairs = this.pairsPending;
    this.pairsPending = [];
    this.worker.post({ type: viewsTypes.pairs, pairs });
  }

  /** A (re)started worker gets the newest universe, the tracked pairs and their summaries. */
  private sendAll(): void {
    this.pairsPending = [];
    if (this.universeEvent !== null) {
      this.worker.post({ type: viewsTypes.universe, event: this.universeEvent });
    }
    this.worker.post({ type: viewsTypes.tracked, symbols: [...this.trackedSet] });
    const pairs = [...this.tracked].map(([symbol, pair]) => ({ symbol, summary: pair.summary,
      updatedAtMs: pair.updatedAtMs, wallNowMs: pair.lastPublishWallMs }));
    if (pairs.length > 0) this.worker.post({ type: viewsTypes.pairs, pairs });
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
