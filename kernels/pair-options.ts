// Options of the per-pair analytics bundle: plain numbers (and two mode names), one default
// set, merged with an override and validated by the kernels they configure.
import { defaultAbsorptionOptions, type AbsorptionOptions } from './absorption.js';
import type { BarsOptions } from './bars.js';
import type { CvdOptions } from './cvd.js';
import { defaultKyleOptions, type KyleFlow, type KyleOptions } from './kyle.js';
import type { ObiOptions } from './obi.js';
import type { OfiOptions } from './ofi.js';
import { defaultRegimeOptions, type RegimeOptions } from './regime.js';
import { defaultScoreOptions, type ScoreOptions } from './score.js';
import type { VpinLevelOptions } from './vpin-level.js';
import type { VpinOptions } from './vpin.js';
import { defaultWhaleOptions, type WhaleOptions } from './whale.js';

export interface PairAnalyticsOptions extends ScoreOptions {
  /** V in base units: ADV / 50. 0 while unknown (VPIN null); see setPairVpinBucketVolume. */
  readonly vpinBucketVolume: number;
  readonly vpinWindowBuckets: number;
  readonly bvcBarMs: number;
  /** 0: normal CDF; > 0: Student-t with these degrees of freedom. */
  readonly bvcDegreesOfFreedom: number;
  readonly bvcSigmaBars: number;
  readonly vpinLevelHalfWindow: number;
  readonly vpinLevelMinValues: number;
  readonly cvdHistoryPoints: number;
  readonly cvdRollingMinutes: number;
  readonly obiLevels: number;
  readonly obiBandPct: number;
  readonly ofiLevels: number;
  readonly ofiIntervalMs: number;
  readonly ofiHistoryIntervals: number;
  readonly kyleIntervalMs: number;
  readonly kyleWindowIntervals: number;
  readonly kyleMinIntervals: number;
  readonly kyleFlow: KyleFlow;
  readonly barHistoryDays: number;
  readonly whaleQuantile: number;
  readonly whaleWindowMs: number;
  readonly whaleMinSamples: number;
  readonly whaleFallbackUsd: number;
  readonly whaleFloorUsd: number;
  readonly whaleListSize: number;
  readonly absorptionWindowMs: number;
  readonly absorptionImbalanceMin: number;
  readonly absorptionMoveBpsMax: number;
  readonly absorptionQuantile: number;
  readonly absorptionMinSamples: number;
  readonly absorptionFallbackUsd: number;
  readonly absorptionListSize: number;
  readonly regimeBars: number;
  readonly regimeEfficiencyMin: number;
  readonly regimeRvHistory: number;
  readonly regimeRvPercentileMin: number;
  readonly regimeRvMinSamples: number;
  /** Score: CVD flow over this many trailing minutes. */
  readonly scoreFlowMinutes: number;
  /** Score: whale flow over this trailing window. */
  readonly scoreWhaleWindowMs: number;
  /** Score: closed OFI intervals needed before OFI counts. */
  readonly scoreOfiMinIntervals: number;
  /** CVD history points per interval copied into each snapshot (newest). */
  readonly snapshotHistoryPoints: number;
}

