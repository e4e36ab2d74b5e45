// The simulated 20-level book of one pair: quoted around the pair's mid, consumed by trades
// (so sweeps move the best price), re-quoted on every book tick.
import type { Rng } from './rng.js';

export const BOOK_LEVELS = 20;

export interface Fill {
  readonly price: number;
  readonly size: number;
}

/** Book state as flat typed arrays, best level first; sizes in base units. */
export class SimBook {
  readonly bidPx = new Float64Array(BOOK_LEVELS);
  readonly bidSz = new Float64Array(BOOK_LEVELS);
  readonly askPx = new Float64Array(BOOK_LEVELS);
  readonly askSz = new Float64Array(BOOK_LEVELS);
  /** First live level per side (levels before it were swept since the last quote). */
  bidTop = 0;
  askTop = 0;
  readonly tick: number;
  private readonly pxDecimals: number;
  /** 10^pxDecimals and 10^szDecimals: exact doubles (decimals <= 22). */
  private readonly pxScale: number;
  private readonly szScale: number;
  private readonly szStep: number;

  constructor(referencePx: number, readonly szDecimals: number) {
    // Five significant figures, like the venue: the tick is a power of ten.
    const exponent = Math.floor(Math.log10(referencePx)) - 4;
    this.tick = Math.pow(10, exponent);
    this.pxDecimals = Math.max(0, -exponent);
    this.pxScale = Math.pow(10, this.pxDecimals);
    this.szStep = Math.pow(10, -szDecimals);
    this.szScale = Math.pow(10, szDecimals);
  }

  /** Re-quotes both sides around mid; imbalance in (-1, 1) tilts depth toward bids (+). */
  quote(mid: number, levelNotionalUsd: number, imbalance: number, rng: Rng): void {
    const k = Math.floor(mid / this.tick);
    const spreadTicks = levelNotionalUsd < 2_000 ? 2 : 1;
    let bidK = k - (spreadTicks > 1 ? 1 : 0);
    let askK = k + 1;
    for (let i = 0; i < BOOK_LEVELS; i++) {
      const depth = levelNotionalUsd * (1 + 0.15 * i) * Math.exp(0.6 * rng.normal() - 0.18);
      this.bidPx[i] = this.px(bidK);
      this.askPx[i] = this.px(askK);
      this.bidSz[i] = Math.max(this.szStep, this.size((depth * (1 + imbalance)) / this.bidPx[i]));
      this.askSz[i] = Math.max(this.szStep, this.size((depth * (1 - imbalance)) / this.askPx[i]));
      // Gaps of one to three ticks between levels, wider further out.
      bidK -= 1 + (rng.next() < 0.25 + i * 0.02 ? 1 + rng.int(2) : 0);
      askK += 1 + (rng.next() < 0.25 + i * 0.02 ? 1 + rng.int(2) : 0);
    }
    this.bidTop = 0;
    this.askTop = 0;
  }

  mid(): number {
    return (this.bidPx[this.bidTop] + this.askPx[this.askTop]) / 2;
  }

  /**
   * Fills a taker order of `sizeBase` against the opposite side (+1 buy takes asks), level by
   * level; returns the fills. Never empties a side completely: the last level refills.
   */
  take(side: 1 | -1, sizeBase: number, out: Fill[]): void {
    const px = side > 0 ? this.askPx : this.bidPx;
    const sz = side > 0 ? this.askSz : this.bidSz;
    let top = side > 0 ? this.askTop : this.bidTop;
    let remaining = this.size(sizeBase);
    while (remaining > 0) {
      const here = Math.min(remaining, sz[top]);
      if (here > 0) out.push({ price: px[top], size: this.size(here) });
      remaining = this.size(remaining - here);
      sz[top] = this.size(sz[top] - here);
      if (sz[top] > 0) break;
      if (top === BOOK_LEVELS - 1) { sz[top] = this.szStep * 10; break; }
      top++;
    }
    if (side > 0) this.askTop = top;
    else this.bidTop = top;
  }

  /**
   * A taker order of `sizeBase` filled whole at the touch by a hidden (iceberg) order resting
   * there: the displayed levels are unchanged and the best price holds.
   */
  takeAtTouch(side: 1 | -1, sizeBase: number, out: Fill[]): void {
    const size = this.size(sizeBase);
    if (size > 0) out.push({ price: side > 0 ? this.askPx[this.askTop] : this.bidPx[this.bidTop],
      size });
  }

  /** Flat [px0, sz0, px1, sz1, ...] of the live levels, best first. */
  levels(side: 1 | -1): number[] {
    const px = side > 0 ? this.bidPx : this.askPx;
    const sz = side > 0 ? this.bidSz : this.askSz;
    const out: number[] = [];
    for (let i = side > 0 ? this.bidTop : this.askTop; i < BOOK_LEVELS; i++) {
      if (sz[i] > 0) out.push(px[i], sz[i]);
    }
    return out;
  }

  // k ticks and n size steps as the nearest doubles to their decimals: k / 10^d is one correctly
  // rounded division of two exact doubles, the same number Number((k * tick).toFixed(d)) parses
  // back, without the string (40 of each per quote made toFixed a tenth of a warm-up's CPU).
  private px(k: number): number {
    return this.pxDecimals > 0 ? k / this.pxScale : k * this.tick;
  }

  private size(x: number): number {
    const units = Math.max(0, Math.round(x / this.szStep));
    return this.szDecimals > 0 ? units / this.szScale : units;
  }
}
