// Market views for the dashboard's browser test, put into the front's snapshot store the way
// the runtime puts them (feed-view bytes with version, freshness and cadence): a screener of
// a few pairs, their pair details and a CVD history with prices that move, so the pages have
// rows to sort and series to draw without waiting for shards to warm up on a loaded machine.
import { encodeFeedView } from '../../actors/views/encode.js';
import type { SnapshotStore } from '../../http/snapshots.js';

const PAIRS = [
  { symbol: 'BTC', price: 64_250.5, change24h: 1.84, volume24h: 2.1e9, oiBase: 41_000,
    funding: 0.0000125 },
  { symbol: 'ETH', price: 3_180.25, change24h: -0.92, volume24h: 9.8e8, oiBase: 310_000,
    funding: -0.0000041 },
  { symbol: 'SOL', price: 148.731, change24h: 4.12, volume24h: 3.3e8, oiBase: 2.2e6,
    funding: 0.0000302 },
  { symbol: 'DOGE', price: 0.16234, change24h: -2.51, volume24h: 1.2e8, oiBase: 9.1e8,
    funding: 0.0000087 },
];

export function putMarketFixture(snapshots: SnapshotStore, nowMs: number): void {
  const put = (name: string, body: Record<string, unknown>, data: unknown = body) => {
    const version = (snapshots.get(name)?.version ?? 0) + 1;
    snapshots.put(name, encodeFeedView(body, nowMs, 1_000),
      { version, updatedAtMs: nowMs, cadenceMs: 1_000, data });
  };
  const rows = PAIRS.map((p) => ({
    symbol: p.symbol, price: p.price, change24h: p.change24h, volume24h: p.volume24h,
    openInterest: p.oiBase * p.price, fundingRate: p.funding,
    fundingAnnualized: p.funding * 24 * 365 * 100, dex: '', delisted: false, tracked: true,
    stale: false,
  }));
  put('screener', { pairs: rows, count: rows.length });
  for (const [i, row] of rows.entries()) {
    put(`pair/${row.symbol}`, { ...row, vpin: 0.31 + i * 0.07, vpinLevel: 'normal',
      cvd: 1.2e6 * (i + 1), stale: false, asOf: null });
    const minutes = Array.from({ length: 240 }, (_, m) =>
      [nowMs - (240 - m) * 60_000, Math.round(5e5 * Math.sin(m / 17) + m * 4e3)] as const);
    const cvd = { symbol: row.symbol, cvd: minutes[minutes.length - 1][1],
      history: { '1m': minutes }, updatedAt: new Date(nowMs).toISOString(), cadenceMs: 1_000,
      stale: false, asOf: null };
    put(`cvd/${row.symbol}`, cvd, cvd);
  }
  put('funding-arb', { pairs: rows.map((r, i) => ({ symbol: r.symbol, longVenue: 'exchange_b',
    shortVenue: 'home', spreadAnnualized: 3.5 + i * 2.25, openInterest: r.openInterest,
    volume24h: r.volume24h, tracked: r.tracked })) });
  const signals = {
    BTC: { symbol: 'BTC', score: 62, direction: 'LONG', vpin: 0.41, cvd: 2.4e6,
      regime: 'trending', fundingRate: 0.0000125, fundingAnnualized: 10.95, stale: false },
    SOL: { symbol: 'SOL', score: -41, direction: 'SHORT', vpin: 0.58, cvd: -7.1e5,
      regime: 'ranging', fundingRate: 0.0000302, fundingAnnualized: 26.46, stale: false },
  };
  snapshots.put('signals', new TextEncoder().encode(JSON.stringify(signals)),
    { version: 1, updatedAtMs: nowMs, cadenceMs: 1_000, data: signals });
}
