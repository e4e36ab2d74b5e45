// One simulated pair: clustered (Hawkes) trade arrivals, noise and informed bursts, level sweeps
// and a 20-level book. Its market makers learn from the flow (Kyle 1985, Glosten-Milgrom 1985):
// every trade moves the mid for good, informed traders trade toward the latent fundamental
// (fundamental.ts) in bursts, so the flow carries the news into the price. Deterministic for
// (seed, symbol, start).
import type { MarketEvent } from '../../../core/messages.js';
import { asDoubleFields } from '../../../kernels/double-fields.js';
import type { SimMarket } from './catalogue.js';
import { isSessionOpen } from './catalogue.js';
import { fundamentalLog, nextJumpAfter, unlearnedLog } from './fundamental.js';
import { activity, assetCtxAt, roundPx } from './market-model.js';
import { Rng, hashInts } from './rng.js';
import { SimBook, type Fill } from './sim-book.js';
import type { WalletPicker } from './wallet-picker.js';

export interface PairSimOptions {
  readonly bookIntervalMs: number;
  readonly ctxIntervalMs: number;
}
export const pairSimDefaults: PairSimOptions = { bookIntervalMs: 500, ctxIntervalMs: 3_000 };

// Hawkes excitation: each trade adds ALPHA to the intensity, decaying at BETA per second.
// Branching ratio ALPHA / BETA = 0.6, so 60 % of trades are triggered by earlier ones.
const ALPHA = 1.2;
const BETA = 2;
/**
 * Log impact of a typical trade (sqrt-law in its notional) on a pair trading once a second; a
 * busier pair's trades each move it less, by the square root of its rate, so the noise flow's
 * random walk has about the same size on every pair (Kyle's lambda falls with noise volume).
 */
const IMPACT_PER_TRADE = 0.00002;
/** Half-life of the transient part of impact (what the null world's flow does to the price). */
const TRANSIENT_HALF_LIFE_MS = 2 * 60_000;
/** The most the transient part moves the mid (log). */
const TRANSIENT_MAX = 0.02;
/**
 * Informed traders wait for a gap to the fundamental of at least this share of the daily
 * volatility before trading: below it the noise flow's own trace would be all they traded on.
 */
const INFORMED_GAP_MIN_VOL_SHARE = 0.05;
/**
 * Mean wait between informed bursts at a gap of a tenth of the daily volatility; a wider gap is
 * traded more often, in proportion (Kyle's informed trade in proportion to what they know). The
 * pace matches fundamental.ts discoveryMs: a burst closes a fifth of the gap.
 */
const INFORMED_EVERY_MS = 45 * 60_000;
const INFORMED_WAIT_MIN_MS = 6 * 60_000;
/** Trade rate in a burst, as a multiple of the base rate: noise herding, informed urgency. */
const NOISE_BURST_RATE = 4;
const INFORMED_BURST_RATE = 10;
/** An informed burst stops once the gap has shrunk to this share of where it began. */
const INFORMED_BURST_GAP_LEFT = 0.8;
/** Mean wait between noise bursts (herding of uninformed traders, either side). */
const NOISE_BURST_EVERY_MS = 45 * 60_000;
/**
 * Share of informed bursts met by a hidden passive order (an iceberg) at the touch: the burst's
 * aggression fills there without moving the price, the footprint absorption detectors look for
 * (heavy one-sided flow, flat price, the book leaning against the flow).
 */
const ABSORBED_BURST_SHARE = 0.35;

export class PairSimulator {
  private readonly rng: Rng;
  private readonly book: SimBook;
  private readonly fills: Fill[] = [];
  /**
   * What the market makers have not yet learned of the fundamental (log): the mid is the
   * fundamental less this, plus the transient impact. Informed flow closes it; noise flow moves
   * it both ways; the private share of every fundamental jump opens it.
   */
  private gap = 0;
  /** Transient impact (log), decaying with TRANSIENT_HALF_LIFE_MS. */
  private transient = 0;
  /** Kyle's lambda and the transient impact of a typical trade on this pair (refreshRates). */
  private permanentImpact = 0;
  private transientImpact = 0;
  /** The next fundamental jump the gap takes up, and its log size. */
  private readonly jump = { tMs: 0, size: 0 };
  private excitation = 0;
  private baseRatePerSec = 0;
  private levelNotionalUsd = 0;
  private meanNotionalUsd = 0;
  private nowMs: number;
  private advancedMs: number;
  private nextTradeMs: number;
  private nextBookMs: number;
  private nextCtxMs: number;
  private burstSide: 1 | -1 = 1;
  private burstUntilMs = -Infinity;
  private burstAbsorbed = false;
  /** An informed burst: it stops when the gap is back to burstGapStop. */
  private burstInformed = false;
  private burstRate = 1;
  private burstGapStop = 0;
  private tradeSeq = 0;

