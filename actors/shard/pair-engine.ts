// The per-pair engine behind a pair actor: folds market events into the kernels synchronously,
// remembers what must leave the shard (whale addresses, closed bars), and builds its views.
import * as kernels from '../../kernels/pair-analytics.js';
import type { PairAnalytics } from '../../kernels/pair-analytics.js';
import {
  createPairSnapshot, snapshotPairAnalytics, snapshotPairForBars, snapshotRecordedScalars,
  type PairAnalyticsSnapshot,
} from '../../kernels/pair-snapshot.js';
import { createCandleSplit, splitCandle } from '../../kernels/candle-split.js';
import type {
  AssetCtx, AssetCtxEvent, BookEvent, CandleEvent, FundingEvent, MarketEvent, PairOutbound,
  PairViews, WhalePrint,
} from '../../core/messages.js';
import { PairCarry } from './pair-carry.js';
import { BasisTracker } from './pair-basis.js';
import { BOOK_LEVELS_MAX, type Mailbox, type MailboxReader } from './mailbox.js';
import {
  createPairViewsMemo, encodePairViews, etagsOf, pairSummary, type Freshness,
} from './pair-views.js';
import { PairSignals } from './pair-signals.js';
import { PairMinutes } from './pair-minutes.js';
import { PairFootprint, pairFootprintOptions } from './pair-footprint.js';
import type { HistoryPoint } from '../../core/history-point.js';
import { captureState, restoreState, StateImageMismatch } from '../../kernels/state-image.js';
import { asDoubleFields } from '../../kernels/double-fields.js';
import {
  decodePairState, encodePairState, optionsFingerprint, PAIR_STATE_FORMAT,
} from './pair-state.js';

// Hot imports are bound to module-local names once: shard workers load TypeScript through tsx's
// CommonJS transform, where every use of an imported binding is a getter call.
const {
  BAR_15M_CLOSED, BAR_1H_CLOSED, BAR_5M_CLOSED, WHALE_PRINT, createPairAnalytics,
  gapPairAnalytics, onBook, onCandlePrint, onFunding, onMark, onTime, onTrade,
  resizePairVpinBucketVolume,
} = kernels;

const barsClosedMask = BAR_5M_CLOSED | BAR_15M_CLOSED | BAR_1H_CLOSED;

export interface PairEngineOptions {
  readonly cadenceMs: number;
  /** The wall clock, for staleness (no data for 3 cadences). */
  readonly wallNowMs?: () => number;
  /**
   * The pair's context from the universe's metaAndAssetCtxs answer (live backfill): VPIN's V
   * before the venue's own ctx, so the backfill's candles fill buckets even if none ever comes.
   */
  readonly context?: AssetCtx;
}

/** What a pair hands its shard once per cadence. */
export interface PairPublish {
  readonly views: PairViews;
  readonly whalePrints: readonly WhalePrint[];
  readonly outbound: readonly PairOutbound[];
  /** 1-minute history points closed since the last publish (sent up on their own). */
  readonly history?: readonly HistoryPoint[];
}

export interface PairEngine {
  onEvent(event: MarketEvent): void;
  /** Applies every event queued in `mailbox` (what the pair actor does per batch). */
  drain(mailbox: Mailbox): number;
  /** Views when anything changed since the last call (or staleness changed), else null. */
  publish(nowMs: number): PairPublish | null;
  /**
   * The pair's state as a saved record (pair-state.ts), null before any market event. Take it
   * right after a publish: what was detected but not yet published is not in it.
   */
  saveState(): Uint8Array | null;
  /** Restores a saved record into this fresh engine: its market time, or why it was refused. */
  restoreState(bytes: Uint8Array): RestoreResult;
}

export type RestoreResult =
  | { readonly restored: true; readonly marketMs: number }
  | { readonly restored: false; readonly reason: string };

/** The engine's own fields a saved state carries (the rest is wall time or per-publish). */
const engineStateFields = ['hasLastTrade', 'lastSide', 'lastBuyer', 'lastSeller',
  'bucketVolumeSet', 'version', 'gapped', 'updatedAtMs'] as const;
