// The Pair page's history reads: the pages a range needs (pair-series.ts), or the CVD the
// service holds where the history is not on the plan.
import { ApiError, data } from './api.js';
import { joined, pagesFor, SECONDS, type Page, type Point } from './pair-series.js';

async function page(symbol: string, p: Page, atSeconds: number | null, rangeSeconds: number):
  Promise<Point[]> {
  let query = `?metrics=candle,cvd,vpin,openInterest&interval=${p.interval}&limit=${p.limit}`;
  if (atSeconds !== null && rangeSeconds > 0) {
    // Centred on the signal's bar: half the range either side.
    const startMs = (atSeconds - rangeSeconds / 2) * 1000;
    const endMs = startMs + rangeSeconds * 1000 + SECONDS[p.interval] * 1000;
    query += `&start=${Math.floor(startMs)}&end=${Math.floor(endMs)}`;
  }
  const body = await data(`/api/v1/history/${encodeURIComponent(symbol)}${query}`);
  // `t` as ISO 8601 or epoch ms: uPlot's time axis is in seconds.
  return (body.points as any[]).map((point) => ({ ...point,
    t: (typeof point.t === 'number' ? point.t : Date.parse(point.t)) / 1000 }));
}

/**
 * The points of a range, or null where the history is not there to read: not on this plan
 * (403), not served by this front (no history store, 404; a scale-out front catching up, 503).
 * The pair is known to be listed by then, so a 404 is not about the symbol.
 */
export async function history(symbol: string, rangeSeconds: number, atSeconds: number | null):
  Promise<Point[] | null> {
  try {
    let points: Point[] = [];
    for (const p of pagesFor(rangeSeconds)) {
      points = joined(points, await page(symbol, p, atSeconds, rangeSeconds));
    }
    return points;
  } catch (error) {
    if (error instanceof ApiError && [403, 404, 503].includes(error.problem.status)) return null;
    throw error;
  }
}

/** The CVD the service holds (Whale), for a plan below the history's. */
export async function cvdHistory(symbol: string): Promise<Point[]> {
  try {
    const body = await data(`/api/v1/cvd/${encodeURIComponent(symbol)}?interval=1m&limit=500`);
    return (body.points as any[]).map((p) => ({ t: Date.parse(p.time) / 1000, cvd: p.cvd }));
  } catch {
    return [];
  }
}
