// Market regime from closed 5-minute bars (docs/analytics.md, "Regime"), checked in this order:
// squeeze (Bollinger inside Keltner), trending (efficiency ratio >= 0.30), volatile (realized
// volatility at or above its trailing 90th percentile), else ranging; unknown (null) without
// enough bars.
//
//   closes ring: the last N + 1 closes      returns ring: the last N log returns
//   rv ring: the last rvHistory realized volatilities (percentile rank of the newest)
import { checkOption, reject } from './check.js';
import { asDoubleFields } from './double-fields.js';

export const REGIME_NAMES = ['trending', 'ranging', 'volatile', 'squeeze'] as const;
export type RegimeName = (typeof REGIME_NAMES)[number];
const TRENDING = 0;
const RANGING = 1;
const VOLATILE = 2;
const SQUEEZE = 3;

export interface RegimeOptions {
  /** N bars for ER, Bollinger, Keltner (Wilder ATR) and realized volatility. */
  readonly bars: number;
  readonly efficiencyMin: number;
  readonly bollingerStd: number;
  readonly keltnerAtr: number;
  readonly rvHistory: number;
  readonly rvPercentileMin: number;
  /** RV values needed before `volatile` can be told from `ranging`. */
  readonly rvMinSamples: number;
}

export const defaultRegimeOptions: RegimeOptions = Object.freeze({
  bars: 20, efficiencyMin: 0.3, bollingerStd: 2, keltnerAtr: 1.5, rvHistory: 500,
  rvPercentileMin: 0.9, rvMinSamples: 100,
});

export interface RegimeState {
  readonly options: RegimeOptions;
  readonly closes: Float64Array;
  closeCount: number;
  readonly returns: Float64Array;
  returnCount: number;
  readonly rv: Float64Array;
  rvCount: number;
  atr: number;
  trCount: number;
  trSum: number;
  previousClose: number;
  /** Diagnostics of the last classification, NaN when unknown. */
  efficiencyRatio: number;
  rvPercentile: number;
  squeeze: boolean;
  /** Index into REGIME_NAMES, -1 when unknown. */
  regime: number;
}

export function createRegimeState(options: RegimeOptions = defaultRegimeOptions): RegimeState {
  checkOption('bars', options.bars, 2, 10_000, true);
  checkOption('efficiencyMin', options.efficiencyMin, 0, 1);
  checkOption('bollingerStd', options.bollingerStd, 0, 100);
  checkOption('keltnerAtr', options.keltnerAtr, 0, 100);
  checkOption('rvHistory', options.rvHistory, 1, 1_000_000, true);
  checkOption('rvPercentileMin', options.rvPercentileMin, 0, 1);
  checkOption('rvMinSamples', options.rvMinSamples, 1, options.rvHistory, true);
  const state: RegimeState = {
    options: Object.freeze({ ...options }),
    closes: new Float64Array(options.bars + 1), closeCount: 0,
    returns: new Float64Array(options.bars), returnCount: 0,
    rv: new Float64Array(options.rvHistory), rvCount: 0,
    atr: NaN, trCount: 0, trSum: 0, previousClose: NaN,
    efficiencyRatio: NaN, rvPercentile: NaN, squeeze: false, regime: -1,
  };
  return asDoubleFields(state, ['trSum']);
}

export function resetRegime(state: RegimeState): void {
  state.closes.fill(0);
  state.closeCount = 0;
  state.returns.fill(0);
  state.returnCount = 0;
  state.rv.fill(0);
  state.rvCount = 0;
  state.atr = NaN;
  state.trCount = 0;
  state.trSum = 0;
  state.previousClose = NaN;
  state.efficiencyRatio = NaN;
  state.rvPercentile = NaN;
  state.squeeze = false;
  state.regime = -1;
}

/** Ring element `back` steps before the newest (0: newest) of a ring with `count` pushes. */
function ago(ring: Float64Array, count: number, back: number): number {
  return ring[(count - 1 - back) % ring.length];
}

