// Options of the entry-signal detector: defaults merged with an override, checked field by field.

export interface DetectorOptions {
  /** Bars on each side that a swing high/low must exceed strictly to be confirmed. */
  readonly swingStrengthBars: number;
  /** Bars kept per timeframe (ring capacity); every lookback below must fit in it. */
  readonly historyBars: number;
  /** Bars before the signal bar whose extreme a CVD divergence must exceed. */
  readonly divergenceLookbackBars: number;
  /**
   * The bar that made the lookback's extreme must lie at least this many bars before the
   * signal bar, so a slide that keeps making new extremes bar after bar is not a divergence.
   */
  readonly divergenceGapBarsMin: number;
  /** Bars before the signal bar whose extreme a flow rejection must probe. */
  readonly rejectionLookbackBars: number;
  /** Rejection wick (toward the probed extreme) as a fraction of the bar's range, at least. */
  readonly wickFractionMin: number;
  /** Bar flow imbalance (buy - sell) / (buy + sell) toward the side, at least. */
  readonly flowImbalanceMin: number;
  /** How near (fraction of price) a bar's extreme must come to a level to test it. */
  readonly levelToleranceFraction: number;
  /** An absorption event counts in the signal bar or up to this many bars minus one before. */
  readonly absorptionLookbackBars: number;
  /** Wilder ATR length, per timeframe. */
  readonly atrBars: number;
  /** Bars before the signal bar whose extreme the stop must also clear. */
  readonly stopLookbackBars: number;
  /** Stop distance beyond the extreme: this many ATRs ... */
  readonly stopBufferAtr: number;
  /** ... and at least this fraction of the entry price. */
  readonly stopBufferFractionMin: number;
  /** t1 is the last opposing swing when it lies within [min, max] R, else entry + t1 R. */
  readonly t1SwingRiskMin: number;
  readonly t1SwingRiskMax: number;
  readonly t1RiskMultiple: number;
  /** t2 is entry + this many R (never nearer than t1). */
  readonly t2RiskMultiple: number;
  /** A composite score this high in the signal's direction raises the grade one place. */
  readonly scoreBoostMin: number;
}

export const defaultDetectorOptions: DetectorOptions = Object.freeze({
  swingStrengthBars: 2,
  historyBars: 64,
  divergenceLookbackBars: 20,
  divergenceGapBarsMin: 3,
  rejectionLookbackBars: 10,
  wickFractionMin: 0.5,
  flowImbalanceMin: 0.1,
  levelToleranceFraction: 0.0005,
  absorptionLookbackBars: 1,
  atrBars: 14,
  stopLookbackBars: 2,
  stopBufferAtr: 0.1,
  stopBufferFractionMin: 0.0001,
  t1SwingRiskMin: 1,
  t1SwingRiskMax: 3,
  t1RiskMultiple: 1.5,
  t2RiskMultiple: 3,
  scoreBoostMin: 50,
});

function need(ok: boolean, field: string, expected: string, found: unknown): void {
  if (!ok) {
    throw new TypeError(`detector.${field} must be ${expected} (was ${JSON.stringify(found)})`);
  }
}

const isInt = (v: number, min: number, max: number) => Number.isInteger(v) && v >= min && v <= max;
const isNum = (v: number, min: number, max: number) =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;

/** Merges, validates and freezes; a bad option is a programmer error and throws. */
export function resolveDetectorOptions(override: Partial<DetectorOptions> = {}): DetectorOptions {
  const o = { ...defaultDetectorOptions, ...override };
  need(isInt(o.historyBars, 8, 1024), 'historyBars', 'an integer from 8 to 1024', o.historyBars);
  const fits = (v: number) => isInt(v, 1, o.historyBars);
  need(isInt(o.swingStrengthBars, 1, Math.floor((o.historyBars - 1) / 2)),
    'swingStrengthBars', 'an integer >= 1 with 2n+1 <= historyBars', o.swingStrengthBars);
  need(fits(o.divergenceLookbackBars), 'divergenceLookbackBars', '1..historyBars',
    o.divergenceLookbackBars);
  need(isInt(o.divergenceGapBarsMin, 1, o.divergenceLookbackBars), 'divergenceGapBarsMin',
    '1..divergenceLookbackBars', o.divergenceGapBarsMin);
  need(fits(o.rejectionLookbackBars), 'rejectionLookbackBars', '1..historyBars',
    o.rejectionLookbackBars);
  need(fits(o.absorptionLookbackBars), 'absorptionLookbackBars', '1..historyBars',
    o.absorptionLookbackBars);
  need(fits(o.atrBars), 'atrBars', '1..historyBars', o.atrBars);
  need(isInt(o.stopLookbackBars, 0, o.historyBars), 'stopLookbackBars', '0..historyBars',
    o.stopLookbackBars);
  need(isNum(o.wickFractionMin, 0, 1), 'wickFractionMin', 'a number in [0, 1]', o.wickFractionMin);
  need(isNum(o.flowImbalanceMin, -1, 1), 'flowImbalanceMin', 'a number in [-1, 1]',
    o.flowImbalanceMin);
  need(isNum(o.levelToleranceFraction, 0, 0.1), 'levelToleranceFraction', 'in [0, 0.1]',
    o.levelToleranceFraction);
  need(isNum(o.stopBufferAtr, 0, 10), 'stopBufferAtr', 'in [0, 10]', o.stopBufferAtr);
  need(isNum(o.stopBufferFractionMin, 1e-9, 0.5), 'stopBufferFractionMin', 'in (0, 0.5]',
    o.stopBufferFractionMin);
  need(isNum(o.t1SwingRiskMin, 0, 100) && o.t1SwingRiskMax >= o.t1SwingRiskMin,
    't1SwingRiskMin', 'in [0, 100] and <= t1SwingRiskMax', o.t1SwingRiskMin);
  need(isNum(o.t1RiskMultiple, 0.01, 100), 't1RiskMultiple', 'in (0, 100]', o.t1RiskMultiple);
  need(isNum(o.t2RiskMultiple, 0.01, 100), 't2RiskMultiple', 'in (0, 100]', o.t2RiskMultiple);
  need(isNum(o.scoreBoostMin, 0, 100), 'scoreBoostMin', 'in [0, 100]', o.scoreBoostMin);
  return Object.freeze(o);
}
