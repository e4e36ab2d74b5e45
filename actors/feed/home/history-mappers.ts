// Pure mappers from the info endpoint's history answers (candleSnapshot, fundingHistory) to the
// normalized candle and funding events backfill folds in. A bad answer gives a string naming
// the item and field, never a throw: one bad candle refuses the page, not the process.
import type { CandleEvent, FundingEvent } from '../../../core/messages.js';
import { decimal, isRecord, positive } from './numbers.js';

/**
 * `[{t, T, s, i, o, c, h, l, v, n}, ...]`: open time t, close time T (t + interval - 1), prices
 * and base volume as decimal strings. Oldest first as the venue sends them; sorted anyway.
 */
export function parseCandles(raw: unknown, symbol: string, intervalMs: number):
  CandleEvent[] | string {
  if (!Array.isArray(raw)) return 'expected an array of candles';
  const out: CandleEvent[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c: unknown = raw[i];
    if (!isRecord(c)) return `[${i}]: expected an object`;
    if (typeof c.t !== 'number' || !Number.isSafeInteger(c.t) || c.t <= 0) {
      return `[${i}].t: expected an epoch ms integer`;
    }
    const open = positive(c.o);
    const high = positive(c.h);
    const low = positive(c.l);
    const close = positive(c.c);
    const volume = decimal(c.v);
    if ([open, high, low, close].some(Number.isNaN)) return `[${i}]: o, h, l, c must be > 0`;
    if (!(volume >= 0 && volume < Infinity)) return `[${i}].v: expected a number >= 0`;
    if (!(low <= Math.min(open, close) && high >= Math.max(open, close))) {
      return `[${i}]: expected l <= o, c <= h`;
    }
    out.push({ type: 'candle', symbol, tsMs: c.t, intervalMs, open, high, low, close, volume });
  }
  out.sort((a, b) => a.tsMs - b.tsMs);
  return out;
}

/** `[{coin, fundingRate, premium, time}, ...]`: the home venue settles hourly. */
export function parseFundingHistory(raw: unknown, symbol: string): FundingEvent[] | string {
  if (!Array.isArray(raw)) return 'expected an array of funding records';
  const out: FundingEvent[] = [];
  for (let i = 0; i < raw.length; i++) {
    const f: unknown = raw[i];
    if (!isRecord(f)) return `[${i}]: expected an object`;
    if (typeof f.time !== 'number' || !Number.isSafeInteger(f.time) || f.time <= 0) {
      return `[${i}].time: expected an epoch ms integer`;
    }
    const rate = decimal(f.fundingRate);
    if (!Number.isFinite(rate)) return `[${i}].fundingRate: expected a decimal`;
    out.push({ type: 'funding', tsMs: f.time, symbol,
      venues: [{ venue: 'home', rate, intervalHours: 1 }] });
  }
  out.sort((a, b) => a.tsMs - b.tsMs);
  return out;
}
