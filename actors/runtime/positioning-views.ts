// Positioning on the main thread: wallets discovered from the shards' whale prints, their states
// from the universe feed, and the views built from them (smart money, wallets, liquidation maps,
// funding arbitrage, each pair's smart-money split for the deep view).
import type {
  AssetCtx, FundingEvent, MarketMeta, VenueFunding, WalletStateEvent, WhalePrint,
} from '../messages.js';
import type { Logger } from '../logger.js';
import { viewName } from '../topics.js';
import { WalletTracker } from '../positioning/wallet-tracker.js';
import { buildPairPositioning, buildSmartMoneyView, buildWalletsView, buildWalletView }
  from '../positioning/views.js';
import { buildLiquidationMap } from '../positioning/liquidation-map.js';
import { buildFundingArb } from '../positioning/funding-arb.js';
import type { WalletRecord } from '../positioning/types.js';
import { encodeFeedView } from '../views/encode.js';
import type { ViewSink } from './market-views.js';

/** Liquidation bands: 0.5 % wide, 40 each side of the mark (covers +-20 %). */
const liquidationBands = Object.freeze({ bandWidthPct: 0.5, bandsEachSide: 40 });
/** Funding rows kept: one per listed symbol. */
const fundingRowsMax = 4_000;

type Market = MarketMeta & { ctx: AssetCtx };

export class PositioningViews {
  readonly tracker = new WalletTracker();
  private readonly funding = new Map<string, readonly VenueFunding[]>();
  private readonly smartMoney = new Map<string, string>();
  private readonly walletStateTs = new Map<string, number>();
  private fundingAtMs = 0;
  private version = 0;

  constructor(private readonly sink: ViewSink, private readonly cadenceMs: number,
    private readonly log: Logger) {}

  applyFunding(event: FundingEvent): void {
    if (!this.funding.has(event.symbol) && this.funding.size >= fundingRowsMax) return;
    this.funding.set(event.symbol, event.venues);
    this.fundingAtMs = Math.max(this.fundingAtMs, event.tsMs);
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
    return this.smartMoney.get(symbol) ?? emptySmartMoney;
  }

  refreshFunding(): void {
    const rows = [...this.funding].map(([symbol, venues]) => ({ symbol, venues }));
    const body = buildFundingArb(rows);
    this.put('funding-arb', body, this.fundingAtMs);
  }

  /** Rebuilds the wallet views; heavy with many wallets, so it runs on its own slower cadence. */
  refreshWallets(nowMs: number, markets: readonly Market[], tracked: readonly string[]): void {
    const started = Date.now();
    const records = this.tracker.records(nowMs);
    this.put('smart-money', buildSmartMoneyView(records, nowMs), nowMs);
    this.put('wallets', buildWalletsView(records), nowMs);
    for (const record of records) this.putWallet(record, nowMs);
    const bySymbol = groupBySymbol(records);
    const marketBySymbol = new Map(markets.map((m) => [m.symbol, m]));
    for (const symbol of tracked) {
      const holders = bySymbol.get(symbol) ?? [];
      const { smartMoney } = buildPairPositioning(symbol, holders, []);
      this.smartMoney.set(symbol, JSON.stringify(smartMoney));
      const market = marketBySymbol.get(symbol);
      if (!market || !(market.ctx.markPx > 0)) continue;
      const states = holders.flatMap((r) => (r.state ? [r.state] : []));
      const map = buildLiquidationMap(symbol, market.ctx.markPx, states,
        market.ctx.openInterest * market.ctx.markPx, liquidationBands);
      this.put(viewName('liquidation-map', symbol), map, nowMs);
    }
    this.log.debug('positioning views rebuilt', { wallets: records.length,
      tookMs: Date.now() - started });
  }

  private putWallet(record: WalletRecord, nowMs: number): void {
    const stateTs = record.state?.tsMs ?? 0;
    if (this.walletStateTs.get(record.address) === stateTs) return;
    this.walletStateTs.set(record.address, stateTs);
    const view = buildWalletView(record);
    if (view) this.put(viewName('wallets', record.address), view, nowMs);
  }

  private put(name: string, body: object, updatedAtMs: number): void {
    const bytes = encodeFeedView(body as Record<string, unknown>, updatedAtMs, this.cadenceMs);
    this.sink.put(name, bytes, { version: ++this.version, updatedAtMs, cadenceMs: this.cadenceMs,
      data: body });
  }
}

const emptySmartMoney = JSON.stringify(
  buildPairPositioning('', [], []).smartMoney);

function groupBySymbol(records: readonly WalletRecord[]): Map<string, WalletRecord[]> {
  const out = new Map<string, WalletRecord[]>();
  for (const record of records) {
    for (const p of record.state?.positions ?? []) {
      const list = out.get(p.symbol);
      if (list) {
        if (list[list.length - 1] !== record) list.push(record);
      } else out.set(p.symbol, [record]);
    }
  }
  return out;
}
