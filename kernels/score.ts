// The composite signal score, an integer in -100..+100 with a direction: a weighted mean of the
// directional flow components in [-1, 1] (CVD flow, OFI, OBI, whale flow, contrarian funding
// extremes), damped by toxicity (the VPIN level). Weights and rationale: docs/analytics.md.
import { checkOption } from './check.js';

export const DIRECTION_NAMES = ['LONG', 'SHORT', 'NEUTRAL'] as const;
export type DirectionName = (typeof DIRECTION_NAMES)[number];

export interface ScoreOptions {
  readonly weightCvd: number;
  readonly weightOfi: number;
  readonly weightObi: number;
  readonly weightWhale: number;
  readonly weightFunding: number;
  /** |annualized funding| (percent) below which funding says nothing. */
  readonly fundingNeutralPct: number;
  /** |annualized funding| (percent) at which the funding component saturates. */
  readonly fundingExtremePct: number;
  /** |score| from which the direction is LONG or SHORT. */
  readonly directionMin: number;
  /** Multipliers for vpinLevel safe, elevated, high, extreme (unknown: 1). */
  readonly dampSafe: number;
  readonly dampElevated: number;
  readonly dampHigh: number;
  readonly dampExtreme: number;
}

export const defaultScoreOptions: ScoreOptions = Object.freeze({
  weightCvd: 0.3, weightOfi: 0.2, weightObi: 0.15, weightWhale: 0.2, weightFunding: 0.15,
  fundingNeutralPct: 20, fundingExtremePct: 100, directionMin: 20,
  dampSafe: 1, dampElevated: 0.85, dampHigh: 0.6, dampExtreme: 0.4,
});

export function checkScoreOptions(o: ScoreOptions): void {
  for (const name of ['weightCvd', 'weightOfi', 'weightObi', 'weightWhale', 'weightFunding',
    'dampSafe', 'dampElevated', 'dampHigh', 'dampExtreme'] as const) {
    checkOption(name, o[name], 0, 1);
  }
  checkOption('weightCvd', o.weightCvd, 1e-6, 1);
  checkOption('fundingNeutralPct', o.fundingNeutralPct, 0, 1e6);
  checkOption('fundingExtremePct', o.fundingExtremePct, o.fundingNeutralPct + 1e-9, 1e7);
  checkOption('directionMin', o.directionMin, 1, 100, true);
}

const clamp = (x: number) => (x > 1 ? 1 : x < -1 ? -1 : x);

/** Contrarian funding component: crowded longs (high funding) lean short. */
export function fundingComponent(o: ScoreOptions, annualizedPct: number): number {
  const size = Math.abs(annualizedPct);
  if (Number.isNaN(size) || size <= o.fundingNeutralPct) return Number.isNaN(size) ? NaN : 0;
  const strength = Math.min(1, (size - o.fundingNeutralPct) /
    (o.fundingExtremePct - o.fundingNeutralPct));
  return annualizedPct > 0 ? -strength : strength;
}

/**
 * The score, or NaN without CVD flow. Inputs may be NaN (unknown): their weight is dropped,
 * except whale flow, where no whale is neutral (0). ofiNormalized is OFI over its RMS.
 */
export function compositeScore(
  o: ScoreOptions, cvdFlow: number, ofiNormalized: number, obi: number, whaleFlow: number,
  fundingAnnualizedPct: number, vpinLevel: number,
): number {
  if (Number.isNaN(cvdFlow)) return NaN;
  let sum = o.weightCvd * clamp(cvdFlow);
  let weights = o.weightCvd;
  if (!Number.isNaN(ofiNormalized)) {
    sum += o.weightOfi * clamp(ofiNormalized / 2);
    weights += o.weightOfi;
  }
  if (!Number.isNaN(obi)) {
    sum += o.weightObi * clamp(obi);
    weights += o.weightObi;
  }
  sum += o.weightWhale * (Number.isNaN(whaleFlow) ? 0 : clamp(whaleFlow));
  weights += o.weightWhale;
  const funding = fundingComponent(o, fundingAnnualizedPct);
  if (!Number.isNaN(funding)) {
    sum += o.weightFunding * funding;
    weights += o.weightFunding;
  }
  const damp = vpinLevel === 0 ? o.dampSafe : vpinLevel === 1 ? o.dampElevated
    : vpinLevel === 2 ? o.dampHigh : vpinLevel === 3 ? o.dampExtreme : 1;
  const score = Math.round((100 * sum * damp) / weights);
  return Math.max(-100, Math.min(100, score)) + 0;
}

/** Direction index into DIRECTION_NAMES for a score (NaN: NEUTRAL). */
export function directionOf(o: ScoreOptions, score: number): number {
  if (score >= o.directionMin) return 0;
  if (score <= -o.directionMin) return 1;
  return 2;
}