/** PairMinutes' fields a saved state carries (not its symbol, nor points not yet taken). */
const minuteStateFields = ['endMs', 'notional', 'openMs', 'open', 'high', 'low', 'close',
  'openInterest', 'fundingRate'] as const;
const basisStateFields = ['candlesUntilMs', 'tradedAfterCandles'] as const;
/** PairCarry's last numbers of a pair's trading (what a closed market shows). */
const carryStateFields = ['kyleLambda', 'score', 'direction'] as const;

/** Book depth the kernels see (the venue sends 20 levels a side). */
const bookLevelsMax = BOOK_LEVELS_MAX;
/** Whale addresses kept for the deep view's list (matches the kernel's list bound). */
const whaleAddressesMax = 64;
/** VPIN buckets per day: V = ADV / 50 (docs/analytics.md, "VPIN"). */
const vpinBucketsPerDay = 50;

/** V in base units from the venue's 24h notional at its mark; 0 while unknown. */
function bucketVolumeOf(ctx: AssetCtx): number {
  return ctx.dayNtlVlm > 0 && ctx.markPx > 0 ? ctx.dayNtlVlm / ctx.markPx / vpinBucketsPerDay : 0;
}

export function createPairEngine(symbol: string, options: PairEngineOptions): PairEngine {
  return new KernelPairEngine(symbol, options);
}

class KernelPairEngine implements PairEngine, MailboxReader {
  private readonly state: PairAnalytics = createPairAnalytics();
  private readonly snapshot: PairAnalyticsSnapshot;
  private readonly bidPx = new Float64Array(bookLevelsMax);
  private readonly bidSz = new Float64Array(bookLevelsMax);
  private readonly askPx = new Float64Array(bookLevelsMax);
  private readonly askSz = new Float64Array(bookLevelsMax);
  private readonly whaleAddresses = new Map<number, string | null>();
  /** The CVD histories' JSON from the last publish (they change when an interval closes). */
  private readonly viewsMemo = createPairViewsMemo();
  private whalePrints: WhalePrint[] = [];
  private outbound: PairOutbound[] = [];
  // The previous trade's taker side and parties: a whale print is attributed to them.
  private hasLastTrade = false;
  private lastSide: 1 | -1 = 1;
  private lastBuyer: string | null = null;
  private lastSeller: string | null = null;
  private bucketVolumeSet = false;
  private version = 0;
  private dirty = false;
  private gapped = false;
  private publishedStale = false;
  private updatedAtMs = 0;
  private lastEventWallMs = 0;
  private readonly wallNowMs: () => number;
  private readonly signals: PairSignals;
  private readonly minutes: PairMinutes;
  /** The scalars a closed minute records (the lists and histories are the views' alone). */
  private readonly snapshotNow = () =>
    this.carry.apply(snapshotRecordedScalars(this.state, this.snapshot));
  private readonly candleSplit = createCandleSplit();
  private readonly basis = new BasisTracker();
  private readonly carry = new PairCarry();
  private readonly footprint: PairFootprint;
  private readonly fingerprint: string;

  constructor(private readonly symbol: string, private readonly options: PairEngineOptions) {
    this.snapshot = createPairSnapshot(this.state.options);
    this.wallNowMs = options.wallNowMs ?? Date.now;
    this.signals = new PairSignals(symbol);
    this.minutes = new PairMinutes(symbol);
    this.footprint = new PairFootprint(symbol);
    this.fingerprint = optionsFingerprint({ kernels: this.state.options,
      detector: this.signals.detectorState.options, footprint: pairFootprintOptions });
    asDoubleFields(this as unknown as Record<string, number>, ['updatedAtMs', 'lastEventWallMs']);
    this.seedBucketVolume();
  }

