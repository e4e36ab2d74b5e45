// The pair's 1-minute history points (docs/decisions.md "History"): market-time minutes, closed by
// the first event of a later minute. The trade path pays one comparison and one multiply-add;
// the kernels are read once per closed minute. A minute with no event makes no point (a gap).
import type { PairAnalyticsSnapshot } from '../../kernels/pair-snapshot.js';
import type { HistoryPoint } from '../../core/history-point.js';
import { MINUTE_MS } from '../../core/history-point.js';
import type { Regime } from '../../core/messages.js';
import { fundingAnnualizedPct } from '../views/encode.js';
import { HOME_FUNDING_INTERVAL_HOURS } from '../views/pair-detail.js';
import { asDoubleFields } from '../../kernels/double-fields.js';

/** Closed minutes held between two publishes (a max-speed replay closes many per second). */
const pendingPointsMax = 10_000;

const noPoints: readonly HistoryPoint[] = Object.freeze([]);
/** The open minute's number fields (some null until known; kernels/double-fields.ts). */
const minuteNumbers = ['notional', 'openMs', 'open', 'high', 'low', 'close', 'openInterest',
  'fundingRate'];

export class PairMinutes {
  /** End of the open minute; an event at or after it closes the minute first. */
  endMs = -Infinity;
  /** USD notional of the open minute's trades (the engine adds to it per trade). */
  notional = 0;
  private openMs = 0;
  private open: number | null = null;
  private high: number | null = null;
  private low: number | null = null;
  private close: number | null = null;
  private openInterest: number | null = null;
  private fundingRate: number | null = null;
  private points: HistoryPoint[] = [];

  constructor(private readonly symbol: string) {
    asDoubleFields(this as unknown as Record<string, number | null>, minuteNumbers);
  }

  /**
   * Closes the open minute (if any) with the kernels' state now, and opens the minute of
   * `tsMs`. `snapshot` is called only when a minute closes.
   */
  roll(tsMs: number, snapshot: () => PairAnalyticsSnapshot): void {
    if (this.endMs !== -Infinity) this.closeMinute(snapshot());
    this.openMs = tsMs - (tsMs % MINUTE_MS);
    this.endMs = this.openMs + MINUTE_MS;
    this.notional = 0;
    // A minute opens at the previous close: the mark is continuous between updates.
    this.open = this.high = this.low = this.close;
  }

  /**
   * A candle (warm-up, backfill) is one point for its whole length: its open starts the point
   * (closing the minute before), its high, low and close join the point's, and its end is where
   * the next event closes it, so the point carries the kernels at the candle's close, the way a
   * live minute does. Its notional is added print by print by the engine, as for trades. A
   * candle older than the open minute (a live update came first) records nothing. True when
   * the candle joined a point.
   */
  onCandle(openMs: number, intervalMs: number, open: number, high: number, low: number,
    close: number, snapshot: () => PairAnalyticsSnapshot): boolean {
    if (openMs >= this.endMs) this.roll(openMs, snapshot);
    else if (openMs < this.openMs) return false;
    if (this.open === null) this.open = open;
    this.high = this.high === null ? high : Math.max(this.high, high);
    this.low = this.low === null ? low : Math.min(this.low, low);
    this.close = close;
    this.endMs = Math.max(this.endMs, openMs + intervalMs);
    return true;
  }

  /** A mark, open interest (base units) and funding update from the asset context. */
  onCtx(markPx: number, openInterestBase: number, fundingRate: number): void {
    if (Number.isFinite(markPx) && markPx > 0) {
      if (this.open === null) this.open = markPx;
      this.high = this.high === null ? markPx : Math.max(this.high, markPx);
      this.low = this.low === null ? markPx : Math.min(this.low, markPx);
      this.close = markPx;
      if (Number.isFinite(openInterestBase)) this.openInterest = openInterestBase * markPx;
    }
    if (Number.isFinite(fundingRate)) this.fundingRate = fundingRate;
  }

  /**
   * The points closed since the last call, oldest first. Never the live list: a caller may
   * read its answer a turn later (the pair actor's reply crosses a promise), by when a closing
   * minute pushed into a list handed out empty would be sent twice.
   */
  take(): readonly HistoryPoint[] {
    const out = this.points;
    if (out.length === 0) return noPoints;
    this.points = [];
    return out;
  }

  private closeMinute(s: PairAnalyticsSnapshot): void {
    // Before any mark, the candle is the last trade price (flat): better than no candle.
    const fallback = this.open === null ? s.price : null;
    this.points.push({
      symbol: this.symbol, tMs: this.openMs,
      open: this.open ?? fallback, high: this.high ?? fallback, low: this.low ?? fallback,
      close: this.close ?? fallback, volume: this.notional, openInterest: this.openInterest,
      fundingRate: this.fundingRate,
      fundingAnnualized: this.fundingRate === null ? null
        : fundingAnnualizedPct(this.fundingRate, HOME_FUNDING_INTERVAL_HOURS),
      cvd: s.cvd, vpin: s.vpin, obi: s.obi, ofi: s.ofi, kyleLambda: s.kyleLambda,
      signalScore: s.score === null ? null : Math.round(s.score),
      regime: s.regime as Regime | null,
    });
    if (this.points.length > pendingPointsMax) this.points.shift();
  }
}
