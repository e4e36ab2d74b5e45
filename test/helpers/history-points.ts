// A 1-minute history point whose every field follows from (symbol, i): tests of the store write
// and read them back.
import type { HistoryPoint } from '../../core/history-point.js';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const MIN = 60_000;

export function minutePoint(symbol: string, i: number, tMs = T0 + i * MIN): HistoryPoint {
  const base = 100 + Math.sin(i / 7) * 5;
  return {
    symbol, tMs, open: base, high: base + 1 + (i % 3), low: base - 1 - (i % 2), close: base + 0.5,
    volume: 1000 + i, openInterest: 5e6 + i, fundingRate: 0.00001 * (i % 5),
    fundingAnnualized: 0.00001 * (i % 5) * 24 * 365 * 100, cvd: i * 10, vpin: i % 4 === 0 ? null
      : 0.3, obi: 0.1, ofi: -i, kyleLambda: 1e-6 * i, signalScore: i % 100,
    regime: i % 2 === 0 ? 'trending' : null,
  };
}