  constructor(private readonly seed: number, readonly market: SimMarket,
    private readonly wallets: WalletPicker, startMs: number,
    private readonly options: PairSimOptions = pairSimDefaults) {
    asDoubleFields(this as unknown as Record<string, number>,
      ['gap', 'transient', 'excitation']);
    this.rng = new Rng(hashInts(seed, market.stream, Math.floor(startMs / 1000)));
    this.nowMs = startMs;
    this.advancedMs = startMs;
    // Starts where the warm-up's candles end: the average market's unlearned part at startMs.
    this.gap = unlearnedLog(seed, market, market.informedShare, startMs);
    nextJumpAfter(seed, market, startMs, this.jump);
    this.book = new SimBook(this.mid(startMs), market.szDecimals);
    this.refreshRates(startMs);
    this.book.quote(this.mid(startMs), this.levelNotionalUsd, 0, this.rng);
    this.nextTradeMs = startMs;
    this.nextBookMs = startMs;
    this.nextCtxMs = startMs;
    this.tradeSeq = hashInts(seed, market.stream) % 1_000_000 * 1_000_000;
    this.scheduleTrade();
  }

  /**
   * The market time the simulator has reached (its events up to here are out): the furthest
   * advance, not its last event, so a quiet pair is not forever behind its pacer.
   */
  get reachedMs(): number {
    return this.advancedMs;
  }

  /** Emits, in time order, every event with a timestamp up to and including tMs. */
  advanceTo(tMs: number, sink: (event: MarketEvent) => void): void {
    if (tMs > this.advancedMs) this.advancedMs = tMs;
    for (;;) {
      const next = Math.min(this.nextTradeMs, this.nextBookMs, this.nextCtxMs);
      if (next > tMs) break;
      this.decayTo(next);
      if (next === this.nextBookMs) this.emitBook(next, sink);
      else if (next === this.nextCtxMs) this.emitCtx(next, sink);
      else this.emitTrades(next, sink);
    }
    // No decay to tMs itself: the state moves only at events, so the events do not depend on
    // how market time was cut into advances (a warm-up's slices, the pacer's ticks, a restart).
  }

  private mid(tMs: number): number {
    return this.market.basePx *
      Math.exp(fundamentalLog(this.seed, this.market, tMs) - this.gap + this.transient);
  }

  private refreshRates(tMs: number): void {
    const volumeUsd = Math.max(2e4, this.market.baseVolumeUsd * activity(this.seed, this.market,
      tMs));
    // Liquid pairs trade up to 20 times a second, the quietest once every 20 s.
    const tradesPerSec = Math.min(20, Math.max(0.05, volumeUsd / 2e8));
    this.baseRatePerSec = tradesPerSec * (1 - ALPHA / BETA);
    this.meanNotionalUsd = volumeUsd / 86_400 / tradesPerSec;
    this.levelNotionalUsd = this.meanNotionalUsd * 2.5;
    const impact = IMPACT_PER_TRADE / Math.sqrt(tradesPerSec);
    this.permanentImpact = impact * this.market.informedShare;
    this.transientImpact = impact * (1 - this.market.informedShare);
  }

  private decayTo(tMs: number): void {
    const dtMs = tMs - this.nowMs;
    if (dtMs <= 0) return;
    this.excitation *= Math.exp((-BETA * dtMs) / 1000);
    this.transient *= Math.pow(0.5, dtMs / TRANSIENT_HALF_LIFE_MS);
    // News: the private share of a jump is what the market makers have yet to learn.
    for (let i = 0; i < 8 && this.jump.tMs <= tMs; i++) {
      this.gap += this.market.informedShare * this.jump.size;
      nextJumpAfter(this.seed, this.market, this.jump.tMs, this.jump);
    }
    this.nowMs = tMs;
  }

  /** Ogata thinning: candidate gaps at the current upper bound, accepted in proportion. */
  private scheduleTrade(): void {
    let t = this.nextTradeMs;
    let excitation = this.excitation;
    for (let i = 0; i < 10_000; i++) {
      const burst = t < this.burstUntilMs ? this.burstRate : 1;
      const upper = this.baseRatePerSec * burst + excitation;
      const gapMs = Math.max(1, Math.round(this.rng.exponential(upper) * 1000));
      excitation *= Math.exp((-BETA * gapMs) / 1000);
      t += gapMs;
      if (this.rng.next() * upper <= this.baseRatePerSec * burst + excitation) break;
    }
    this.nextTradeMs = t;
  }

