// Discovers wallets from trades, keeps a bounded set of the most relevant ones, schedules polls
// of their account state and turns what it saw into WalletRecords for the views.
import { limits } from '../../core/config.js';
import type { TradeEvent, WalletStateEvent } from '../../core/messages.js';
import { categorize, defaultCategoryRules, type CategoryRules } from './categorize.js';
import { EntryTiming } from './entry-timing.js';
import { normalizeAddress } from './errors.js';
import type { LabelMap } from './labels.js';
import { selectDue } from './poll-schedule.js';
import { RelevanceHeap } from './relevance-heap.js';
import type { WalletRecord } from './types.js';
import {
  addTrade, createWalletStats, openNotional, realizedBetween, walletMetrics, type WalletStats,
} from './wallet-stats.js';

/** Past this many half-lives from the epoch, scores are rebased before they could overflow. */
const rebaseHalfLivesMax = 256;

export interface WalletTrackerOptions {
  /** Wallets tracked at most. When full, a newcomer evicts the least relevant wallet if it is
   *  more relevant than that one; otherwise the newcomer is refused (and counted). */
  readonly walletsMax: number;
  /** Half-life of the traded-notional and trade-count decay (market time). */
  readonly halfLifeMs: number;
  /** A wallet is polled again this long after its last poll started (poll clock). */
  readonly pollIntervalMs: number;
  /** A poll with no answer after this is handed out again. */
  readonly pollTimeoutMs: number;
  /** Trades at least this large (with a price) are entries whose timing is judged. */
  readonly entryNotionalMinUsd: number;
  readonly largeMovePct: number;
  readonly largeMoveHorizonMs: number;
  readonly pendingEntriesPerSymbolMax: number;
  /** Symbols with a remembered mark; a mark for a new symbol beyond it is ignored. */
  readonly symbolsMax: number;
  readonly rules: CategoryRules;
  readonly labels: LabelMap;
}

export const defaultWalletTrackerOptions: WalletTrackerOptions = Object.freeze({
  walletsMax: limits.walletsTrackedMax,
  halfLifeMs: 24 * 3_600_000,
  pollIntervalMs: 60_000,
  pollTimeoutMs: 30_000,
  entryNotionalMinUsd: 50_000,
  largeMovePct: 5,
  largeMoveHorizonMs: 4 * 3_600_000,
  pendingEntriesPerSymbolMax: 256,
  symbolsMax: limits.marketsMax,
  rules: defaultCategoryRules,
  labels: new Map(),
});

export interface WalletTrackerStats {
  readonly tracked: number;
  readonly admitted: number;
  readonly evicted: number;
  readonly refused: number;
  readonly invalidInputs: number;
  readonly entriesPending: number;
  readonly entriesDropped: number;
}

/**
 * Relevance is decayed activity: each trade adds its notional and each state adds its open
 * notional (replacing the previous state's), all decaying with one half-life. Scores are kept
 * as `usd * 2^((tsMs - epochMs) / halfLife)`, so decay never reorders wallets and a min-heap
 * finds the least relevant one at once; relevance at `now` is `score * 2^(-(now - epoch) / H)`.
 */
export class WalletTracker {
  private readonly options: WalletTrackerOptions;
  private readonly wallets = new Map<string, WalletStats>();
  private readonly heap = new RelevanceHeap<WalletStats>();
  private epochMs = 0;
  private readonly marks = new Map<string, number>();
  private readonly timing: EntryTiming;
  private labels: LabelMap;
  /** Newest market time seen (trades, marks, states): the instant decay is measured to. */
  private marketNowMs = 0;
  private counts = { admitted: 0, evicted: 0, refused: 0, invalidInputs: 0 };

  constructor(options: Partial<WalletTrackerOptions> = {}) {
    this.options = { ...defaultWalletTrackerOptions, ...options };
    const o = this.options;
    if (!Number.isInteger(o.walletsMax) || o.walletsMax < 1) {
      throw new RangeError(`walletsMax must be a positive integer (was ${o.walletsMax})`);
    }
    if (!(o.halfLifeMs > 0) || !(o.pollIntervalMs > 0) || !(o.pollTimeoutMs > 0)) {
      throw new RangeError('halfLifeMs, pollIntervalMs and pollTimeoutMs must be positive');
    }
    this.labels = o.labels;
    this.timing = new EntryTiming({
      largeMovePct: o.largeMovePct, horizonMs: o.largeMoveHorizonMs,
      pendingPerSymbolMax: o.pendingEntriesPerSymbolMax, symbolsMax: o.symbolsMax,
    });
  }

