// Kyle's lambda: rolling OLS with intercept of the interval log return (bps, last trade price)
// on the interval's signed flow (net USD notional in millions), so lambda is bps per $1M.
// The Hasbrouck variant uses the signed square root of each trade's dollar volume instead.
//
//   ring of N closed intervals (oldest at head - count): flow[k] (x), returnBps[k] (r)
import { checkOption, checkTrade, reject } from './check.js';
import { asDoubleFields } from './double-fields.js';

export type KyleFlow = 'notional' | 'hasbrouck';

export interface KyleOptions {
  readonly intervalMs: number;
  /** N, intervals in the rolling regression. */
  readonly windowIntervals: number;
  /** Intervals needed before lambda is reported. */
  readonly minIntervals: number;
  readonly flow: KyleFlow;
}

export const defaultKyleOptions: KyleOptions = Object.freeze({
  intervalMs: 60_000, windowIntervals: 30, minIntervals: 20, flow: 'notional',
});

export interface KyleState {
  readonly intervalMs: number;
  readonly windowIntervals: number;
  readonly minIntervals: number;
  readonly hasbrouck: boolean;
  lastTsMs: number;
  intervalEndMs: number;
  /** Signed flow of the open interval, in USD millions (sqrt USD for Hasbrouck). */
  openFlow: number;
  lastPrice: number;
  /** Last price of the previous closed interval: the reference of the open one's return. */
  referencePrice: number;
  readonly flow: Float64Array;
  readonly returnBps: Float64Array;
  head: number;
  count: number;
  lambda: number;
  intercept: number;
}

export interface KyleSnapshot {
  /** bps per $1M of net flow (per sqrt-$ for Hasbrouck); null when unknown or flat flow. */
  kyleLambda: number | null;
  intercept: number | null;
  intervals: number;
}

export function createKyleState(options: KyleOptions = defaultKyleOptions): KyleState {
  checkOption('intervalMs', options.intervalMs, 1, 86_400_000, true);
  checkOption('windowIntervals', options.windowIntervals, 3, 100_000, true);
  checkOption('minIntervals', options.minIntervals, 3, options.windowIntervals, true);
  if (options.flow !== 'notional' && options.flow !== 'hasbrouck') {
    reject('option flow', "'notional' or 'hasbrouck'", options.flow);
  }
  const state: KyleState = {
    intervalMs: options.intervalMs, windowIntervals: options.windowIntervals,
    minIntervals: options.minIntervals, hasbrouck: options.flow === 'hasbrouck',
    lastTsMs: -Infinity, intervalEndMs: -Infinity, openFlow: 0, lastPrice: NaN,
    referencePrice: NaN,
    flow: new Float64Array(options.windowIntervals),
    returnBps: new Float64Array(options.windowIntervals),
    head: 0, count: 0, lambda: NaN, intercept: NaN,
  };
  return asDoubleFields(state, ['openFlow']);
}

export function resetKyle(state: KyleState): void {
  state.lastTsMs = -Infinity;
  state.intervalEndMs = -Infinity;
  state.openFlow = 0;
  state.lastPrice = NaN;
  state.referencePrice = NaN;
  state.flow.fill(0);
  state.returnBps.fill(0);
  state.head = 0;
  state.count = 0;
  state.lambda = NaN;
  state.intercept = NaN;
}

/** Feed gap: drops the open interval and its reference price; closed intervals are kept. */
export function gapKyle(state: KyleState): void {
  state.intervalEndMs = -Infinity;
  state.openFlow = 0;
  state.lastPrice = NaN;
  state.referencePrice = NaN;
}

function pushPoint(state: KyleState, x: number, r: number): void {
  state.flow[state.head] = x;
  state.returnBps[state.head] = r;
  state.head = (state.head + 1) % state.windowIntervals;
  if (state.count < state.windowIntervals) state.count += 1;
}

/** Two-pass OLS with intercept over the ring; NaN when the flow has no variation. */
function regress(state: KyleState): void {
  const n = state.count;
  if (n < state.minIntervals) {
    state.lambda = NaN;
    state.intercept = NaN;
    return;
  }
  let sx = 0;
  let sr = 0;
  for (let k = 0; k < n; k++) {
    sx += state.flow[k];
    sr += state.returnBps[k];
  }
  const mx = sx / n;
  const mr = sr / n;
  let sxx = 0;
  let sxr = 0;
  let squares = 0;
  for (let k = 0; k < n; k++) {
    const dx = state.flow[k] - mx;
    sxx += dx * dx;
    sxr += dx * (state.returnBps[k] - mr);
    squares += state.flow[k] * state.flow[k];
  }
  // Flow with no variation (up to rounding) has no slope: unknown, not a huge number.
  const varies = sxx > 1e-12 * squares;
  state.lambda = varies ? sxr / sxx : NaN;
  state.intercept = varies ? mr - state.lambda * mx : NaN;
}

/** Closes the open interval and the empty ones (zero flow, zero return) before `tsMs`. */
export function advanceKyle(state: KyleState, tsMs: number): boolean {
  if (state.intervalEndMs === -Infinity || tsMs < state.intervalEndMs) return false;
  const ms = state.intervalMs;
  if (!Number.isNaN(state.referencePrice)) {
    pushPoint(state, state.openFlow, Math.log(state.lastPrice / state.referencePrice) * 1e4);
    const empty = (Math.floor(tsMs / ms) * ms - state.intervalEndMs) / ms;
    for (let k = Math.max(0, empty - state.windowIntervals); k < empty; k++) {
      pushPoint(state, 0, 0);
    }
    regress(state);
  }
  state.referencePrice = state.lastPrice;
  state.openFlow = 0;
  state.intervalEndMs = (Math.floor(tsMs / ms) + 1) * ms;
  return true;
}

/** One trade (side +1 buy aggressor, -1 sell). Returns true when an interval closed. */
export function updateKyle(
  state: KyleState, tsMs: number, price: number, size: number, side: number,
): boolean {
  checkTrade(tsMs, price, size, side, state.lastTsMs);
  state.lastTsMs = tsMs;
  return applyKyle(state, tsMs, price, size, side);
}

/**
 * The update without its input check, for a caller that checked the trade already and keeps
 * the time order itself (lastTsMs, which only the checked update reads, is not kept here).
 */
export function applyKyle(
  state: KyleState, tsMs: number, price: number, size: number, side: number,
): boolean {
  // One comparison on the common path: intervalEndMs is -Infinity before the first interval.
  const closed = tsMs >= state.intervalEndMs ? rollInterval(state, tsMs) : false;
  const notional = price * size;
  // Flow in the regression's unit: USD millions, or sqrt(USD) for the Hasbrouck form.
  state.openFlow += state.hasbrouck ? side * Math.sqrt(notional) : side * notional * 1e-6;
  state.lastPrice = price;
  return closed;
}

/** Opens the first interval, or closes the open one (and empty ones) before `tsMs`. */
function rollInterval(state: KyleState, tsMs: number): boolean {
  if (state.intervalEndMs !== -Infinity) return advanceKyle(state, tsMs);
  state.intervalEndMs = (Math.floor(tsMs / state.intervalMs) + 1) * state.intervalMs;
  return false;
}

export function isKyleReady(state: KyleState): boolean {
  return !Number.isNaN(state.lambda);
}

export function snapshotKyle(state: KyleState, out: KyleSnapshot): KyleSnapshot {
  out.kyleLambda = Number.isNaN(state.lambda) ? null : state.lambda;
  out.intercept = Number.isNaN(state.intercept) ? null : state.intercept;
  out.intervals = state.count;
  return out;
}
