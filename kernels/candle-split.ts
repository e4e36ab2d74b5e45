// A candle (open, high, low, close, volume; no trades behind it) as at most four prints that
// trace its path, its volume split into buyer- and seller-initiated parts by bulk volume
// classification (BVC, Easley, Lopez de Prado and O'Hara 2012): buy share = Phi(ln(C/O) / sigma),
// sigma the per-candle volatility learned from the candles' own ranges (Parkinson 1980) over the
// UTC day so far: a fixed window, so a candle splits the same whichever candles came before its
// day (two warm-ups that start apart split a day they share alike).
// Warm-up and venue backfill fill VPIN, CVD, bars, regime and Kyle's lambda from these prints.
import { checkOption } from './check.js';
import { asDoubleFields } from './double-fields.js';
import { normalCdf } from './distributions.js';

/**
 * Prints a candle becomes at most: the opening tick, then open, first extreme, second extreme,
 * close.
 */
export const CANDLE_PRINTS_MAX = 5;
/**
 * The opening tick's share of the candle's volume: a print too small to move any flow figure.
 * The first print of a candle closes the bars before it, and the pair is snapshotted for their
 * signals with that print folded in; were it the open leg's BVC print (sold when the candle
 * rose), every bar's score would see the next candle's direction (docs/feeds.md, Warm start).
 */
const OPENING_TICK_SHARE = 1e-9;
/** Candles the volatility estimate averages over (an EWMA of this span; a day of 5 minutes). */
const SIGMA_SPAN_CANDLES = 288;
const DAY_MS = 86_400_000;
const PARKINSON = 1 / (4 * Math.LN2);
/**
 * Prints of a candle fall within this much of its open: a 1-minute candle's 15 s apart, an
 * hourly one's in its first minutes, so it closes one bar of each timeframe (which the pair
 * snapshots for signal detection), not one per print.
 */
const PRINT_SPAN_MS = 4 * 60_000;

export interface CandleSplit {
  /**
   * EWMA of the Parkinson variance of ln(high / low) per millisecond of candle, so candles of
   * different lengths (hourly far back, minutes near the start) share one estimate.
   */
  variance: number;
  /** Candles of the day with a range folded in (the mean is plain until the span is reached). */
  samples: number;
  /** End of the UTC day the estimate belongs to (-Infinity before the first candle). */
  dayEndMs: number;
  /** The prints of the last split: time, price, size (base units), side (+1 buy, -1 sell). */
  readonly tsMs: Float64Array;
  readonly price: Float64Array;
  readonly size: Float64Array;
  readonly side: Int8Array;
  count: number;
  /** Buy share of the last split's volume (0.5 while sigma is unknown). */
  buyShare: number;
}

export function createCandleSplit(): CandleSplit {
  return asDoubleFields<CandleSplit>({
    variance: 0, samples: 0, dayEndMs: -Infinity, tsMs: new Float64Array(CANDLE_PRINTS_MAX),
    price: new Float64Array(CANDLE_PRINTS_MAX), size: new Float64Array(CANDLE_PRINTS_MAX),
    side: new Int8Array(CANDLE_PRINTS_MAX), count: 0, buyShare: 0.5,
  }, ['variance']);
}

/** Forgets the learned volatility (a reset of the pair's analytics). */
export function resetCandleSplit(s: CandleSplit): void {
  s.variance = 0;
  s.samples = 0;
  s.dayEndMs = -Infinity;
  s.count = 0;
  s.buyShare = 0.5;
}

/**
 * Splits one candle into prints at openMs + k * min(intervalMs, 4 min) / 4 (k = 0..3), after an
 * opening tick at the open that tells nothing of the candle: up candles go open -> low -> high
 * -> close, down ones open -> high -> low -> close; moves down sold, moves up bought, so bars,
 * CVD and Kyle's signed flow see the BVC split. Returns the count.
 */
export function splitCandle(s: CandleSplit, openMs: number, intervalMs: number, open: number,
  high: number, low: number, close: number, volume: number): number {
  checkOption('candle intervalMs', intervalMs, 1, 86_400_000);
  checkOption('candle low', low, Number.MIN_VALUE, Infinity);
  if (!(high >= low && open >= low && open <= high && close >= low && close <= high)) {
    throw new RangeError(`candle OHLC must satisfy low <= open, close <= high (was ` +
      `${open} ${high} ${low} ${close})`);
  }
  if (!(volume >= 0 && volume < Infinity)) {
    throw new RangeError(`candle volume must be a finite number >= 0 (was ${volume})`);
  }
  if (openMs >= s.dayEndMs) {
    // A new UTC day: the estimate starts over from its first candle.
    s.dayEndMs = (Math.floor(openMs / DAY_MS) + 1) * DAY_MS;
    s.variance = 0;
    s.samples = 0;
  }
  const range = Math.log(high / low);
  const sample = (range * range * PARKINSON) / intervalMs;
  s.samples += 1;
  const weight = Math.max(1 / s.samples, 2 / (SIGMA_SPAN_CANDLES + 1));
  s.variance += weight * (sample - s.variance);
  const sigma = Math.sqrt(s.variance * intervalMs);
  s.buyShare = sigma > 0 ? normalCdf(Math.log(close / open) / sigma) : 0.5;
  const buy = volume * s.buyShare;
  const sell = volume - buy;
  const up = close >= open;
  s.count = 0;
  const step = Math.min(intervalMs, PRINT_SPAN_MS) / 4;
  // Its side alternates with the candle's place on its grid: nothing about the candle's path.
  push(s, openMs, open, volume * OPENING_TICK_SHARE,
    Math.floor(openMs / intervalMs) % 2 === 0 ? 1 : -1);
  push(s, openMs, open, up ? sell / 2 : buy / 2, up ? -1 : 1);
  push(s, openMs + step, up ? low : high, up ? sell / 2 : buy / 2, up ? -1 : 1);
  push(s, openMs + 2 * step, up ? high : low, up ? buy / 2 : sell / 2, up ? 1 : -1);
  push(s, openMs + 3 * step, close, up ? buy / 2 : sell / 2, up ? 1 : -1);
  return s.count;
}

function push(s: CandleSplit, tsMs: number, price: number, size: number, side: 1 | -1): void {
  // A side with no volume leaves no print (a trade has a positive size).
  if (!(size > 0)) return;
  const i = s.count++;
  s.tsMs[i] = Math.floor(tsMs);
  s.price[i] = price;
  s.size[i] = size;
  s.side[i] = side;
}