  /** One trade of one wallet. side: +1 the wallet bought, -1 it sold. false when not kept. */
  observeTrade(address: string, notionalUsd: number, side: 1 | -1, symbol: string, tsMs: number,
    price?: number): boolean {
    const key = normalizeAddress(address);
    if (key === null || !(notionalUsd > 0) || !Number.isFinite(notionalUsd) ||
      !Number.isFinite(tsMs) || (side !== 1 && side !== -1)) {
      this.counts.invalidInputs++;
      return false;
    }
    this.advance(tsMs);
    const score = notionalUsd * this.weight(tsMs);
    const wallet = this.admit(key, tsMs, score);
    if (wallet === null) return false;
    addTrade(wallet, notionalUsd, side, tsMs, this.options.halfLifeMs);
    wallet.score += score;
    this.heap.update(wallet);
    if (price !== undefined && price > 0 && notionalUsd >= this.options.entryNotionalMinUsd) {
      this.timing.addEntry(symbol, key, side, price, tsMs);
    }
    return true;
  }

  /** Both sides of a trade print: the buyer bought, the seller sold. */
  observeTradeEvent(trade: TradeEvent): void {
    const notional = trade.price * trade.size;
    const { symbol, tsMs, price } = trade;
    if (trade.buyer !== null) this.observeTrade(trade.buyer, notional, 1, symbol, tsMs, price);
    if (trade.seller !== null) this.observeTrade(trade.seller, notional, -1, symbol, tsMs, price);
  }

  /** A mark price: resolves entry timing and prices closed positions' realized PnL. */
  observeMark(symbol: string, markPx: number, tsMs: number): void {
    if (!(markPx > 0) || !Number.isFinite(markPx) || !Number.isFinite(tsMs)) {
      this.counts.invalidInputs++;
      return;
    }
    this.advance(tsMs);
    if (this.marks.has(symbol) || this.marks.size < this.options.symbolsMax) {
      this.marks.set(symbol, markPx);
    }
    this.timing.observeMark(symbol, markPx, tsMs, (address, prescient) => {
      const wallet = this.wallets.get(address);
      if (wallet === undefined) return;
      wallet.entriesEvaluated++;
      if (prescient) wallet.entriesPrescient++;
    });
  }

  /** A polled (or pushed) account state. false when refused or older than the one held. */
  applyState(event: WalletStateEvent): boolean {
    const key = normalizeAddress(event.address);
    if (key === null || !Number.isFinite(event.tsMs) || !Number.isFinite(event.accountValue)) {
      this.counts.invalidInputs++;
      return false;
    }
    this.advance(event.tsMs);
    const openScore = openNotional(event) * this.weight(event.tsMs);
    const wallet = this.admit(key, event.tsMs, openScore);
    if (wallet === null) return false;
    if (wallet.pollStartedMs !== null) {
      wallet.nextPollMs = wallet.pollStartedMs + this.options.pollIntervalMs;
      wallet.pollStartedMs = null;
    }
    wallet.pollFailures = 0;
    if (wallet.state !== null && event.tsMs < wallet.state.tsMs) return false;
    if (wallet.state !== null) {
      wallet.realizedPnl += realizedBetween(wallet.state, event, (s) => this.marks.get(s) ?? null);
    }
    wallet.state = event;
    wallet.score += openScore - wallet.openScore;
    wallet.openScore = openScore;
    this.heap.update(wallet);
    return true;
  }

  /**
   * Up to `max` addresses to poll now (poll clock), most urgent first: never polled, then by
   * relevance weighted by how overdue they are. They are marked in flight until applyState,
   * pollFailed or the poll timeout.
   */
  dueForPoll(nowMs: number, max: number): string[] {
    const chosen = selectDue(this.wallets.values(), nowMs, max, this.options.pollIntervalMs);
    for (const wallet of chosen) {
      wallet.pollStartedMs = nowMs;
      wallet.nextPollMs = nowMs + this.options.pollTimeoutMs;
    }
    return chosen.map((w) => w.address);
  }

