// The intervals, baselines and edge of one track-record group (docs/signals.md "Track record
// statistics"): a Wilson interval on the hit rate, a mean-R interval, the random- and
// trend-direction baselines on the same bars, and the paired edge over the random one. The
// mean-R intervals resample whole blocks of signals (STATISTICS_BLOCK_MS of bar time, across
// symbols and timeframes): signals whose outcome windows overlap move together.
import { seedOf } from '../../kernels/seeded-rng.js';
import { wilsonInterval } from '../../kernels/wilson.js';
import { cachedMeanInterval } from './interval-cache.js';
import { OUTCOME_HORIZON_MS } from './outcome.js';

/**
 * The bar time one bootstrap block spans: the outcome's horizon, so signals sharing most of
 * their 4 h window (neighbouring bars, three timeframes on one candle, pairs moving together)
 * are resampled together.
 */
export const STATISTICS_BLOCK_MS = OUTCOME_HORIZON_MS;

/** The block of a signal closing at signalMs (market time). */
export function statisticsBlockOf(signalMs: number): number {
  return Math.floor(signalMs / STATISTICS_BLOCK_MS);
}

export interface GroupStatistics {
  readonly hitRateLow: number | null;
  readonly hitRateHigh: number | null;
  readonly expectancyRLow: number | null;
  readonly expectancyRHigh: number | null;
  /** 'bootstrap' below 200 blocks, 't' (cluster-robust) from there; null without an interval. */
  readonly intervalMethod: 'bootstrap' | 't' | null;
  /** Evaluated signals with a stored baseline (outcomes stored before baselines have none). */
  readonly baselineEvaluated: number;
  readonly baselineRandomR: number | null;
  /** Over the signals whose 4 h before had a trend (trendEvaluated of them). */
  readonly baselineTrendR: number | null;
  readonly trendEvaluated: number;
  /** Mean of (own R - random-direction R), paired per signal, with its 95 % interval. */
  readonly edgeR: number | null;
  readonly edgeRLow: number | null;
  readonly edgeRHigh: number | null;
  /** Two-sided p-value of a zero edge (by the interval's method); null when not compared. */
  readonly edgePValue: number | null;
}

/** A group's evaluated signals in time order, as the window's pass gathered them. */
export interface GroupSample {
  /** Each evaluated signal's R, oldest first (exactly `evaluated` of them). */
  readonly own: Float64Array;
  /** The block of each of `own` (statisticsBlockOf its signal's close), non-decreasing. */
  readonly ownBlocks: Int32Array;
  /** Own R minus the random-direction R, over those with a baseline (exactly that many). */
  readonly edge: Float64Array;
  readonly edgeBlocks: Int32Array;
  readonly randomSum: number;
  readonly trendSum: number;
  readonly trendEvaluated: number;
}

/** The statistics of a group's sample; `label` seeds its resamples. */
export function groupStatistics(label: string, sample: GroupSample, t1Hits: number):
  GroupStatistics {
  const { own, ownBlocks, edge, edgeBlocks, randomSum, trendSum, trendEvaluated } = sample;
  const n = own.length;
  const baselineEvaluated = edge.length;
  const hit = wilsonInterval(t1Hits, n);
  const expectancy = cachedMeanInterval(own, n, seedOf(`expectancy:${label}`), ownBlocks);
  const edgeInterval = cachedMeanInterval(edge, baselineEvaluated, seedOf(`edge:${label}`),
    edgeBlocks);
  let edgeSum = 0;
  for (let i = 0; i < baselineEvaluated; i++) edgeSum += edge[i];
  return {
    hitRateLow: hit?.low ?? null, hitRateHigh: hit?.high ?? null,
    expectancyRLow: expectancy?.low ?? null, expectancyRHigh: expectancy?.high ?? null,
    intervalMethod: expectancy?.method ?? null,
    baselineEvaluated,
    baselineRandomR: baselineEvaluated === 0 ? null : randomSum / baselineEvaluated,
    baselineTrendR: trendEvaluated === 0 ? null : trendSum / trendEvaluated, trendEvaluated,
    edgeR: baselineEvaluated === 0 ? null : edgeSum / baselineEvaluated,
    edgeRLow: edgeInterval?.low ?? null, edgeRHigh: edgeInterval?.high ?? null,
    edgePValue: edgeInterval?.pValue ?? null,
  };
}
