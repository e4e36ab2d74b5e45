// The caller-owned snapshot of one pair's analytics: everything the pair, signals, deep-view
// and CVD views need, filled without allocation (allocate it once with createPairSnapshot).
import {
  createAbsorptionSnapshot, snapshotAbsorption, type AbsorptionSnapshot,
} from './absorption.js';
import { createKernelBar, lastClosedBar, openBar, type KernelBar } from './bars.js';
import { asDoubleFields } from './double-fields.js';
import {
  cvdFlowRatio, cvdRolling, readCvdHistory, snapshotCvdDay, type CvdSnapshot,
} from './cvd.js';
import { snapshotKyle, type KyleSnapshot } from './kyle.js';
import { snapshotObi, type ObiSnapshot } from './obi.js';
import { createOfiSnapshot, ofiNormalized, snapshotOfi, type OfiSnapshot } from './ofi.js';
import type { PairAnalytics } from './pair-analytics.js';
import type { PairAnalyticsOptions } from './pair-options.js';
import { regimeName, type RegimeName } from './regime.js';
import { compositeScore, DIRECTION_NAMES, directionOf, type DirectionName } from './score.js';
import { BAR_TIMEFRAMES, CVD_INTERVALS } from './timeframes.js';
import { refreshVpinLevel, vpinLevelName, type VpinLevelName } from './vpin-level.js';
import { snapshotVpin, type VpinSnapshot } from './vpin.js';
import { createWhaleSnapshot, snapshotWhale, whaleFlowRatio, type WhaleSnapshot } from './whale.js';

/** Newest CVD history points of one interval, oldest first: count valid entries. */
export interface CvdHistorySnapshot {
  count: number;
  readonly tsMs: Float64Array;
  readonly cvd: Float64Array;
  readonly delta: Float64Array;
}

export interface PairAnalyticsSnapshot {
  /** Newest trade or book time folded in (market time), null before any. */
  tsMs: number | null;
  /** Mark price when known, else the last trade price. */
  price: number | null;
  lastTradePrice: number | null;
  markPrice: number | null;
  /** Aggressor-flag VPIN and its level in the pair's own distribution. */
  vpin: number | null;
  vpinLevel: VpinLevelName | null;
  vpinCdf: number | null;
  /** BVC VPIN (a different scale: never compare with vpin). */
  vpinBvc: number | null;
  vpinBvcLevel: VpinLevelName | null;
  cvd: number | null;
  cvdRolling: number | null;
  /** Net / gross notional over the score's flow window, [-1, 1]. */
  cvdFlow: number | null;
  obi: number | null;
  obiTopK: number | null;
  ofi: number | null;
  ofiLevels: Float64Array;
  kyleLambda: number | null;
  regime: RegimeName | null;
  score: number | null;
  direction: DirectionName;
  fundingAnnualizedPct: number | null;
  whaleThresholdUsd: number;
  /** Last closed bar per timeframe index (0: 5m, 1: 15m, 2: 1h), null when none. */
  readonly lastBars: (KernelBar | null)[];
  /** The open bar per timeframe index, null when none. */
  readonly openBars: (KernelBar | null)[];
  readonly whales: WhaleSnapshot;
  readonly absorptions: AbsorptionSnapshot;
  /** Per CVD interval index (0: 1m .. 3: 1h). */
  readonly cvdHistory: readonly CvdHistorySnapshot[];
  /** Scratch parts the fill reuses. */
  readonly parts: {
    readonly cvd: CvdSnapshot; readonly vpin: VpinSnapshot; readonly obi: ObiSnapshot;
    readonly ofi: OfiSnapshot; readonly kyle: KyleSnapshot;
    readonly closedBarStore: KernelBar[]; readonly openBarStore: KernelBar[];
  };
}

