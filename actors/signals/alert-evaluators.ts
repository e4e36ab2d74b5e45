// Per-alert state machines for the five alert.triggered kinds. Each fires once per crossing,
// re-arms by its own rule, and respects its cooldown in market time.
import type { ScreenerRow as ViewScreenerRow } from '../views/pair-detail.js';
import type { Bar } from '../../core/messages.js';
import type { AlertOf, AlertRecord } from './alert-types.js';
import { TIMEFRAME_MS } from './types.js';

export interface AlertFire {
  readonly alert: AlertRecord;
  readonly symbol: string;
  readonly price: number;
  /** Market time of the observation that fired it. */
  readonly tsMs: number;
  /** Kind-specific figures added to the payload (e.g. the drawing's line price). */
  readonly detail: Readonly<Record<string, number | string>>;
}

/** Mutable state of one alert on one symbol. side: -1/+1 relative to its level, 0 unknown. */
export interface AlertState {
  side: number;
  lastFireMs: number;
  /** Sweep: 0 unknown, 1 armed, 2 pierced, 3 accepted beyond the level. */
  sweep: number;
  /** Delta flip: ring of per-bar deltas, their count, and the last non-zero slope sign. */
  deltas: Float64Array | null;
  deltaCount: number;
  slopeSign: number;
  lastBarOpenMs: number;
}

export function createAlertState(alert: AlertRecord): AlertState {
  return {
    side: 0, lastFireMs: -Infinity, sweep: 0,
    deltas: alert.kind === 'delta_flip' ? new Float64Array(alert.windowBars) : null,
    deltaCount: 0, slopeSign: 0, lastBarOpenMs: -Infinity,
  };
}

/** True (and the fire time recorded) when the cooldown since the last firing has passed. */
export function cooledDown(alert: AlertRecord, state: AlertState, tsMs: number): boolean {
  if (tsMs - state.lastFireMs < alert.cooldownMs) return false;
  state.lastFireMs = tsMs;
  return true;
}

/** Price alert: fires when price reaches the level from the other side. */
export function evaluatePrice(alert: AlertOf<'price'>, state: AlertState, price: number,
  tsMs: number): boolean {
  const beyond = alert.direction === 'above' ? price >= alert.level : price <= alert.level;
  const side = beyond ? 1 : -1;
  const crossed = state.side === -1 && side === 1;
  state.side = side;
  return crossed && cooledDown(alert, state, tsMs);
}

/** The drawing's line at a time: through both points, extended both ways. */
export function linePriceAt(alert: AlertOf<'drawing'>, tsMs: number): number {
  const { point1: a, point2: b } = alert;
  return a.price + ((b.price - a.price) * (tsMs - a.timeMs)) / (b.timeMs - a.timeMs);
}

/** Drawing alert: fires when price crosses the line in the chosen direction. */
export function evaluateDrawing(alert: AlertOf<'drawing'>, state: AlertState, price: number,
  tsMs: number): boolean {
  const line = linePriceAt(alert, tsMs);
  // Reaching the line counts as crossing it: up-crossings use >=, down-crossings <=.
  const side = alert.direction === 'below' ? (price <= line ? -1 : 1) : (price >= line ? 1 : -1);
  const previous = state.side;
  state.side = side;
  if (previous === 0 || previous === side) return false;
  if (alert.direction === 'above' && side !== 1) return false;
  if (alert.direction === 'below' && side !== -1) return false;
  return cooledDown(alert, state, tsMs);
}

const SWEEP_ARMED = 1;
const SWEEP_PIERCED = 2;
const SWEEP_ACCEPTED = 3;

function beyondLevel(alert: AlertOf<'sweep'>, price: number): boolean {
  return alert.side === 'high' ? price > alert.level : price < alert.level;
}

/** Sweep, on a trade or mark price: trading through the level from inside pierces it. */
export function evaluateSweepPrice(alert: AlertOf<'sweep'>, state: AlertState, price: number):
  void {
  const beyond = beyondLevel(alert, price);
  if (state.sweep === 0) state.sweep = beyond ? SWEEP_ACCEPTED : SWEEP_ARMED;
  else if (state.sweep === SWEEP_ARMED && beyond) state.sweep = SWEEP_PIERCED;
}

/**
 * Sweep, on a closed bar of its timeframe: a bar reaching through the level pierces it; a
 * pierced level fires when the bar closes back inside, or is accepted when it closes beyond
 * (no firing); an accepted level re-arms when a bar closes back inside.
 */
export function evaluateSweepBar(alert: AlertOf<'sweep'>, state: AlertState, bar: Bar): boolean {
  if (state.sweep === 0) state.sweep = beyondLevel(alert, bar.open) ? SWEEP_ACCEPTED : SWEEP_ARMED;
  const reach = alert.side === 'high' ? bar.high : bar.low;
  if (state.sweep === SWEEP_ARMED && beyondLevel(alert, reach)) state.sweep = SWEEP_PIERCED;
  const closedBeyond = beyondLevel(alert, bar.close);
  if (state.sweep === SWEEP_ACCEPTED) {
    if (!closedBeyond) state.sweep = SWEEP_ARMED;
    return false;
  }
  if (state.sweep !== SWEEP_PIERCED) return false;
  state.sweep = closedBeyond ? SWEEP_ACCEPTED : SWEEP_ARMED;
  return !closedBeyond && cooledDown(alert, state, bar.openMs + TIMEFRAME_MS[bar.timeframe]);
}

/**
 * Delta flip, on a closed bar: the slope is the bar delta summed over the last windowBars
 * bars (the CVD change over the window, immune to CVD resets). Fires when its sign differs
 * from the last non-zero sign, in the chosen direction.
 */
export function evaluateDeltaFlip(alert: AlertOf<'delta_flip'>, state: AlertState, bar: Bar):
  boolean {
  const deltas = state.deltas as Float64Array;
  deltas[state.deltaCount % alert.windowBars] = bar.buyNotional - bar.sellNotional;
  state.deltaCount += 1;
  if (state.deltaCount < alert.windowBars) return false;
  let slope = 0;
  for (let i = 0; i < alert.windowBars; i++) slope += deltas[i];
  const sign = Math.sign(slope);
  if (sign === 0) return false;
  const previous = state.slopeSign;
  state.slopeSign = sign;
  if (previous === 0 || previous === sign) return false;
  if (alert.direction === 'up' && sign < 0) return false;
  if (alert.direction === 'down' && sign > 0) return false;
  return cooledDown(alert, state, bar.openMs + TIMEFRAME_MS[bar.timeframe]);
}

/** One screener row: the numbers a screener alert can watch (the screener's own row type). */
export type ScreenerRow = Pick<ViewScreenerRow, 'symbol' | 'price' | 'change24h' | 'volume24h' |
  'openInterest' | 'fundingRate' | 'fundingAnnualized'>;

/**
 * Screener alert: fires when its condition starts to hold (also on the first row seen, as
 * the condition is a state, not a crossing), re-arms when it stops holding, and never fires
 * twice within its cooldown.
 */
export function evaluateScreener(alert: AlertOf<'screener'>, state: AlertState,
  row: ScreenerRow, tsMs: number): boolean {
  const value = row[alert.field];
  if (!Number.isFinite(value)) return false;
  const holds = alert.condition === 'above' ? value > alert.value : value < alert.value;
  const previous = state.side;
  state.side = holds ? 1 : -1;
  return holds && previous !== 1 && cooledDown(alert, state, tsMs);
}
