// The Pair page's history reads: the pages a range needs (pair-series.ts), or the CVD the
// service holds where the history is not on the plan.
import { ApiError, data } from './api.js';
import { backPages, joined, pagesFor, SECONDS, type Page, type Point } from './pair-series.js';

interface Answer { points: Point[]; fromMs: number }

async function read(symbol: string, interval: Page['interval'], limit: number,
  window: { startMs: number; endMs: number } | null): Promise<Answer> {
  let query = `?metrics=candle,cvd,vpin,openInterest&interval=${interval}&limit=${limit}`;
  if (window) query += `&start=${Math.floor(window.startMs)}&end=${Math.floor(window.endMs)}`;
  const body = await data(`/api/v1/history/${encodeURIComponent(symbol)}${query}`);
  // `t` as ISO 8601 or epoch ms: uPlot's time axis is in seconds.
  const points = (body.points as any[]).map((point) => ({ ...point,
    t: (typeof point.t === 'number' ? point.t : Date.parse(point.t)) / 1000 }));
  return { points, fromMs: Date.parse(body.coverage?.from ?? '') };
}

async function page(symbol: string, p: Page, atSeconds: number | null, rangeSeconds: number):
  Promise<Point[]> {
  if (atSeconds !== null && rangeSeconds > 0) {
    // Centred on the signal's bar: half the range either side.
    const startMs = (atSeconds - rangeSeconds / 2) * 1000;
    const endMs = startMs + rangeSeconds * 1000 + SECONDS[p.interval] * 1000;
    return (await read(symbol, p.interval, p.limit, { startMs, endMs })).points;
  }
  // Newest first, each page ending where the one after it begins (the service's market time
  // is the first page's end, which the client's clock does not know).
  let points: Point[] = [];
  let endMs: number | null = null;
  for (const size of backPages(p.limit)) {
    const window = endMs === null ? null
      : { startMs: endMs - size * SECONDS[p.interval] * 1000, endMs };
    const answer = await read(symbol, p.interval, size, window);
    points = joined(answer.points, points);
    if (!Number.isFinite(answer.fromMs)) break;
    endMs = answer.fromMs;
  }
  return points;
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
