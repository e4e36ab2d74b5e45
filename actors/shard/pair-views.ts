// The per-pair views a shard serializes: deep view (without smartMoney, which the main thread
// splices in from wallet positions) and CVD with its history, plus the cross-pair summary.
import type { PairAnalyticsSnapshot } from '../../kernels/pair-snapshot.js';
import { absorptionsJson, whalesJson } from '../../kernels/pair-json.js';
import { CVD_INTERVALS } from '../../kernels/timeframes.js';
import type { Basis, PairSummary, Regime, VpinLevel } from '../../core/messages.js';
import { encodeFeedViewAfter, isoMs } from '../views/encode.js';
import { jsonNumber, ListJsonMemo, type RowJson } from '../views/list-json-memo.js';
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

/** What a pair keeps between publishes to serialize its CVD histories (list-json-memo.ts). */
export interface PairViewsMemo {
  /** The deep view's 5m history. */
  readonly deep: ListJsonMemo;
  /** The CVD view's history, one per interval of CVD_INTERVALS. */
  readonly cvd: readonly ListJsonMemo[];
}

const deepPoint: RowJson = (c, i) => `{"time":"${isoMs(c[0]![i]!)}","cvd":` +
  `${jsonNumber(c[1]![i]!)},"delta":${jsonNumber(c[2]![i]!)}}`;
const cvdPoint: RowJson = (c, i) => `[${jsonNumber(c[0]![i]!)},${jsonNumber(c[1]![i]!)}]`;

export function createPairViewsMemo(): PairViewsMemo {
  return { deep: new ListJsonMemo(deepPoint),
    cvd: CVD_INTERVALS.map(() => new ListJsonMemo(cvdPoint)) };
}

const deepIntervalIndex = CVD_INTERVALS.indexOf('5m');
const jsonOf = (x: number | null) => (x === null ? 'null' : jsonNumber(x));

/**
 * The deep view, closed by its shard with `"smartMoney":{...}}` (splice-field.ts):
 * symbol, price, cvd, the 5m CVD history as `{time, cvd, delta}` points, then the rest.
 */
function encodeDeepView(symbol: string, s: PairAnalyticsSnapshot, addresses: WhaleAddresses,
  f: Freshness, memo: PairViewsMemo): Uint8Array {
  const h = s.cvdHistory[deepIntervalIndex]!;
  const head = `"symbol":${JSON.stringify(symbol)},"price":${jsonOf(s.price)},` +
    `"cvd":${jsonOf(s.cvd)},"cvdHistory":${memo.deep.json([h.tsMs, h.cvd, h.delta], h.count)}`;
  return encodeFeedViewAfter(head, {
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
  }, f.updatedAtMs, f.cadenceMs);
}

/** The CVD view the HTTP front slices by interval and limit: `[tMs, cvd]` pairs, oldest first. */
function encodeCvdView(symbol: string, s: PairAnalyticsSnapshot, f: Freshness,
  memo: PairViewsMemo): Uint8Array {
  const history = CVD_INTERVALS.map((name, i) => {
    const h = s.cvdHistory[i]!;
    return `${JSON.stringify(name)}:${memo.cvd[i]!.json([h.tsMs, h.cvd], h.count)}`;
  });
  const head = `"symbol":${JSON.stringify(symbol)},"cvd":${jsonOf(s.cvd)},` +
    `"history":{${history.join(',')}}`;
  return encodeFeedViewAfter(head, { basis: f.basis, stale: f.stale, asOf: isoMs(f.asOfMs) },
    f.updatedAtMs, f.cadenceMs);
}

/** A pair's views; `memo` (the pair's own, kept between calls) spares re-serializing. */
export function encodePairViews(symbol: string, s: PairAnalyticsSnapshot,
  addresses: WhaleAddresses, f: Freshness, memo = createPairViewsMemo()):
  Record<string, Uint8Array> {
  return {
    'deep-view': encodeDeepView(symbol, s, addresses, f, memo),
    cvd: encodeCvdView(symbol, s, f, memo),
  };
}

/** Each view's strong ETag, computed here so the main thread serves the bytes without hashing. */
export function etagsOf(views: Readonly<Record<string, Uint8Array>>): Record<string, string> {
  const etags: Record<string, string> = {};
  for (const [kind, bytes] of Object.entries(views)) etags[kind] = strongEtag(bytes);
  return etags;
}