  /** V from the universe's context while no ctx event set it (at start, after a restore). */
  private seedBucketVolume(): void {
    const bucketVolume = this.options.context ? bucketVolumeOf(this.options.context) : 0;
    if (bucketVolume > 0 && this.state.vpin.buckets.bucketVolume === 0) {
      resizePairVpinBucketVolume(this.state, bucketVolume);
    }
  }

  onEvent(event: MarketEvent): void {
    this.event(event);
    this.lastEventWallMs = this.wallNowMs();
  }

  drain(mailbox: Mailbox): number {
    const count = mailbox.drain(this);
    // One wall-clock read per batch: staleness counts in cadences, a batch takes microseconds.
    if (count > 0) this.lastEventWallMs = this.wallNowMs();
    return count;
  }

  /** MailboxReader: one event that is not a trade or book handed as fields. */
  event(event: MarketEvent): void {
    switch (event.type) {
      case 'trade':
        this.trade(event.tsMs, event.price, event.size, event.side, event.buyer, event.seller);
        return;
      case 'book': this.onBook(event); return;
      case 'ctx': this.onCtx(event); break;
      case 'candle': this.onCandle(event); break;
      case 'funding': if (!this.onFundingEvent(event)) return; break;
      case 'gap':
        gapPairAnalytics(this.state);
        this.footprint.gap();
        this.signals.reset();
        this.gapped = true;
        this.hasLastTrade = false;
        this.dirty = true;
        return;
      default: return;
    }
    this.dirty = true;
    this.gapped = false;
    if (event.tsMs > this.updatedAtMs) this.updatedAtMs = event.tsMs;
  }

  /** MailboxReader: one trade, straight into the kernels. */
  trade(tsMs: number, price: number, size: number, side: 1 | -1, buyer: string | null,
    seller: string | null): void {
    // Trades and books arrive on separate channels: a trade stamped just before the newest book
    // (which already moved market time on) is folded in at that time rather than refused.
    const atMs = Math.max(tsMs, this.state.lastTradeTsMs);
    if (atMs >= this.minutes.endMs) this.minutes.roll(atMs, this.snapshotNow);
    const bits = onTrade(this.state, atMs, price, size, side);
    this.footprint.trade(atMs, price, size, side, this.outbound);
    this.minutes.notional += price * size;
    if (bits !== 0) {
      // A whale print closes when the next print starts: its taker is the previous trade's.
      if ((bits & WHALE_PRINT) !== 0 && this.hasLastTrade) {
        this.recordWhale(this.lastSide, this.lastBuyer, this.lastSeller);
      }
      if ((bits & barsClosedMask) !== 0) this.barsClosed(bits);
    }
    this.basis.onTrade();
    this.hasLastTrade = true;
    this.lastSide = side;
    this.lastBuyer = buyer;
    this.lastSeller = seller;
    this.dirty = true;
    this.gapped = false;
    if (tsMs > this.updatedAtMs) this.updatedAtMs = tsMs;
  }

  private onBook(event: BookEvent): void {
    const bidLevels = copyLevels(event.bids, this.bidPx, this.bidSz);
    const askLevels = copyLevels(event.asks, this.askPx, this.askSz);
    this.book(event.tsMs, this.bidPx, this.bidSz, bidLevels, this.askPx, this.askSz, askLevels);
  }

  /** MailboxReader: one book, levels best first, straight into the kernels. */
  book(tsMs: number, bidPx: Float64Array, bidSz: Float64Array, bidLevels: number,
    askPx: Float64Array, askSz: Float64Array, askLevels: number): void {
    if (tsMs >= this.minutes.endMs) this.minutes.roll(tsMs, this.snapshotNow);
    if (tsMs > this.state.lastTradeTsMs) {
      const bits = onTime(this.state, tsMs);
      if ((bits & WHALE_PRINT) !== 0 && this.hasLastTrade) {
        this.recordWhale(this.lastSide, this.lastBuyer, this.lastSeller);
      }
      if ((bits & barsClosedMask) !== 0) this.barsClosed(bits);
      this.footprint.advance(tsMs, this.outbound);
    }
    onBook(this.state, tsMs, bidPx, bidSz, bidLevels, askPx, askSz, askLevels);
    this.dirty = true;
    this.gapped = false;
    if (tsMs > this.updatedAtMs) this.updatedAtMs = tsMs;
  }

