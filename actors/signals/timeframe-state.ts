// Per-timeframe detector state: a ring of recent bars, the last swings, day levels and ATR.
// Sized once from the options; updating it allocates nothing.
//
//   ring (capacity = historyBars), newest at back 0:
//   [ .. | back 2 | back 1 | back 0 ] head -> next write slot (wraps)
import type { Bar } from '../../core/messages.js';
import type { DetectorOptions } from './detector-options.js';
import { asDoubleFields } from '../../kernels/double-fields.js';

const DAY_MS = 86_400_000;

export interface TimeframeState {
  readonly capacity: number;
  readonly high: Float64Array;
  readonly low: Float64Array;
  /** The detector's own cumulative bar delta (buy - sell notional), never reset by day. */
  readonly flow: Float64Array;
  head: number;
  count: number;
  lastOpenMs: number;
  /** Last confirmed swing high/low price (NaN for none) and whether a bar consumed it. */
  swingHigh: number;
  swingHighConsumed: boolean;
  swingLow: number;
  swingLowConsumed: boolean;
  /** Direction of the last structure break: +1 up, -1 down, 0 none yet. */
  trend: number;
  flowTotal: number;
  /** UTC day of the bars folded into dayHigh/dayLow/vwap, as epoch day number. */
  day: number;
  dayHigh: number;
  dayLow: number;
  priorDayHigh: number;
  priorDayLow: number;
  vwapPriceVolume: number;
  vwapVolume: number;
  atr: number;
  atrCount: number;
  prevClose: number;
}

export function createTimeframeState(options: DetectorOptions): TimeframeState {
  const capacity = options.historyBars;
  const state: TimeframeState = {
    capacity,
    high: new Float64Array(capacity),
    low: new Float64Array(capacity),
    flow: new Float64Array(capacity),
    head: 0, count: 0, lastOpenMs: -Infinity,
    swingHigh: NaN, swingHighConsumed: false, swingLow: NaN, swingLowConsumed: false,
    trend: 0, flowTotal: 0,
    day: NaN, dayHigh: NaN, dayLow: NaN, priorDayHigh: NaN, priorDayLow: NaN,
    vwapPriceVolume: 0, vwapVolume: 0, atr: 0, atrCount: 0, prevClose: NaN,
  };
  return asDoubleFields(state, ['flowTotal', 'vwapPriceVolume', 'vwapVolume', 'atr']);
}

/** Forgets everything (a feed gap): nothing is computed across the gap. */
export function resetTimeframeState(state: TimeframeState): void {
  state.head = 0;
  state.count = 0;
  state.lastOpenMs = -Infinity;
  state.swingHigh = NaN;
  state.swingHighConsumed = false;
  state.swingLow = NaN;
  state.swingLowConsumed = false;
  state.trend = 0;
  state.flowTotal = 0;
  state.day = NaN;
  state.dayHigh = state.dayLow = state.priorDayHigh = state.priorDayLow = NaN;
  state.vwapPriceVolume = state.vwapVolume = 0;
  state.atr = 0;
  state.atrCount = 0;
  state.prevClose = NaN;
}

/** Ring slot of the bar `back` places before the newest (0 = newest). */
export function slot(state: TimeframeState, back: number): number {
  return (state.head - 1 - back + 2 * state.capacity) % state.capacity;
}

/** Rolls the UTC day before a bar of a new day is evaluated: prior-day levels become known. */
export function rollDay(state: TimeframeState, openMs: number): void {
  const day = Math.floor(openMs / DAY_MS);
  if (day === state.day) return;
  if (!Number.isNaN(state.day)) {
    state.priorDayHigh = state.dayHigh;
    state.priorDayLow = state.dayLow;
  }
  state.day = day;
  state.dayHigh = NaN;
  state.dayLow = NaN;
  state.vwapPriceVolume = 0;
  state.vwapVolume = 0;
}

/** Session VWAP of the current UTC day before the bar being evaluated; NaN when none yet. */
export function sessionVwap(state: TimeframeState): number {
  return state.vwapVolume > 0 ? state.vwapPriceVolume / state.vwapVolume : NaN;
}

/** Folds a closed bar in, after the logics have seen the state as it was before it. */
export function pushBar(state: TimeframeState, bar: Bar, options: DetectorOptions): void {
  state.flowTotal += bar.buyNotional - bar.sellNotional;
  const i = state.head;
  state.high[i] = bar.high;
  state.low[i] = bar.low;
  state.flow[i] = state.flowTotal;
  state.head = (i + 1) % state.capacity;
  if (state.count < state.capacity) state.count += 1;
  state.lastOpenMs = bar.openMs;
  state.dayHigh = Number.isNaN(state.dayHigh) ? bar.high : Math.max(state.dayHigh, bar.high);
  state.dayLow = Number.isNaN(state.dayLow) ? bar.low : Math.min(state.dayLow, bar.low);
  state.vwapPriceVolume += ((bar.high + bar.low + bar.close) / 3) * bar.volume;
  state.vwapVolume += bar.volume;
  updateAtr(state, bar, options.atrBars);
  confirmSwings(state, options.swingStrengthBars);
}

function updateAtr(state: TimeframeState, bar: Bar, atrBars: number): void {
  const prev = state.prevClose;
  const trueRange = Number.isNaN(prev)
    ? bar.high - bar.low
    : Math.max(bar.high, prev) - Math.min(bar.low, prev);
  // Plain mean until atrBars are seen, then Wilder's smoothing.
  if (state.atrCount < atrBars) {
    state.atrCount += 1;
    state.atr += (trueRange - state.atr) / state.atrCount;
  } else {
    state.atr += (trueRange - state.atr) / atrBars;
  }
  state.prevClose = bar.close;
}

/** The bar `strength` places back becomes a swing when it beats `strength` bars each side. */
function confirmSwings(state: TimeframeState, strength: number): void {
  if (state.count < 2 * strength + 1) return;
  const c = slot(state, strength);
  let isHigh = true;
  let isLow = true;
  for (let back = 0; back <= 2 * strength; back++) {
    if (back === strength) continue;
    const s = slot(state, back);
    if (state.high[s] >= state.high[c]) isHigh = false;
    if (state.low[s] <= state.low[c]) isLow = false;
  }
  if (isHigh) {
    state.swingHigh = state.high[c];
    state.swingHighConsumed = false;
  }
  if (isLow) {
    state.swingLow = state.low[c];
    state.swingLowConsumed = false;
  }
}