  private emitTrades(tMs: number, sink: (event: MarketEvent) => void): void {
    if (!isSessionOpen(this.market.session, tMs)) {
      this.nextTradeMs = tMs + 60_000;
      return;
    }
    this.maybeStartBurst(tMs);
    const inBurst = tMs < this.burstUntilMs;
    const side: 1 | -1 = inBurst ? (this.rng.next() < 0.8 ? this.burstSide : -this.burstSide as
      1 | -1) : (this.rng.next() < 0.5 ? 1 : -1);
    // Into an iceberg (an absorbed burst's side): no sweep, the fill at the touch, no impact.
    const absorbed = inBurst && this.burstAbsorbed && side === this.burstSide;
    const sweep = !absorbed && this.rng.next() < (inBurst ? 0.06 : 0.008);
    const notionalUsd = sweep ? this.levelNotionalUsd * (3 + this.rng.int(5))
      : this.meanNotionalUsd * Math.exp(0.9 * this.rng.normal() - 0.4) * (inBurst ? 2.5 : 1);
    this.fills.length = 0;
    if (absorbed) this.book.takeAtTouch(side, notionalUsd / this.book.mid(), this.fills);
    else this.book.take(side, notionalUsd / this.book.mid(), this.fills);
    const taker = this.wallets.taker(this.rng, inBurst);
    for (const fill of this.fills) {
      const maker = this.wallets.maker(this.rng);
      sink({ type: 'trade', symbol: this.market.symbol, tsMs: tMs, price: fill.price,
        size: fill.size, side, tradeId: String(++this.tradeSeq),
        buyer: side > 0 ? taker : maker, seller: side > 0 ? maker : taker });
    }
    // Impact: a square-root law in the traded notional, the same for every taker (the market
    // makers cannot tell who knows); a full re-quote after a sweep.
    if (!absorbed) {
      const size = side * Math.sqrt(notionalUsd / this.levelNotionalUsd);
      this.gap -= size * this.permanentImpact;
      this.transient = Math.max(-TRANSIENT_MAX, Math.min(TRANSIENT_MAX,
        this.transient + size * this.transientImpact));
    }
    if (this.burstInformed && inBurst && this.gap * this.burstSide <= this.burstGapStop) {
      this.burstUntilMs = tMs;
    }
    this.excitation += ALPHA;
    if (sweep) this.nextBookMs = tMs;
    this.scheduleTrade();
  }

  private maybeStartBurst(tMs: number): void {
    // Bursts last 10 to 60 seconds. Noise bursts come about once per pair per half hour, either
    // side; informed ones while the price is away from the fundamental, toward it.
    if (tMs < this.burstUntilMs) return;
    const tradesPerMs = Math.max(0.05, this.baseRatePerSec * 2.5) / 1000;
    const gapVol = Math.abs(this.gap) / this.market.dailyVol;
    const waitMs = Math.max(INFORMED_WAIT_MIN_MS, INFORMED_EVERY_MS * 0.1 / gapVol);
    const informed = gapVol >= INFORMED_GAP_MIN_VOL_SHARE &&
      this.rng.next() < 1 / (waitMs * tradesPerMs);
    if (!informed && !(this.rng.next() < 1 / (NOISE_BURST_EVERY_MS * tradesPerMs))) return;
    this.burstSide = informed ? (this.gap > 0 ? 1 : -1) : this.rng.next() < 0.5 ? 1 : -1;
    this.burstUntilMs = tMs + 10_000 + this.rng.int(50_000);
    this.burstAbsorbed = this.rng.next() < ABSORBED_BURST_SHARE;
    this.burstInformed = informed;
    this.burstRate = informed ? INFORMED_BURST_RATE : NOISE_BURST_RATE;
    this.burstGapStop = Math.abs(this.gap) * INFORMED_BURST_GAP_LEFT;
  }

  private emitBook(tMs: number, sink: (event: MarketEvent) => void): void {
    const open = isSessionOpen(this.market.session, tMs);
    // Depth leans with an informed burst, and against it when an iceberg absorbs it.
    const lean = tMs < this.burstUntilMs ? 0.35 * this.burstSide * (this.burstAbsorbed ? -1 : 1)
      : 0;
    const imbalance = Math.max(-0.8, Math.min(0.8, lean + 0.3 * this.rng.normal() * 0.5));
    this.book.quote(this.mid(tMs), this.levelNotionalUsd * (open ? 1 : 0.3), imbalance, this.rng);
    sink({ type: 'book', symbol: this.market.symbol, tsMs: tMs, bids: this.book.levels(1),
      asks: this.book.levels(-1) });
    // Quiet pairs update their book less often (up to 10x the base interval), as on the venue.
    const quiet = Math.min(10, Math.max(1, 10 * (1 - ALPHA / BETA) / this.baseRatePerSec));
    const intervalMs = Math.round(this.options.bookIntervalMs * (open ? quiet : 10));
    this.nextBookMs = tMs + intervalMs;
  }

  private emitCtx(tMs: number, sink: (event: MarketEvent) => void): void {
    this.refreshRates(tMs);
    const ctx = assetCtxAt(this.seed, this.market, tMs);
    const mid = roundPx(this.book.mid());
    sink({ type: 'ctx', symbol: this.market.symbol, tsMs: tMs, ...ctx, markPx: mid,
      midPx: ctx.midPx === null ? null : mid });
    this.nextCtxMs = tMs + this.options.ctxIntervalMs;
  }
}
