// Trade plan of a signal: entry at the close, stop beyond the swept extreme, t1 and t2 in R.
import type { Bar } from '../../core/messages.js';
import type { DetectorOptions } from './detector-options.js';
import { slot, type TimeframeState } from './timeframe-state.js';
import type { SignalPlan } from './types.js';

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Long (sign +1): the swept extreme is the lowest low of the signal bar and the
 * stopLookbackBars before it; the stop sits below it by max(stopBufferAtr x ATR,
 * stopBufferFractionMin x entry). R = entry - stop. t1 is the last unconsumed swing high when
 * it lies between t1SwingRiskMin and t1SwingRiskMax R away, else entry + t1RiskMultiple R;
 * t2 = entry + t2RiskMultiple R, moved out to t1 if nearer. Short mirrors it.
 * Returns null when the numbers cannot make a valid plan (docs/signals.md, "Plan levels").
 */
export function buildPlan(state: TimeframeState, bar: Bar, sign: number,
  options: DetectorOptions): SignalPlan | null {
  const entry = bar.close;
  let extreme = sign > 0 ? bar.low : bar.high;
  const n = Math.min(state.count, options.stopLookbackBars);
  for (let back = 0; back < n; back++) {
    const s = slot(state, back);
    extreme = sign > 0 ? Math.min(extreme, state.low[s]) : Math.max(extreme, state.high[s]);
  }
  const buffer = Math.max(options.stopBufferAtr * state.atr, options.stopBufferFractionMin * entry);
  const stop = extreme - sign * buffer;
  const risk = sign * (entry - stop);
  if (!(risk > 0)) return null;
  const swing = sign > 0 ? state.swingHigh : state.swingLow;
  const swingFree = sign > 0 ? !state.swingHighConsumed : !state.swingLowConsumed;
  const swingR = (sign * (swing - entry)) / risk;
  const t1 = swingFree && swingR >= options.t1SwingRiskMin && swingR <= options.t1SwingRiskMax
    ? swing
    : entry + sign * options.t1RiskMultiple * risk;
  const t2Base = entry + sign * options.t2RiskMultiple * risk;
  const t2 = sign > 0 ? Math.max(t1, t2Base) : Math.min(t1, t2Base);
  const plan: SignalPlan = {
    entry, stop, t1, t2,
    r_t1: round2((sign * (t1 - entry)) / risk),
    r_t2: round2((sign * (t2 - entry)) / risk),
  };
  return isValidPlan(plan, sign) ? plan : null;
}

/** long: stop < entry < t1 <= t2; short: stop > entry > t1 >= t2; all finite. */
export function isValidPlan(plan: SignalPlan, sign: number): boolean {
  const { entry, stop, t1, t2 } = plan;
  if (![entry, stop, t1, t2].every(Number.isFinite)) return false;
  return sign > 0
    ? stop < entry && entry < t1 && t1 <= t2
    : stop > entry && entry > t1 && t1 >= t2;
}
