// One recorded history point of a tracked pair (docs/decisions.md "History"): the pair's figures
// over one interval, time-stamped with the interval's open in market time. Shards make
// 1-minute points, the store keeps them and rolls them up to 1-hour points.
import { REGIMES, type Regime } from './messages.js';

/** The numeric fields of a point, in their stored order (a point is stored as one row). */
export const HISTORY_FIELDS = [
  'open', 'high', 'low', 'close', 'volume', 'openInterest', 'fundingRate',
  'fundingAnnualized', 'cvd', 'vpin', 'obi', 'ofi', 'kyleLambda', 'signalScore',
] as const;
export type HistoryField = (typeof HISTORY_FIELDS)[number];

export interface HistoryPoint {
  readonly symbol: string;
  /** The interval's open, epoch ms (market time), aligned to the interval in UTC. */
  readonly tMs: number;
  /** Mark-price candle. */
  readonly open: number | null;
  readonly high: number | null;
  readonly low: number | null;
  readonly close: number | null;
  /** USD notional traded in the interval. */
  readonly volume: number;
  /** Open interest in USD (base units at the mark) at the interval's close. */
  readonly openInterest: number | null;
  /** Raw funding rate per settlement interval, and annualized in percent. */
  readonly fundingRate: number | null;
  readonly fundingAnnualized: number | null;
  readonly cvd: number | null;
  readonly vpin: number | null;
  readonly obi: number | null;
  readonly ofi: number | null;
  readonly kyleLambda: number | null;
  readonly signalScore: number | null;
  readonly regime: Regime | null;
}


export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** The regime as a small number for storage (-1 for none). */
export function regimeCode(regime: Regime | null): number {
  return regime === null ? -1 : REGIMES.indexOf(regime);
}

export function regimeOfCode(code: number): Regime | null {
  return REGIMES[code] ?? null;
}