function updateInputs(state: RegimeState, high: number, low: number, close: number): void {
  const n = state.options.bars;
  const pc = state.previousClose;
  if (!Number.isNaN(pc)) {
    const tr = Math.max(high - low, Math.abs(high - pc), Math.abs(low - pc));
    // Wilder: the first ATR is the mean of N true ranges, then ATR = (ATR (N - 1) + TR) / N.
    if (state.trCount < n) {
      state.trSum += tr;
      state.trCount += 1;
      if (state.trCount === n) state.atr = state.trSum / n;
    } else {
      state.atr = (state.atr * (n - 1) + tr) / n;
    }
    state.returns[state.returnCount % n] = Math.log(close / pc);
    state.returnCount += 1;
    if (state.returnCount >= n) {
      let squares = 0;
      for (let k = 0; k < n; k++) squares += state.returns[k] * state.returns[k];
      state.rv[state.rvCount % state.rv.length] = Math.sqrt(squares);
      state.rvCount += 1;
    }
  }
  state.closes[state.closeCount % (n + 1)] = close;
  state.closeCount += 1;
  state.previousClose = close;
}

function classify(state: RegimeState): number {
  const o = state.options;
  const n = o.bars;
  if (state.closeCount < n + 1 || Number.isNaN(state.atr)) return -1;
  let sum = 0;
  let path = 0;
  for (let k = 0; k < n; k++) {
    const c = ago(state.closes, state.closeCount, k);
    sum += c;
    path += Math.abs(c - ago(state.closes, state.closeCount, k + 1));
  }
  const sma = sum / n;
  let squares = 0;
  for (let k = 0; k < n; k++) {
    const d = ago(state.closes, state.closeCount, k) - sma;
    squares += d * d;
  }
  const sigma = Math.sqrt(squares / n);
  const bb = o.bollingerStd * sigma;
  const kc = o.keltnerAtr * state.atr;
  state.squeeze = sma + bb < sma + kc && sma - bb > sma - kc;
  const move = Math.abs(ago(state.closes, state.closeCount, 0) -
    ago(state.closes, state.closeCount, n));
  state.efficiencyRatio = path > 0 ? move / path : 0;
  const rvStored = Math.min(state.rvCount, state.rv.length);
  state.rvPercentile = NaN;
  if (rvStored >= o.rvMinSamples) {
    const current = ago(state.rv, state.rvCount, 0);
    let below = 0;
    for (let k = 0; k < rvStored; k++) if (state.rv[k] <= current) below += 1;
    state.rvPercentile = below / rvStored;
  }
  if (state.squeeze) return SQUEEZE;
  if (state.efficiencyRatio >= o.efficiencyMin) return TRENDING;
  if (Number.isNaN(state.rvPercentile)) return -1;
  return state.rvPercentile >= o.rvPercentileMin ? VOLATILE : RANGING;
}

/** One closed bar (normally 5-minute). */
export function updateRegime(state: RegimeState, high: number, low: number, close: number): void {
  pushRegimeBar(state, high, low, close);
  classifyRegime(state);
}

/**
 * One closed bar into the inputs only, for a caller folding several bars at once (a candle's
 * hour of bars, a warm-up): classifyRegime after the last gives what updateRegime on each would,
 * as a classification reads only the inputs and replaces the one before.
 */
export function pushRegimeBar(state: RegimeState, high: number, low: number, close: number):
  void {
  if (!(low > 0 && high >= low && close >= low && close <= high && high < Infinity)) {
    reject('regime bar', 'finite 0 < low <= close <= high', `${low}/${close}/${high}`);
  }
  updateInputs(state, high, low, close);
}

/** Classifies the bars pushed so far (the regime and its diagnostics). */
export function classifyRegime(state: RegimeState): void {
  state.regime = classify(state);
}

export function regimeName(state: RegimeState): RegimeName | null {
  return state.regime < 0 ? null : REGIME_NAMES[state.regime];
}
