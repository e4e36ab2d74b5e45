// The intervals, baselines and edge of one track-record group (docs/signals.md "Track record
// statistics"): a Wilson interval on the hit rate, a mean-R interval, the random- and
// trend-direction baselines on the same bars, and the paired edge over the random one.
import { seedOf } from '../../kernels/seeded-rng.js';
import { wilsonInterval } from '../../kernels/wilson.js';
import { mirroredResultR, signalKeepsSide } from './baseline.js';
import { cachedMeanInterval } from './interval-cache.js';
import { resultR, type TrackedSignal } from './track-record.js';

export interface GroupStatistics {
  readonly hitRateLow: number | null;
  readonly hitRateHigh: number | null;
  readonly expectancyRLow: number | null;
  readonly expectancyRHigh: number | null;
  /** 'bootstrap' below 200 evaluated, 't' from there; null without an interval. */
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

/** The statistics of a group's evaluated signals, oldest first; `label` seeds its resamples. */
export function groupStatistics(label: string, evaluated: readonly TrackedSignal[],
  t1Hits: number): GroupStatistics {
  const n = evaluated.length;
  const own = new Float64Array(n);
  const edge = new Float64Array(n);
  let baselineEvaluated = 0;
  let randomSum = 0;
  let trendSum = 0;
  let trendEvaluated = 0;
  for (let i = 0; i < n; i++) {
    const { signal, outcome, baseline } = evaluated[i];
    if (outcome === null) throw new Error(`group ${label} holds an unevaluated signal`);
    const r = resultR(signal, outcome);
    own[i] = r;
    if (baseline === null) continue;
    const mirrored = mirroredResultR(signal, outcome, baseline.mirror_first_level_hit);
    const random = signalKeepsSide(signal) ? r : mirrored;
    edge[baselineEvaluated] = r - random;
    baselineEvaluated += 1;
    randomSum += random;
    if (baseline.trend_side !== null) {
      trendSum += baseline.trend_side === signal.side ? r : mirrored;
      trendEvaluated += 1;
    }
  }
  const hit = wilsonInterval(t1Hits, n);
  const expectancy = cachedMeanInterval(own, n, seedOf(`expectancy:${label}`));
  const edgeInterval = cachedMeanInterval(edge, baselineEvaluated, seedOf(`edge:${label}`));
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