  private onCtx(ctx: AssetCtxEvent): void {
    // Ahead of a backfill, the minute of now would refuse the older candles' points (and lend
    // them today's open interest): the feed sends this context again after the candles.
    if (ctx.beforeFill !== true) {
      if (ctx.tsMs >= this.minutes.endMs) this.minutes.roll(ctx.tsMs, this.snapshotNow);
      this.minutes.onCtx(ctx.markPx, ctx.openInterest, ctx.fundingRate);
    }
    onMark(this.state, ctx.markPx);
    onFunding(this.state, ctx.fundingRate);
    const bucketVolume = bucketVolumeOf(ctx);
    if (!this.bucketVolumeSet && bucketVolume > 0) {
      // The venue's first ctx sets V for the volume to come; buckets filled with the seed's V
      // (a backfill's candles, before this ctx came) stay, scaled to it.
      resizePairVpinBucketVolume(this.state, bucketVolume);
      this.bucketVolumeSet = true;
    }
  }

  /** A settlement of the home venue (backfill's fundingHistory): the hourly rate until a ctx. */
  private onFundingEvent(event: FundingEvent): boolean {
    const home = event.venues.find((v) => v.venue === 'home');
    if (!home || !(home.intervalHours > 0) || !Number.isFinite(home.rate)) return false;
    onFunding(this.state, home.rate / home.intervalHours);
    return true;
  }

  /** A candle (warm-up, backfill): its BVC-split prints go where trades go, but whales. */
  private onCandle(c: CandleEvent): void {
    const split = this.candleSplit;
    const n = splitCandle(split, c.tsMs, c.intervalMs, c.open, c.high, c.low, c.close, c.volume);
    const recorded = this.minutes.onCandle(c.tsMs, c.intervalMs, c.open, c.high, c.low, c.close,
      this.snapshotNow);
    for (let i = 0; i < n; i++) {
      const atMs = Math.max(split.tsMs[i], this.state.lastTradeTsMs);
      const bits = onCandlePrint(this.state, atMs, split.price[i], split.size[i], split.side[i]);
      this.footprint.candlePrint(atMs, split.price[i], this.outbound);
      if (recorded) this.minutes.notional += split.price[i] * split.size[i];
      if ((bits & barsClosedMask) !== 0) this.barsClosed(bits);
    }
    // A whale print is attributed to the trade before it: a candle is none.
    this.hasLastTrade = false;
    this.basis.onCandle(c.tsMs + c.intervalMs);
  }

  private recordWhale(side: 1 | -1, buyer: string | null, seller: string | null): void {
    snapshotPairAnalytics(this.state, this.snapshot);
    const whales = this.snapshot.whales;
    if (whales.count === 0) return;
    const taker = side > 0 ? buyer : seller;
    this.whaleAddresses.set(whales.tsMs[0], taker);
    if (this.whaleAddresses.size > whaleAddressesMax) {
      this.whaleAddresses.delete(this.whaleAddresses.keys().next().value!);
    }
    this.whalePrints.push({
      symbol: this.symbol, tsMs: whales.tsMs[0], price: whales.price[0],
      notional: whales.notional[0], side: whales.side[0] > 0 ? 1 : -1,
      buyer, seller,
    });
  }

  /** Closed bars leave the shard (the store keeps the 5m ones); signals are detected on them. */
  private barsClosed(bits: number): void {
    snapshotPairForBars(this.state, this.snapshot);
    this.carry.remember(this.snapshot);
    this.signals.onBarsClosed(bits & barsClosedMask, this.snapshot, this.state.bars,
      this.outbound);
  }