/** The snapshot's top-level number fields (null until known; double-fields.ts). */
const snapshotNumbers = ['tsMs', 'price', 'lastTradePrice', 'markPrice', 'vpin', 'vpinCdf',
  'vpinBvc', 'cvd', 'cvdRolling', 'cvdFlow', 'obi', 'obiTopK', 'ofi', 'kyleLambda', 'score',
  'fundingAnnualizedPct', 'whaleThresholdUsd'] as const;

export function createPairSnapshot(options: PairAnalyticsOptions): PairAnalyticsSnapshot {
  const points = options.snapshotHistoryPoints;
  const ofi = createOfiSnapshot(options.ofiLevels);
  const out: PairAnalyticsSnapshot = {
    tsMs: null, price: null, lastTradePrice: null, markPrice: null, vpin: null,
    vpinLevel: null, vpinCdf: null, vpinBvc: null, vpinBvcLevel: null, cvd: null,
    cvdRolling: null, cvdFlow: null, obi: null, obiTopK: null, ofi: null,
    ofiLevels: ofi.ofiLevels, kyleLambda: null, regime: null, score: null,
    direction: 'NEUTRAL', fundingAnnualizedPct: null, whaleThresholdUsd: 0,
    lastBars: BAR_TIMEFRAMES.map(() => null), openBars: BAR_TIMEFRAMES.map(() => null),
    whales: createWhaleSnapshot(options.whaleListSize),
    absorptions: createAbsorptionSnapshot(options.absorptionListSize),
    cvdHistory: CVD_INTERVALS.map(() => ({
      count: 0, tsMs: new Float64Array(points), cvd: new Float64Array(points),
      delta: new Float64Array(points),
    })),
    parts: {
      cvd: { cvd: null, cvdRolling: null, trades: 0 },
      vpin: asDoubleFields({ vpin: null, bucketsCompleted: 0, bucketVolume: 0 },
        ['vpin', 'bucketVolume']),
      obi: { obi: null, obiTopK: null, mid: null, books: 0 },
      ofi, kyle: { kyleLambda: null, intercept: null, intervals: 0 },
      closedBarStore: BAR_TIMEFRAMES.map(() => createKernelBar()),
      openBarStore: BAR_TIMEFRAMES.map(() => createKernelBar()),
    },
  };
  return asDoubleFields(out, snapshotNumbers);
}

const orNull = (x: number) => (Number.isNaN(x) ? null : x);

function fillBars(state: PairAnalytics, out: PairAnalyticsSnapshot): void {
  const p = out.parts;
  for (let t = 0; t < BAR_TIMEFRAMES.length; t++) {
    out.lastBars[t] = lastClosedBar(state.bars, t, p.closedBarStore[t]) ? p.closedBarStore[t]
      : null;
    out.openBars[t] = openBar(state.bars, t, p.openBarStore[t]) ? p.openBarStore[t] : null;
  }
}

function fillBarsAndLists(state: PairAnalytics, out: PairAnalyticsSnapshot): void {
  fillBars(state, out);
  snapshotWhale(state.whale, out.whales);
  snapshotAbsorption(state.absorption, out.absorptions);
  for (let i = 0; i < CVD_INTERVALS.length; i++) {
    const h = out.cvdHistory[i];
    h.count = readCvdHistory(state.cvd, i, h.tsMs.length, h.tsMs, h.cvd, h.delta);
  }
}

/** Fills `out` from the pair's state; the state is not changed. */
export function snapshotPairAnalytics(
  state: PairAnalytics, out: PairAnalyticsSnapshot,
): PairAnalyticsSnapshot {
  snapshotPairScalars(state, out);
  fillBarsAndLists(state, out);
  return out;
}

/**
 * What a closed bar's signal detection reads: the scalars, the bars and the absorptions, not
 * the whale list or the CVD histories (copying those at every bar close was a third of a
 * candle's cost in a warm-up), nor the rolling CVD (a sum over its 1,440 minutes). The others
 * keep their last values.
 */
