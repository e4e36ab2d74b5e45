// Positioning on the main thread: wallets discovered from the shards' whale prints, their states
// from the universe feed, and the views built from them (smart money, wallets, liquidation maps,
// funding arbitrage, each pair's smart-money split for the deep view).
import type { FundingEvent, WalletStateEvent, WhalePrint } from '../../core/messages.js';
import type { Logger } from '../../core/logger.js';
import { WalletTracker } from '../positioning/wallet-tracker.js';
import { emptySmartMoneyJson } from '../positioning/pair-positioning.js';
import type { FundingArbMarket } from '../positioning/funding-arb.js';
import { FundingArbView } from '../positioning/funding-arb-view.js';
import { PublishedWallets } from '../positioning/published-wallets.js';
import type { LazyViewSource } from '../../core/view-meta.js';
import { encodeFeedView } from '../views/encode.js';
import { viewName } from '../topics.js';
import type { ViewSink } from './market-views.js';
import { runSliced } from './sliced.js';
import { refreshWalletViews, type Market, type WalletRefreshTarget } from './wallet-refresh.js';

/**
 * Main-thread time a wallet refresh takes per event-loop turn before it lets HTTP and the feeds
 * in: a refresh of 10,000 wallets is seconds of work on a loaded core, never one stall. 2 ms (was
 * 8) keeps it out of the front's tail: polls queued behind a slice wait for all of it.
 */
const refreshSliceMs = 2;

/** Where the views go: the HTTP front's SnapshotStore, which also serves lazy view families. */
export interface PositioningSink extends ViewSink {
  mount(prefix: string, source: LazyViewSource): void;
}

export class PositioningViews {
  private readonly fundingArb: FundingArbView;
  private readonly smartMoney = new Map<string, string>();
  private readonly target: WalletRefreshTarget;
  private version = 0;
  private refreshing: Promise<void> | null = null;
  private refreshesSkipped = 0;

  /** `tracker` is the service's (bounded at limits.walletsTrackedMax); tests pass a small one. */
  constructor(private readonly sink: PositioningSink, private readonly cadenceMs: number,
    private readonly log: Logger, readonly tracker = new WalletTracker()) {
    this.fundingArb = new FundingArbView(cadenceMs);
    const published = new PublishedWallets(cadenceMs, () => ++this.version);
    sink.mount(viewName('wallets', ''), published);
    this.target = {
      tracker: this.tracker, published, smartMoney: this.smartMoney, cadenceMs, listBytesHint: 0,
      put: (name, body, updatedAtMs) => this.put(name, body, updatedAtMs),
      putBytes: (name, bytes, data, updatedAtMs) => this.sink.put(name, bytes,
        { version: ++this.version, updatedAtMs, cadenceMs: this.cadenceMs, data }),
    };
  }

  applyFunding(event: FundingEvent): void {
    this.fundingArb.apply(event);
  }

  applyWallet(event: WalletStateEvent): void {
    this.tracker.applyState(event);
  }

  /** Both sides of a large print: the buyer bought (+1), the seller sold (-1). */
  applyWhalePrints(prints: readonly WhalePrint[]): void {
    for (const p of prints) {
      if (p.buyer) this.tracker.observeTrade(p.buyer, p.notional, 1, p.symbol, p.tsMs, p.price);
      if (p.seller) this.tracker.observeTrade(p.seller, p.notional, -1, p.symbol, p.tsMs, p.price);
    }
  }

  /** `"smartMoney":{...}` for a pair's deep view (all categories zero when nothing is known). */
  smartMoneyJson(symbol: string): string {
    return this.smartMoney.get(symbol) ?? emptySmartMoneyJson;
  }

  /** `markets` (the screener rows) give each pair its open interest and volume. */
  refreshFunding(markets: readonly FundingArbMarket[] = []): void {
    const steps = this.refreshFundingSteps(markets);
    while (!steps.next().done) { /* every step, in this call */ }
  }

  /** `refreshFunding` as small steps (the service builds this view in the views worker). */
  *refreshFundingSteps(markets: readonly FundingArbMarket[] = []): Generator<void> {
    const { bytes, body, atMs } = yield* this.fundingArb.buildSteps(markets);
    this.sink.put('funding-arb', bytes, { version: ++this.version, updatedAtMs: atMs,
      cadenceMs: this.cadenceMs, data: body });
  }

  /**
   * Rebuilds the wallet views in slices of ~2 ms (a small set finishes within this call). One
   * rebuild at a time: a call while one runs is skipped and counted, the next cadence catches up.
   */
  refreshWallets(nowMs: number, markets: readonly Market[], tracked: readonly string[]): void {
    if (this.refreshing !== null) {
      this.refreshesSkipped++;
      this.log.debug('wallet refresh still running; skipped', { skipped: this.refreshesSkipped });
      return;
    }
    const startedMs = Date.now();
    const publishedBefore = this.target.published.publishedCount;
    const job = runSliced(refreshWalletViews(this.target, nowMs, markets, tracked),
      refreshSliceMs);
    this.refreshing = job.then(() => {
      this.log.debug('positioning views rebuilt', { wallets: this.tracker.size,
        published: this.target.published.publishedCount - publishedBefore,
        tookMs: Date.now() - startedMs });
    }, (error: Error) => {
      this.log.error('wallet refresh failed', { error: error.message });
    }).finally(() => {
      this.refreshing = null;
    });
  }

  /** Resolves when the wallet refresh in progress (if any) is done. */
  async settled(): Promise<void> {
    await this.refreshing;
  }

  private put(name: string, body: object, updatedAtMs: number): void {
    const bytes = encodeFeedView(body as Record<string, unknown>, updatedAtMs, this.cadenceMs);
    this.sink.put(name, bytes, { version: ++this.version, updatedAtMs, cadenceMs: this.cadenceMs,
      data: body });
  }
}
