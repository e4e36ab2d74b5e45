// What a pair's numbers rest on (docs/decisions.md, Warm start): candles only (warm-up or backfill
// with no trade since), candles and trades (trade-based windows still filling), or trades.
import type { Basis } from '../../core/messages.js';

/**
 * Market time after the newest candle until every window is trade-based again: the longest
 * windows (VPIN's 50 buckets of ADV / 50, CVD's rolling day, whale quantiles) span about a day.
 */
export const candleWindowMs = 86_400_000;

export class BasisTracker {
  /** End of the newest candle folded in (market time); -Infinity when none ever was. */
  private candlesUntilMs = -Infinity;
  private tradedAfterCandles = false;

  onCandle(endMs: number): void {
    if (endMs > this.candlesUntilMs) this.candlesUntilMs = endMs;
    this.tradedAfterCandles = false;
  }

  onTrade(): void {
    this.tradedAfterCandles = true;
  }

  basisAt(marketNowMs: number): Basis {
    if (this.candlesUntilMs === -Infinity) return 'trades';
    if (!this.tradedAfterCandles) return 'candles';
    return marketNowMs - this.candlesUntilMs < candleWindowMs ? 'mixed' : 'trades';
  }
}
