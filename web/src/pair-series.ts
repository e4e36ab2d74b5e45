// The Pair page's series, pure: the points, the range buttons, which history pages a range
// reads (fine intervals for short ranges, hourly for everything stored), how the pages join,
// and the CVD made continuous across the UTC days. No DOM, no requests (pair-history.ts).

export interface Point { t: number; open?: number; high?: number; low?: number; close?: number;
  cvd?: number | null; vpin?: number | null; openInterest?: number | null }

/** The range buttons: label and seconds (0: everything stored). */
export const RANGES = [['1h', 3_600], ['4h', 14_400], ['24h', 86_400], ['All', 0]] as const;

export interface Page { interval: '1m' | '5m' | '1h'; limit: number }

const HOURS_MAX = 5_000;
/** The minutes the service keeps (7 days), read back from now in pages of PAGE_MAX. */
export const MINUTES_KEPT = 10_080;
/** The history endpoint's largest page. */
export const PAGE_MAX = 5_000;

/**
 * The pages a range reads, coarsest first. A range's own points stay below ~300 so each candle
 * is a few pixels wide; "All" reads every stored hour (the API's largest page reaches 208 days,
 * past the 180 kept), then the 7 days of minutes the service keeps, which take over from the
 * hours where they begin (uPlot draws the ~10 k points of a week of minutes in a frame).
 */
export function pagesFor(rangeSeconds: number): Page[] {
  if (rangeSeconds === 0) {
    return [{ interval: '1h', limit: HOURS_MAX }, { interval: '1m', limit: MINUTES_KEPT }];
  }
  // One more than the range holds: a range centred on a signal's bar starts mid-interval.
  if (rangeSeconds <= 14_400) return [{ interval: '1m', limit: rangeSeconds / 60 + 1 }];
  return [{ interval: '5m', limit: rangeSeconds / 300 + 1 }];
}

/** A page's limit as the requests read it back from now: newest first, each <= PAGE_MAX. */
export function backPages(limit: number): number[] {
  const sizes: number[] = [];
  for (let left = limit; left > 0; left -= PAGE_MAX) sizes.push(Math.min(left, PAGE_MAX));
  return sizes;
}

export const SECONDS = { '1m': 60, '5m': 300, '1h': 3_600 } as const;

/** Coarse points up to where the finer ones begin, then the finer ones. */
export function joined(coarse: Point[], fine: Point[]): Point[] {
  if (fine.length === 0) return coarse;
  return [...coarse.filter((p) => p.t < fine[0].t), ...fine];
}

/** How the points are spaced: for each step between neighbours, how often and where. */
export interface Spacing { stepSeconds: number; count: number; fromSeconds: number;
  toSeconds: number }

/** The points' spacings, widest step first (hours before minutes on "All"). */
export function spacings(ts: readonly number[]): Spacing[] {
  const byStep = new Map<number, Spacing>();
  for (let i = 1; i < ts.length; i += 1) {
    const stepSeconds = ts[i] - ts[i - 1];
    const seen = byStep.get(stepSeconds);
    if (seen) {
      seen.count += 1;
      seen.toSeconds = ts[i];
    } else {
      byStep.set(stepSeconds,
        { stepSeconds, count: 1, fromSeconds: ts[i - 1], toSeconds: ts[i] });
    }
  }
  return [...byStep.values()].sort((a, b) => b.stepSeconds - a.stepSeconds);
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
