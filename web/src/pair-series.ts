// The Pair page's series, pure: the points, the range buttons, which history pages a range
// reads (fine intervals for short ranges, hourly for everything stored), how the pages join,
// and the CVD made continuous across the UTC days. No DOM, no requests (pair-history.ts).

export interface Point { t: number; open?: number; high?: number; low?: number; close?: number;
  cvd?: number | null; vpin?: number | null; openInterest?: number | null }

/** The range buttons: label and seconds (0: everything stored). */
export const RANGES = [['1h', 3_600], ['4h', 14_400], ['24h', 86_400], ['All', 0]] as const;

export interface Page { interval: '1m' | '5m' | '1h'; limit: number }

const HOURS_MAX = 5_000;

/**
 * The pages a range reads, coarsest first. A range's own points stay below ~300 so each candle
 * is a few pixels wide; "All" reads every stored hour (the API's largest page reaches 208 days,
 * past the 180 kept) and the last day at 5 minutes, which the hourly points do not hold yet
 * (an hour is rolled up once it is over).
 */
export function pagesFor(rangeSeconds: number): Page[] {
  if (rangeSeconds === 0) {
    return [{ interval: '1h', limit: HOURS_MAX }, { interval: '5m', limit: 288 }];
  }
  // One more than the range holds: a range centred on a signal's bar starts mid-interval.
  if (rangeSeconds <= 14_400) return [{ interval: '1m', limit: rangeSeconds / 60 + 1 }];
  return [{ interval: '5m', limit: rangeSeconds / 300 + 1 }];
}

export const SECONDS = { '1m': 60, '5m': 300, '1h': 3_600 } as const;

/** Coarse points up to where the finer ones begin, then the finer ones. */
export function joined(coarse: Point[], fine: Point[]): Point[] {
  if (fine.length === 0) return coarse;
  return [...coarse.filter((p) => p.t < fine[0].t), ...fine];
}

const dayOf = (seconds: number) => Math.floor(seconds / 86_400);

/**
 * The CVD cumulated across days: the service's CVD starts at 0 each 00:00 UTC, so each day's
 * points get the sum of the earlier days' last values added. A day with no point adds nothing
 * (its flow is unknown); a point's day is its interval's open.
 */
export function continuousCvd(points: readonly Point[]): Point[] {
  let carried = 0;
  let last: { day: number; cvd: number } | null = null;
  return points.map((p) => {
    if (typeof p.cvd !== 'number') return p;
    const day = dayOf(p.t);
    if (last !== null && day !== last.day) carried += last.cvd;
    last = { day, cvd: p.cvd };
    return { ...p, cvd: p.cvd + carried };
  });
}
