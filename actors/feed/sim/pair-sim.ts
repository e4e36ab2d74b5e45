// One simulated pair: clustered (Hawkes) trade arrivals, informed bursts, level sweeps and a
// 20-level book, around the shared reference price path. Deterministic for (seed, symbol, start).
import type { MarketEvent } from '../../../core/messages.js';
import { asDoubleFields } from '../../../kernels/double-fields.js';
import type { SimMarket } from './catalogue.js';
import { isSessionOpen } from './catalogue.js';
import { activity, assetCtxAt, referencePx, roundPx } from './market-model.js';
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
const DEV_HALF_LIFE_MS = 10 * 60_000;
/**
 * Trades a second up to which a trade's impact is whole. A busier pair's trades each move the
 * price less, in proportion, so an informed burst moves a pair about as far whatever its trade
 * rate (~2 % at most for a minute-long burst). Whole impact on BTC's 20 trades a second moved a
 * burst's prints 2-6x away from the reference path.
 */
const WHOLE_IMPACT_TRADES_PER_SEC = 0.2;
/** The most the mid strays from the reference path (log), whatever the flow. */
const DEV_MAX = 0.1;
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
  /** Log deviation of this pair's mid from the shared reference path (impact, bursts). */
  private dev = 0;
  private excitation = 0;
  private baseRatePerSec = 0;
  private levelNotionalUsd = 0;
  private meanNotionalUsd = 0;
  /** Share of the square-root impact each trade has (refreshRates). */
  private impactScale = 1;
  private nowMs: number;
  private nextTradeMs: number;
  private nextBookMs: number;
  private nextCtxMs: number;
  private burstSide: 1 | -1 = 1;
  private burstUntilMs = -Infinity;
  private burstAbsorbed = false;
  private tradeSeq = 0;

  constructor(private readonly seed: number, readonly market: SimMarket,
    private readonly wallets: WalletPicker, startMs: number,
    private readonly options: PairSimOptions = pairSimDefaults) {
    asDoubleFields(this as unknown as Record<string, number>, ['dev', 'excitation']);
    this.rng = new Rng(hashInts(seed, market.stream, Math.floor(startMs / 1000)));
    this.nowMs = startMs;
    this.book = new SimBook(referencePx(seed, market, startMs), market.szDecimals);
    this.refreshRates(startMs);
    this.book.quote(this.mid(startMs), this.levelNotionalUsd, 0, this.rng);
    this.nextTradeMs = startMs;
    this.nextBookMs = startMs;
    this.nextCtxMs = startMs;
    this.tradeSeq = hashInts(seed, market.stream) % 1_000_000 * 1_000_000;
    this.scheduleTrade();
  }

  /** The market time the simulator has reached (its events up to here are out). */
  get reachedMs(): number {
    return this.nowMs;
  }

  /** Emits, in time order, every event with a timestamp up to and including tMs. */
  advanceTo(tMs: number, sink: (event: MarketEvent) => void): void {
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
    return referencePx(this.seed, this.market, tMs) * Math.exp(this.dev);
  }

  private refreshRates(tMs: number): void {
    const volumeUsd = Math.max(2e4, this.market.baseVolumeUsd * activity(this.seed, this.market,
      tMs));
    // Liquid pairs trade up to 20 times a second, the quietest once every 20 s.
    const tradesPerSec = Math.min(20, Math.max(0.05, volumeUsd / 2e8));
    this.baseRatePerSec = tradesPerSec * (1 - ALPHA / BETA);
    this.meanNotionalUsd = volumeUsd / 86_400 / tradesPerSec;
    this.levelNotionalUsd = this.meanNotionalUsd * 2.5;
    this.impactScale = Math.min(1, WHOLE_IMPACT_TRADES_PER_SEC / tradesPerSec);
  }

  private decayTo(tMs: number): void {
    const dtMs = tMs - this.nowMs;
    if (dtMs <= 0) return;
    this.excitation *= Math.exp((-BETA * dtMs) / 1000);
    this.dev *= Math.pow(0.5, dtMs / DEV_HALF_LIFE_MS);
    this.nowMs = tMs;
  }

  /** Ogata thinning: candidate gaps at the current upper bound, accepted in proportion. */
  private scheduleTrade(): void {
    let t = this.nextTradeMs;
    let excitation = this.excitation;
    for (let i = 0; i < 10_000; i++) {
      const burst = t < this.burstUntilMs ? 4 : 1;
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
      1 | -1) : (this.rng.next() < 0.5 - Math.tanh(this.dev * 40) * 0.1 ? 1 : -1);
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
    // Impact: a square-root law in the traded notional, and a full re-quote after a sweep.
    if (!absorbed) {
      const dev = this.dev + side * 0.0004 * this.impactScale *
        Math.sqrt(notionalUsd / this.levelNotionalUsd) * (inBurst ? 2 : 1);
      this.dev = Math.max(-DEV_MAX, Math.min(DEV_MAX, dev));
    }
    this.excitation += ALPHA;
    if (sweep) this.nextBookMs = tMs;
    this.scheduleTrade();
  }

  private maybeStartBurst(tMs: number): void {
    // About one informed burst per pair per half hour, lasting 10 to 60 seconds.
    if (tMs < this.burstUntilMs) return;
    if (this.rng.next() < 1 / (1800 * Math.max(0.05, this.baseRatePerSec * 2.5))) {
      this.burstSide = this.rng.next() < 0.5 ? 1 : -1;
      this.burstUntilMs = tMs + 10_000 + this.rng.int(50_000);
      this.burstAbsorbed = this.rng.next() < ABSORBED_BURST_SHARE;
    }
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