export const defaultPairAnalyticsOptions: PairAnalyticsOptions = Object.freeze({
  ...defaultScoreOptions,
  vpinBucketVolume: 0, vpinWindowBuckets: 50, bvcBarMs: 60_000, bvcDegreesOfFreedom: 0,
  bvcSigmaBars: 1440, vpinLevelHalfWindow: 2250, vpinLevelMinValues: 100,
  cvdHistoryPoints: 1440, cvdRollingMinutes: 1440,
  obiLevels: 10, obiBandPct: 0.5,
  ofiLevels: 10, ofiIntervalMs: 10_000, ofiHistoryIntervals: 360,
  kyleIntervalMs: defaultKyleOptions.intervalMs,
  kyleWindowIntervals: defaultKyleOptions.windowIntervals,
  kyleMinIntervals: defaultKyleOptions.minIntervals, kyleFlow: defaultKyleOptions.flow,
  barHistoryDays: 7,
  whaleQuantile: defaultWhaleOptions.quantile, whaleWindowMs: defaultWhaleOptions.windowMs,
  whaleMinSamples: defaultWhaleOptions.minSamples,
  whaleFallbackUsd: defaultWhaleOptions.fallbackUsd,
  whaleFloorUsd: defaultWhaleOptions.floorUsd, whaleListSize: defaultWhaleOptions.listSize,
  absorptionWindowMs: defaultAbsorptionOptions.windowMs,
  absorptionImbalanceMin: defaultAbsorptionOptions.imbalanceMin,
  absorptionMoveBpsMax: defaultAbsorptionOptions.moveBpsMax,
  absorptionQuantile: defaultAbsorptionOptions.quantile,
  absorptionMinSamples: defaultAbsorptionOptions.minSamples,
  absorptionFallbackUsd: defaultAbsorptionOptions.fallbackUsd,
  absorptionListSize: defaultAbsorptionOptions.listSize,
  regimeBars: defaultRegimeOptions.bars,
  regimeEfficiencyMin: defaultRegimeOptions.efficiencyMin,
  regimeRvHistory: defaultRegimeOptions.rvHistory,
  regimeRvPercentileMin: defaultRegimeOptions.rvPercentileMin,
  regimeRvMinSamples: defaultRegimeOptions.rvMinSamples,
  scoreFlowMinutes: 60, scoreWhaleWindowMs: 3_600_000, scoreOfiMinIntervals: 30,
  snapshotHistoryPoints: 200,
});

/** The kernels' own option objects, cut out of the flat pair options. */
export function kernelOptionsOf(o: PairAnalyticsOptions) {
  const vpin = (mode: 'aggressor' | 'bvc'): VpinOptions => ({
    bucketVolume: o.vpinBucketVolume, windowBuckets: o.vpinWindowBuckets, mode,
    bvcBarMs: o.bvcBarMs, bvcDegreesOfFreedom: o.bvcDegreesOfFreedom,
    bvcSigmaBars: o.bvcSigmaBars,
  });
  const vpinLevel: VpinLevelOptions = {
    halfWindowValues: o.vpinLevelHalfWindow, minValues: o.vpinLevelMinValues,
    compression: 0.01,
  };
  const cvd: CvdOptions = {
    historyPoints: o.cvdHistoryPoints, rollingMinutes: o.cvdRollingMinutes,
  };
  const obi: ObiOptions = { levels: o.obiLevels, bandPct: o.obiBandPct };
  const ofi: OfiOptions = {
    levels: o.ofiLevels, intervalMs: o.ofiIntervalMs, historyIntervals: o.ofiHistoryIntervals,
  };
  const kyle: KyleOptions = {
    intervalMs: o.kyleIntervalMs, windowIntervals: o.kyleWindowIntervals,
    minIntervals: o.kyleMinIntervals, flow: o.kyleFlow,
  };
  const bars: BarsOptions = { historyDays: o.barHistoryDays };
  const whale: WhaleOptions = {
    quantile: o.whaleQuantile, windowMs: o.whaleWindowMs, minSamples: o.whaleMinSamples,
    fallbackUsd: o.whaleFallbackUsd, floorUsd: o.whaleFloorUsd, listSize: o.whaleListSize,
  };
  const absorption: AbsorptionOptions = {
    ...defaultAbsorptionOptions,
    windowMs: o.absorptionWindowMs, imbalanceMin: o.absorptionImbalanceMin,
    moveBpsMax: o.absorptionMoveBpsMax, quantile: o.absorptionQuantile,
    minSamples: o.absorptionMinSamples, fallbackUsd: o.absorptionFallbackUsd,
    listSize: o.absorptionListSize,
  };
  const regime: RegimeOptions = {
    ...defaultRegimeOptions,
    bars: o.regimeBars, efficiencyMin: o.regimeEfficiencyMin, rvHistory: o.regimeRvHistory,
    rvPercentileMin: o.regimeRvPercentileMin, rvMinSamples: o.regimeRvMinSamples,
  };
  return { vpin, vpinLevel, cvd, obi, ofi, kyle, bars, whale, absorption, regime };
}
