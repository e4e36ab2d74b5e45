// The per-pair views a shard serializes: deep view (without smartMoney, which the main thread
// splices in from wallet positions) and CVD with its history, plus the cross-pair summary.
import type { PairAnalyticsSnapshot } from '../../kernels/pair-snapshot.js';
import { absorptionsJson, cvdHistoryJson, whalesJson } from '../../kernels/pair-json.js';
import type { Basis, PairSummary, Regime, VpinLevel } from '../../core/messages.js';
import { encodeFeedView, isoMs } from '../views/encode.js';
import { strongEtag } from '../../core/etag.js';

export interface Freshness {
  readonly updatedAtMs: number;
  readonly cadenceMs: number;
  readonly stale: boolean;
  readonly asOfMs: number;
  /** Candles, mixed or trades: what the windows behind these numbers were filled from. */
  readonly basis: Basis;
}

/** Taker addresses of recent whale prints, newest first, matched to the kernel's list by time. */
export type WhaleAddresses = ReadonlyMap<number, string | null>;

export function pairSummary(symbol: string, s: PairAnalyticsSnapshot, f: Freshness): PairSummary {
  return {
    symbol, price: s.price, vpin: s.vpin, vpinLevel: s.vpinLevel as VpinLevel | null,
    cvd: s.cvd, obi: s.obi, ofi: s.ofi, kyleLambda: s.kyleLambda,
    score: s.score === null ? null : Math.round(s.score),
    direction: s.direction, regime: s.regime as Regime | null, stale: f.stale, asOfMs: f.asOfMs,
    basis: f.basis,
  };
}

/** The deep view, closed by the main thread with `"smartMoney":{...}}` (see spliceSmartMoney). */
export function deepViewBody(symbol: string, s: PairAnalyticsSnapshot, addresses: WhaleAddresses,
  f: Freshness): Record<string, unknown> {
  const history = cvdHistoryJson(s)['5m'] ?? [];
  return {
    symbol,
    price: s.price,
    cvd: s.cvd,
    cvdHistory: history.map((p) => ({ time: isoMs(p.tsMs), cvd: p.cvd, delta: p.delta })),
    obi: s.obi,
    ofi: s.ofi,
    vpin: s.vpin,
    vpinLevel: s.vpinLevel,
    kyleLambda: s.kyleLambda,
    whales: whalesJson(s).map((w) => ({
      address: addresses.get(w.tsMs) ?? null, side: w.side, notional: w.notional,
      price: w.price, size: w.size, time: isoMs(w.tsMs),
    })),
    absorption: absorptionsJson(s).map((a) => ({
      time: isoMs(a.tsMs), kind: a.kind, notional: a.buyNotional + a.sellNotional,
      buyNotional: a.buyNotional, sellNotional: a.sellNotional, moveBps: a.moveBps,
    })),
    regime: s.regime,
    signalScore: s.score === null ? null : Math.round(s.score),
    signalDirection: s.direction,
    basis: f.basis,
    stale: f.stale,
    asOf: isoMs(f.asOfMs),
  };
}

/** The CVD view the HTTP front slices by interval and limit: `[tMs, cvd]` pairs, oldest first. */
export function cvdBody(symbol: string, s: PairAnalyticsSnapshot, f: Freshness):
  Record<string, unknown> {
  const history: Record<string, [number, number][]> = {};
  for (const [interval, points] of Object.entries(cvdHistoryJson(s))) {
    history[interval] = points.map((p) => [p.tsMs, p.cvd]);
  }
  return { symbol, cvd: s.cvd, history, basis: f.basis, stale: f.stale, asOf: isoMs(f.asOfMs) };
}

export function encodePairViews(symbol: string, s: PairAnalyticsSnapshot,
  addresses: WhaleAddresses, f: Freshness): Record<string, Uint8Array> {
  return {
    'deep-view': encodeFeedView(deepViewBody(symbol, s, addresses, f), f.updatedAtMs, f.cadenceMs),
    cvd: encodeFeedView(cvdBody(symbol, s, f), f.updatedAtMs, f.cadenceMs),
  };
}

/** Each view's strong ETag, computed here so the main thread serves the bytes without hashing. */
export function etagsOf(views: Readonly<Record<string, Uint8Array>>): Record<string, string> {
  const etags: Record<string, string> = {};
  for (const [kind, bytes] of Object.entries(views)) etags[kind] = strongEtag(bytes);
  return etags;
}
