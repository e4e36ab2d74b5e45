// Plain JSON-ready objects from a pair snapshot, for the views (allocates: call at cadence, not
// per event). Lists are newest first; CVD history is oldest first.
import { SELL_ABSORBED } from './absorption.js';
import type { KernelBar } from './bars.js';
import type { PairAnalyticsSnapshot } from './pair-snapshot.js';
import { BAR_TIMEFRAMES, CVD_INTERVALS } from './timeframes.js';

export interface WhalePrintJson {
  tsMs: number; price: number; notional: number; size: number; side: 'buy' | 'sell';
}
export interface AbsorptionJson {
  tsMs: number; kind: 'sell_absorbed' | 'buy_absorbed'; buyNotional: number;
  sellNotional: number; moveBps: number;
}
export interface CvdPointJson { tsMs: number; cvd: number; delta: number }

export function whalesJson(s: PairAnalyticsSnapshot): WhalePrintJson[] {
  const w = s.whales;
  const list: WhalePrintJson[] = [];
  for (let k = 0; k < w.count; k++) {
    list.push({
      tsMs: w.tsMs[k], price: w.price[k], notional: w.notional[k], size: w.size[k],
      side: w.side[k] > 0 ? 'buy' : 'sell',
    });
  }
  return list;
}

export function absorptionsJson(s: PairAnalyticsSnapshot): AbsorptionJson[] {
  const a = s.absorptions;
  const list: AbsorptionJson[] = [];
  for (let k = 0; k < a.count; k++) {
    list.push({
      tsMs: a.openMs[k], kind: a.kind[k] === SELL_ABSORBED ? 'sell_absorbed' : 'buy_absorbed',
      buyNotional: a.buyNotional[k], sellNotional: a.sellNotional[k], moveBps: a.moveBps[k],
    });
  }
  return list;
}

export function cvdHistoryJson(s: PairAnalyticsSnapshot): Record<string, CvdPointJson[]> {
  const out: Record<string, CvdPointJson[]> = {};
  CVD_INTERVALS.forEach((name, i) => {
    const h = s.cvdHistory[i];
    const points: CvdPointJson[] = [];
    for (let k = 0; k < h.count; k++) {
      points.push({ tsMs: h.tsMs[k], cvd: h.cvd[k], delta: h.delta[k] });
    }
    out[name] = points;
  });
  return out;
}

function barsJson(bars: readonly (KernelBar | null)[]): Record<string, KernelBar | null> {
  const out: Record<string, KernelBar | null> = {};
  BAR_TIMEFRAMES.forEach((name, t) => {
    const b = bars[t];
    out[name] = b === null ? null : { ...b };
  });
  return out;
}

/** Every field of the snapshot as plain data. */
export function pairSnapshotJson(s: PairAnalyticsSnapshot) {
  return {
    tsMs: s.tsMs, price: s.price, lastTradePrice: s.lastTradePrice, markPrice: s.markPrice,
    vpin: s.vpin, vpinLevel: s.vpinLevel, vpinCdf: s.vpinCdf, vpinBvc: s.vpinBvc,
    vpinBvcLevel: s.vpinBvcLevel, cvd: s.cvd, cvdRolling: s.cvdRolling, cvdFlow: s.cvdFlow,
    obi: s.obi, obiTopK: s.obiTopK, ofi: s.ofi,
    ofiLevels: s.ofi === null ? null : Array.from(s.ofiLevels),
    kyleLambda: s.kyleLambda, regime: s.regime, score: s.score, direction: s.direction,
    fundingAnnualizedPct: s.fundingAnnualizedPct, whaleThresholdUsd: s.whaleThresholdUsd,
    lastBars: barsJson(s.lastBars), openBars: barsJson(s.openBars),
    whales: whalesJson(s), absorptions: absorptionsJson(s), cvdHistory: cvdHistoryJson(s),
  };
}