  /** A poll that failed or found nothing: back off linearly, up to 8 intervals. */
  pollFailed(address: string, nowMs: number): void {
    const wallet = this.wallets.get(address.toLowerCase());
    if (wallet === undefined) return;
    wallet.pollStartedMs = null;
    wallet.pollFailures++;
    wallet.nextPollMs = nowMs + this.options.pollIntervalMs * Math.min(wallet.pollFailures, 8);
  }

  setLabels(labels: LabelMap): void {
    this.labels = labels;
  }

  /** Every tracked wallet as a record, ordered by address. nowMs: market time of the view. */
  records(nowMs: number = this.marketNowMs): WalletRecord[] {
    const out: WalletRecord[] = [];
    for (const wallet of this.wallets.values()) out.push(this.toRecord(wallet, nowMs));
    return out.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  }

  /** Every tracked address, in the order of records(): lets a caller build them in slices. */
  addresses(): string[] {
    return [...this.wallets.keys()].sort();
  }

  record(address: string, nowMs: number = this.marketNowMs): WalletRecord | null {
    const key = normalizeAddress(address);
    const wallet = key === null ? undefined : this.wallets.get(key);
    return wallet === undefined ? null : this.toRecord(wallet, nowMs);
  }

  has(address: string): boolean {
    return this.wallets.has(address.toLowerCase());
  }

  get size(): number {
    return this.wallets.size;
  }

  stats(): WalletTrackerStats {
    return {
      tracked: this.wallets.size, ...this.counts,
      entriesPending: this.timing.pendingCount(), entriesDropped: this.timing.droppedCount,
    };
  }

  private advance(tsMs: number): void {
    if (tsMs > this.marketNowMs) this.marketNowMs = tsMs;
    const halfLives = (tsMs - this.epochMs) / this.options.halfLifeMs;
    if (halfLives <= rebaseHalfLivesMax) return;
    // Uniform scaling keeps the heap order; it runs once per ~256 half-lives of market time.
    const factor = Math.pow(2, -halfLives);
    for (const wallet of this.wallets.values()) {
      wallet.score *= factor;
      wallet.openScore *= factor;
    }
    this.epochMs = tsMs;
  }

  /** The normalized weight of a USD amount seen at tsMs. */
  private weight(tsMs: number): number {
    return Math.pow(2, (tsMs - this.epochMs) / this.options.halfLifeMs);
  }

  private toRecord(wallet: WalletStats, nowMs: number): WalletRecord {
    const metrics = walletMetrics(wallet, nowMs, this.options.halfLifeMs);
    const label = this.labels.get(wallet.address) ?? null;
    const decision = label?.category
      ? { category: label.category, reason: 'label file' }
      : categorize(metrics, this.options.rules);
    return {
      address: wallet.address, label: label?.label ?? null,
      category: decision.category, categoryReason: decision.reason,
      state: wallet.state, metrics,
      relevanceUsd: wallet.score * Math.pow(2, -(nowMs - this.epochMs) / this.options.halfLifeMs),
      firstSeenMs: wallet.firstSeenMs, lastActiveMs: wallet.lastActiveMs,
    };
  }

  /** The wallet, admitting it if new; null when the set is full of more relevant wallets. */
  private admit(address: string, tsMs: number, newcomerScore: number): WalletStats | null {
    const known = this.wallets.get(address);
    if (known !== undefined) return known;
    if (this.wallets.size >= this.options.walletsMax) {
      const victim = this.heap.peek();
      if (victim === undefined || victim.score >= newcomerScore) {
        this.counts.refused++;
        return null;
      }
      this.heap.remove(victim);
      this.wallets.delete(victim.address);
      this.counts.evicted++;
    }
    const wallet = createWalletStats(address, tsMs, Number.NEGATIVE_INFINITY);
    this.wallets.set(address, wallet);
    this.heap.push(wallet);
    this.counts.admitted++;
    return wallet;
  }
}