export function snapshotPairForBars(
  state: PairAnalytics, out: PairAnalyticsSnapshot,
): PairAnalyticsSnapshot {
  snapshotRecordedScalars(state, out);
  fillLevels(state, out);
  fillBars(state, out);
  snapshotAbsorption(state.absorption, out.absorptions);
  return out;
}

/**
 * The scalar figures (price, VPIN and its levels, CVD, OBI, OFI, Kyle's lambda, regime, score,
 * direction), not the bars, whale and absorption lists or CVD histories.
 */
export function snapshotPairScalars(
  state: PairAnalytics, out: PairAnalyticsSnapshot,
): PairAnalyticsSnapshot {
  snapshotRecordedScalars(state, out);
  fillLevels(state, out);
  const p = out.parts;
  out.cvdRolling = p.cvd.cvdRolling = cvdRolling(state.cvd);
  out.whaleThresholdUsd = state.whale.thresholdUsd;
  return out;
}

/**
 * Both VPIN levels and the direction, on top of the recorded scalars. The BVC level is rated
 * here as it always was (rating cumulates its digest, which the digest's later merges read).
 */
function fillLevels(state: PairAnalytics, out: PairAnalyticsSnapshot): void {
  out.vpinLevel = out.vpin === null ? null : vpinLevelName(state.vpinLevel);
  out.vpinCdf = out.vpin === null ? null : orNull(state.vpinLevel.cdf);
  out.vpinBvc = snapshotVpin(state.vpinBvc, out.parts.vpin).vpin;
  out.vpinBvcLevel = out.vpinBvc === null ? null : vpinLevelName(state.vpinBvcLevel);
  out.direction = DIRECTION_NAMES[directionOf(state.options, out.score ?? NaN)];
}

/**
 * What a 1-minute history point reads, and no more (it runs at every pair's minute close):
 * `tsMs`, the prices, `vpin`, `cvd`, `cvdFlow`, `obi`, `obiTopK`, `ofi`, `kyleLambda`, `regime`,
 * `fundingAnnualizedPct` and `score`. The other scalars of `out` keep their previous values.
 */
export function snapshotRecordedScalars(
  state: PairAnalytics, out: PairAnalyticsSnapshot,
): PairAnalyticsSnapshot {
  const o = state.options;
  const p = out.parts;
  const newest = Math.max(state.lastTradeTsMs, state.lastBookTsMs);
  out.tsMs = newest === -Infinity ? null : newest;
  out.lastTradePrice = orNull(state.lastTradePrice);
  out.markPrice = orNull(state.markPrice);
  out.price = out.markPrice ?? out.lastTradePrice;
  out.vpin = snapshotVpin(state.vpin, p.vpin).vpin;
  refreshVpinLevel(state.vpinLevel);
  snapshotCvdDay(state.cvd, p.cvd);
  out.cvd = p.cvd.cvd;
  const flow = p.cvd.trades > 0 ? cvdFlowRatio(state.cvd, o.scoreFlowMinutes) : NaN;
  out.cvdFlow = orNull(flow);
  snapshotObi(state.obi, p.obi);
  out.obi = p.obi.obi;
  out.obiTopK = p.obi.obiTopK;
  out.ofi = snapshotOfi(state.ofi, p.ofi).ofi;
  out.kyleLambda = snapshotKyle(state.kyle, p.kyle).kyleLambda;
  out.regime = regimeName(state.regime);
  const funding = state.fundingHourly * 24 * 365 * 100;
  out.fundingAnnualizedPct = orNull(funding);
  const whaleFlow = out.tsMs === null ? NaN
    : whaleFlowRatio(state.whale, out.tsMs, o.scoreWhaleWindowMs);
  const level = out.vpin === null ? -1 : state.vpinLevel.level;
  out.score = orNull(compositeScore(o, flow, ofiNormalized(state.ofi, o.scoreOfiMinIntervals),
    out.obi ?? NaN, whaleFlow, funding, level));
  return out;
}
