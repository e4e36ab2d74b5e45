// The six entry logics as predicates over the state *before* the signal bar is folded in.
// sign: +1 long (bullish reading), -1 short. Each mirrors exactly between the two sides.
import type { Bar } from '../../core/messages.js';
import type { DetectorOptions } from './detector-options.js';
import { sessionVwap, slot, type TimeframeState } from './timeframe-state.js';

/** A sweep of the last unconsumed swing low (high) whose bar closes back above (below) it. */
export function liquidityGrab(state: TimeframeState, bar: Bar, sign: number): boolean {
  if (sign > 0) {
    const level = state.swingLow;
    return !state.swingLowConsumed && bar.low < level && bar.close > level;
  }
  const level = state.swingHigh;
  return !state.swingHighConsumed && bar.high > level && bar.close < level;
}

/**
 * A probe to the lowest low (highest high) of the lookback that is rejected: the wick toward
 * it is at least wickFractionMin of the range and the bar's flow leans the other way.
 */
export function flowRejection(state: TimeframeState, bar: Bar, sign: number,
  options: DetectorOptions): boolean {
  const range = bar.high - bar.low;
  const total = bar.buyNotional + bar.sellNotional;
  if (!(range > 0) || !(total > 0) || state.count === 0) return false;
  const imbalance = (sign * (bar.buyNotional - bar.sellNotional)) / total;
  if (imbalance < options.flowImbalanceMin) return false;
  const wick = sign > 0
    ? Math.min(bar.open, bar.close) - bar.low
    : bar.high - Math.max(bar.open, bar.close);
  if (wick / range < options.wickFractionMin) return false;
  const n = Math.min(state.count, options.rejectionLookbackBars);
  for (let back = 0; back < n; back++) {
    const s = slot(state, back);
    if (sign > 0 ? state.low[s] < bar.low : state.high[s] > bar.high) return false;
  }
  return true;
}

/** A kernel absorption event of the bullish (sell_absorbed) or bearish kind in the window. */
export function absorptionLogic(bar: Bar, event: { kind: string; tsMs: number } | null,
  sign: number, timeframeMs: number, options: DetectorOptions): boolean {
  if (event === null) return false;
  if (event.kind !== (sign > 0 ? 'sell_absorbed' : 'buy_absorbed')) return false;
  const fromMs = bar.openMs - (options.absorptionLookbackBars - 1) * timeframeMs;
  return event.tsMs >= fromMs && event.tsMs < bar.openMs + timeframeMs;
}

/**
 * Price makes a new low (high) beyond the lookback's extreme, made at least
 * divergenceGapBarsMin bars earlier, while the cumulative bar delta stays above (below) its
 * value at the bar that made that extreme.
 */
export function cvdDivergence(state: TimeframeState, bar: Bar, sign: number,
  options: DetectorOptions): boolean {
  const n = Math.min(state.count, options.divergenceLookbackBars);
  if (n < 2) return false;
  let extreme = sign > 0 ? Infinity : -Infinity;
  let extremeBack = -1;
  for (let back = 0; back < n; back++) {
    const s = slot(state, back);
    const price = sign > 0 ? state.low[s] : state.high[s];
    if (sign > 0 ? price < extreme : price > extreme) {
      extreme = price;
      extremeBack = back;
    }
  }
  // back 0 is the bar just before the signal bar, i.e. one bar before it.
  if (extremeBack + 1 < options.divergenceGapBarsMin) return false;
  const flowNow = state.flowTotal + bar.buyNotional - bar.sellNotional;
  const flowThen = state.flow[slot(state, extremeBack)];
  return sign > 0
    ? bar.low < extreme && flowNow > flowThen
    : bar.high > extreme && flowNow < flowThen;
}

/** A close through the last unconsumed swing against the prevailing structure (trend). */
export function structureShift(state: TimeframeState, bar: Bar, sign: number): boolean {
  if (sign > 0) return state.trend < 0 && !state.swingHighConsumed && bar.close > state.swingHigh;
  return state.trend > 0 && !state.swingLowConsumed && bar.close < state.swingLow;
}

/**
 * The bar tests a level from the signal's side and holds it: for long, it opens and closes
 * above the level and its low comes within the tolerance of it (or through it). Levels: the
 * prior UTC day's high and low, the day's VWAP so far, and the nearest round number.
 */
export function levelConfluence(state: TimeframeState, bar: Bar, sign: number,
  options: DetectorOptions): boolean {
  const tol = options.levelToleranceFraction;
  const round = roundLevel(sign > 0 ? bar.low : bar.high, sign, tol);
  return holds(bar, state.priorDayLow, sign, tol) || holds(bar, state.priorDayHigh, sign, tol) ||
    holds(bar, sessionVwap(state), sign, tol) || holds(bar, round, sign, tol);
}

function holds(bar: Bar, level: number, sign: number, tol: number): boolean {
  if (!Number.isFinite(level)) return false;
  if (sign > 0) return bar.open > level && bar.close > level && bar.low <= level * (1 + tol);
  return bar.open < level && bar.close < level && bar.high >= level * (1 - tol);
}

/**
 * Round numbers step by one unit of the price's second significant digit (64,123 -> 1,000;
 * 3.21 -> 0.1). For long, the first round level at or above the low less the tolerance;
 * for short, the last one at or below the high plus the tolerance.
 */
export function roundLevel(price: number, sign: number, tol: number): number {
  const e = Math.floor(Math.log10(price)) - 1;
  const step = e >= -pow10Offset && e <= pow10Offset ? POW10[e + pow10Offset] : Math.pow(10, e);
  return sign > 0
    ? Math.ceil((price * (1 - tol)) / step) * step
    : Math.floor((price * (1 + tol)) / step) * step;
}

/** Marks swings a bar took out and records the direction of a close beyond one. */
export function applyStructure(state: TimeframeState, bar: Bar): void {
  if (!state.swingLowConsumed && bar.low < state.swingLow) {
    state.swingLowConsumed = true;
    if (bar.close < state.swingLow) state.trend = -1;
  }
  if (!state.swingHighConsumed && bar.high > state.swingHigh) {
    state.swingHighConsumed = true;
    if (bar.close > state.swingHigh) state.trend = 1;
  }
}

/**
 * Math.pow(10, e) for e in -30..30, taken once (the same doubles): a closed bar rated round
 * levels for both sides of three timeframes, and pow was most of that.
 */
const pow10Offset = 30;
const POW10: readonly number[] = Array.from({ length: 2 * pow10Offset + 1 },
  (_, i) => Math.pow(10, i - pow10Offset));