  publish(): PairPublish | null {
    const stale = this.gapped ||
      this.wallNowMs() - this.lastEventWallMs > 3 * this.options.cadenceMs;
    if (!this.dirty && stale === this.publishedStale) return null;
    this.dirty = false;
    this.publishedStale = stale;
    this.version++;
    const s = this.carry.apply(snapshotPairAnalytics(this.state, this.snapshot));
    const freshness: Freshness = {
      updatedAtMs: this.updatedAtMs, cadenceMs: this.options.cadenceMs, stale,
      asOfMs: s.tsMs ?? this.updatedAtMs, basis: this.basis.basisAt(this.updatedAtMs),
    };
    const views = encodePairViews(this.symbol, s, this.whaleAddresses, freshness,
      this.viewsMemo);
    views.footprint = this.footprint.view(freshness);
    const out: PairPublish = {
      views: {
        symbol: this.symbol, version: this.version, updatedAtMs: this.updatedAtMs,
        summary: pairSummary(this.symbol, s, freshness), views, etags: etagsOf(views),
      },
      whalePrints: this.whalePrints,
      outbound: this.outbound,
      history: this.minutes.take(),
    };
    this.whalePrints = [];
    this.outbound = [];
    return out;
  }

  /** The whole state tree: kernels, detector, candle split, and copies of the class fields. */
  private stateTree() {
    return {
      kernels: this.state, detector: this.signals.detectorState, candleSplit: this.candleSplit,
      minutes: pick(this.minutes, minuteStateFields), basis: pick(this.basis, basisStateFields),
      carry: pick(this.carry, carryStateFields), engine: pick(this, engineStateFields),
      footprint: this.footprint.state, footprintSent: this.footprint.sentTotal,
    };
  }

  saveState(): Uint8Array | null {
    const marketMs = Math.max(this.state.lastTradeTsMs, this.state.lastBookTsMs);
    if (marketMs === -Infinity) return null;
    return encodePairState({
      format: PAIR_STATE_FORMAT, fingerprint: this.fingerprint, symbol: this.symbol, marketMs,
      // Shared typed arrays: the record is encoded right here, before anything changes.
      image: { tree: captureState(this.stateTree(), true), whales: [...this.whaleAddresses] },
    });
  }

  restoreState(bytes: Uint8Array): RestoreResult {
    const record = decodePairState(bytes, this.symbol, this.fingerprint);
    if (typeof record === 'string') return { restored: false, reason: record };
    const image = record.image as { tree?: unknown; whales?: unknown } | null;
    const whales = image?.whales;
    if (!Array.isArray(whales) || whales.length > whaleAddressesMax ||
      !whales.every((w) => Array.isArray(w) && typeof w[0] === 'number' &&
        (w[1] === null || typeof w[1] === 'string'))) {
      return { restored: false, reason: 'whale addresses malformed' };
    }
    const tree = this.stateTree();
    try {
      // Checks the whole image before it writes anything: a refused image changes nothing.
      restoreState(tree, image?.tree);
    } catch (error) {
      if (error instanceof StateImageMismatch) return { restored: false, reason: error.message };
      throw error;
    }
    Object.assign(this.minutes, tree.minutes);
    Object.assign(this.basis, tree.basis);
    Object.assign(this.carry, tree.carry);
    Object.assign(this, tree.engine);
    for (const [tsMs, address] of whales as [number, string | null][]) {
      this.whaleAddresses.set(tsMs, address);
    }
    this.signals.barsSent(this.state.bars);
    this.seedBucketVolume();
    this.dirty = true;
    return { restored: true, marketMs: record.marketMs };
  }
}

/** A plain copy of the named fields of `source` (class instances hold them privately). */
function pick(source: object, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = (source as Record<string, unknown>)[field];
  return out;
}

/** Copies flat [px, sz, ...] levels into typed arrays; returns the level count. */
function copyLevels(flat: readonly number[], px: Float64Array, sz: Float64Array): number {
  const levels = Math.min(px.length, flat.length >> 1);
  for (let i = 0; i < levels; i++) {
    px[i] = flat[2 * i];
    sz[i] = flat[2 * i + 1];
  }
  return levels;
}
