// Seeded random trade and book streams for the kernel tests, plus the real recorded data.
import { readFileSync } from 'node:fs';
import { venueFixture } from '../../helpers/fixtures.js';

export interface Trades {
  readonly tsMs: number[];
  readonly price: number[];
  readonly size: number[];
  readonly side: (1 | -1)[];
}

/** Park-Miller generator: the same seed gives the same stream on every machine. */
export function rng(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

/**
 * Random trades: same-millisecond bursts, occasional long gaps (hours, days), a random walk
 * price and signs with some autocorrelation. `integerSizes` gives sizes 1..9.
 */
export function randomTrades(seed: number, count: number, integerSizes = false): Trades {
  const r = rng(seed);
  const t: Trades = { tsMs: [], price: [], size: [], side: [] };
  let ts = 1_700_000_000_000 + Math.floor(r() * 86_400_000);
  let price = 100 + r() * 1000;
  let side: 1 | -1 = 1;
  for (let i = 0; i < count; i++) {
    const u = r();
    if (u < 0.001) ts += Math.floor(r() * 2 * 86_400_000);
    else if (u < 0.01) ts += Math.floor(r() * 3_600_000);
    else if (u > 0.3) ts += Math.floor(r() * 3000);
    price *= 1 + (r() - 0.5) * 2e-3;
    if (r() < 0.3) side = side === 1 ? -1 : 1;
    t.tsMs.push(ts);
    t.price.push(price);
    t.size.push(integerSizes ? 1 + Math.floor(r() * 9) : 0.001 + r() * r() * 5);
    t.side.push(side);
  }
  return t;
}

export interface Book {
  readonly tsMs: number;
  readonly bidPx: Float64Array;
  readonly bidSz: Float64Array;
  readonly bidLevels: number;
  readonly askPx: Float64Array;
  readonly askSz: Float64Array;
  readonly askLevels: number;
}

/** Random books around a walking mid: levels 0..depth per side, sometimes crossed. */
export function randomBooks(seed: number, count: number, depth: number): Book[] {
  const r = rng(seed);
  const books: Book[] = [];
  let ts = 1_700_000_000_000;
  let mid = 1000;
  for (let i = 0; i < count; i++) {
    ts += Math.floor(r() * 4000);
    mid += Math.round((r() - 0.5) * 4);
    const bids = Math.floor(r() * (depth + 1));
    const asks = Math.floor(r() * (depth + 1));
    const crossed = r() < 0.02 ? 3 : 0;
    const book: Book = {
      tsMs: ts, bidPx: new Float64Array(depth), bidSz: new Float64Array(depth), bidLevels: bids,
      askPx: new Float64Array(depth), askSz: new Float64Array(depth), askLevels: asks,
    };
    for (let k = 0; k < bids; k++) {
      book.bidPx[k] = mid - 1 - k - (r() < 0.2 ? 1 : 0) * k + crossed;
      book.bidSz[k] = Math.floor(r() * 10) * 0.5;
    }
    for (let k = 0; k < asks; k++) {
      book.askPx[k] = mid + 1 + k;
      book.askSz[k] = Math.floor(r() * 10) * 0.5;
    }
    books.push(book);
  }
  return books;
}

/** The derived Binance BTCUSDT trades CSV in test/fixtures/venue. */
export function realBtcTrades(): Trades {
  const lines = readFileSync(venueFixture('binance_usdm_btcusdt_2024-08-08_trades.csv'),
    'utf8').trim().split('\n');
  const t: Trades = { tsMs: [], price: [], size: [], side: [] };
  for (const line of lines.slice(1)) {
    const c = line.split(',');
    t.tsMs.push(Number(c[0]));
    t.price.push(Number(c[3]));
    t.size.push(Number(c[4]));
    t.side.push(c[5] === 'buy' ? 1 : -1);
  }
  return t;
}

/** The real Hyperliquid l2Book frames (`<ns> <json>` lines) as books of 20 levels. */
export function realL2Books(): Book[] {
  const lines = readFileSync(venueFixture('hl_ws_btc_raw_2025-01-26.txt'), 'utf8')
    .split('\n');
  const books: Book[] = [];
  for (const line of lines) {
    const json = line.slice(line.indexOf(' ') + 1);
    if (!json.includes('"l2Book"')) continue;
    const frame = JSON.parse(json) as {
      data: { time: number; levels: { px: string; sz: string }[][] };
    };
    const [bids, asks] = frame.data.levels;
    const book: Book = {
      tsMs: frame.data.time,
      bidPx: Float64Array.from(bids, (l) => Number(l.px)),
      bidSz: Float64Array.from(bids, (l) => Number(l.sz)),
      askPx: Float64Array.from(asks, (l) => Number(l.px)),
      askSz: Float64Array.from(asks, (l) => Number(l.sz)),
      bidLevels: bids.length, askLevels: asks.length,
    };
    books.push(book);
  }
  return books;
}

/** Relative closeness: |a - b| <= tol * max(1, |a|, |b|). */
export function close(a: number, b: number, tol = 1e-9): boolean {
  if (Number.isNaN(a) && Number.isNaN(b)) return true;
  return Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
}
