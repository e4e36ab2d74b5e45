// Whale (large) trades: prints with the same millisecond and aggressor side are merged first
// (one taker order sweeping levels), then a merged print of notional >= the pair's threshold is
// a whale. The threshold is a trailing quantile of merged notional (99.9 % over 24 h by
// default), a fixed fallback until enough prints were seen, never below a floor.
//
//   recent whales ring (capacity L, newest at head - 1): tsMs, price (VWAP), notional, size, side
import { checkOption, checkTrade } from './check.js';
import { asDoubleFields } from './double-fields.js';
import {
  advanceRollingHistogram, createRollingHistogram, pushRollingHistogram,
  quantileRollingHistogram, resetRollingHistogram, type RollingHistogram,
} from './rolling-histogram.js';

export interface WhaleOptions {
  readonly quantile: number;
  readonly windowMs: number;
  /** Merged prints in the window before the quantile replaces the fallback. */
  readonly minSamples: number;
  readonly fallbackUsd: number;
  readonly floorUsd: number;
  /** Recent whales kept. */
  readonly listSize: number;
}

export const defaultWhaleOptions: WhaleOptions = Object.freeze({
  quantile: 0.999, windowMs: 86_400_000, minSamples: 1000, fallbackUsd: 100_000,
  floorUsd: 10_000, listSize: 50,
});

/** Merged prints between two threshold recomputations (a quantile walks ~200 bins). */
const RECOMPUTE_EVERY = 256;
/** A whale was finalized (merged print closed at >= threshold). */
export const WHALE_CLOSED = 1;
/** The open merged print crossed the threshold with this trade (once per merged print). */
export const WHALE_CROSSED = 2;

export interface WhaleState {
  readonly quantile: number;
  readonly minSamples: number;
  readonly fallbackUsd: number;
  readonly floorUsd: number;
  readonly listSize: number;
  readonly notionals: RollingHistogram;
  thresholdUsd: number;
  sinceRecompute: number;
  lastTsMs: number;
  pendingTsMs: number;
  pendingSide: number;
  pendingSize: number;
  pendingNotional: number;
  pendingCrossed: boolean;
  mergedPrints: number;
  readonly tsMs: Float64Array;
  readonly price: Float64Array;
  readonly notional: Float64Array;
  readonly size: Float64Array;
  readonly side: Int8Array;
  head: number;
  count: number;
}

export interface WhaleSnapshot {
  /** Whales written, newest first, into the caller's arrays (length >= listSize). */
  count: number;
  readonly tsMs: Float64Array;
  readonly price: Float64Array;
  readonly notional: Float64Array;
  readonly size: Float64Array;
  readonly side: Int8Array;
  thresholdUsd: number;
}

export function createWhaleState(options: WhaleOptions = defaultWhaleOptions): WhaleState {
  checkOption('quantile', options.quantile, 0.5, 0.999999);
  checkOption('windowMs', options.windowMs, 60_000, 30 * 86_400_000, true);
  checkOption('minSamples', options.minSamples, 1, 1e9, true);
  checkOption('fallbackUsd', options.fallbackUsd, 0, 1e12);
  checkOption('floorUsd', options.floorUsd, 0, 1e12);
  checkOption('listSize', options.listSize, 1, 100_000, true);
  const l = options.listSize;
  const state: WhaleState = {
    quantile: options.quantile, minSamples: options.minSamples,
    fallbackUsd: options.fallbackUsd, floorUsd: options.floorUsd, listSize: l,
    // 24 slots over the window, $1 .. $2^34 (1.7e10) in 8 bins per octave (<= 12.5 % wide).
    notionals: createRollingHistogram(Math.ceil(options.windowMs / 24), 24, 0, 34, 8),
    thresholdUsd: 0, sinceRecompute: 0, lastTsMs: -Infinity, pendingTsMs: NaN,
    pendingSide: 0, pendingSize: 0, pendingNotional: 0, pendingCrossed: false,
    mergedPrints: 0,
    tsMs: new Float64Array(l), price: new Float64Array(l), notional: new Float64Array(l),
    size: new Float64Array(l), side: new Int8Array(l), head: 0, count: 0,
  };
  asDoubleFields(state, ['thresholdUsd', 'pendingSize', 'pendingNotional']);
  resetWhale(state);
  return state;
}

function clearPending(state: WhaleState): void {
  state.pendingTsMs = NaN;
  state.pendingSide = 0;
  state.pendingSize = 0;
  state.pendingNotional = 0;
  state.pendingCrossed = false;
}

export function resetWhale(state: WhaleState): void {
  resetRollingHistogram(state.notionals);
  state.thresholdUsd = Math.max(state.fallbackUsd, state.floorUsd);
  state.sinceRecompute = 0;
  state.lastTsMs = -Infinity;
  clearPending(state);
  state.mergedPrints = 0;
  state.tsMs.fill(0);
  state.price.fill(0);
  state.notional.fill(0);
  state.size.fill(0);
  state.side.fill(0);
  state.head = 0;
  state.count = 0;
}

/** Feed gap: drops the open merged print, keeps the distribution and the recent whales. */
export function gapWhale(state: WhaleState): void {
  clearPending(state);
}

function recomputeThreshold(state: WhaleState): void {
  state.sinceRecompute = 0;
  const h = state.notionals;
  state.thresholdUsd = h.count >= state.minSamples
    ? Math.max(quantileRollingHistogram(h, state.quantile), state.floorUsd)
    : Math.max(state.fallbackUsd, state.floorUsd);
}

/** Closes the open merged print (the caller clears or replaces it); true when a whale. */
function finalize(state: WhaleState): boolean {
  const notional = state.pendingNotional;
  const isWhale = notional >= state.thresholdUsd;
  if (isWhale) {
    const at = state.head;
    state.tsMs[at] = state.pendingTsMs;
    state.price[at] = notional / state.pendingSize;
    state.notional[at] = notional;
    state.size[at] = state.pendingSize;
    state.side[at] = state.pendingSide;
    state.head = (at + 1) % state.listSize;
    if (state.count < state.listSize) state.count += 1;
  }
  pushRollingHistogram(state.notionals, state.pendingTsMs, notional);
  state.mergedPrints += 1;
  if (++state.sinceRecompute >= RECOMPUTE_EVERY) recomputeThreshold(state);
  return isWhale;
}

/** Closes the open merged print once time has moved past its millisecond. */
export function advanceWhale(state: WhaleState, tsMs: number): number {
  if (!(tsMs > state.pendingTsMs)) return 0;
  const isWhale = finalize(state);
  clearPending(state);
  return isWhale ? WHALE_CLOSED : 0;
}

/** One trade; returns WHALE_CLOSED and/or WHALE_CROSSED bits. */
export function updateWhale(
  state: WhaleState, tsMs: number, price: number, size: number, side: number,
): number {
  checkTrade(tsMs, price, size, side, state.lastTsMs);
  state.lastTsMs = tsMs;
  return applyWhale(state, tsMs, price, size, side);
}

/**
 * The update without its input check, for a caller that checked the trade already and keeps
 * the time order itself (lastTsMs, which only the checked update reads, is not kept here).
 */
export function applyWhale(
  state: WhaleState, tsMs: number, price: number, size: number, side: number,
): number {
  let bits = 0;
  if (state.pendingTsMs === tsMs && state.pendingSide === side) {
    state.pendingSize += size;
    state.pendingNotional += price * size;
  } else {
    // finalize takes only the state: no number is boxed for the call when it is not inlined.
    if (!Number.isNaN(state.pendingTsMs) && finalize(state)) bits = WHALE_CLOSED;
    state.pendingTsMs = tsMs;
    state.pendingSide = side;
    state.pendingSize = size;
    state.pendingNotional = price * size;
    state.pendingCrossed = false;
  }
  if (!state.pendingCrossed && state.pendingNotional >= state.thresholdUsd) {
    state.pendingCrossed = true;
    bits |= WHALE_CROSSED;
  }
  return bits;
}

export function createWhaleSnapshot(listSize: number): WhaleSnapshot {
  return asDoubleFields<WhaleSnapshot>({
    count: 0, tsMs: new Float64Array(listSize), price: new Float64Array(listSize),
    notional: new Float64Array(listSize), size: new Float64Array(listSize),
    side: new Int8Array(listSize), thresholdUsd: 0,
  }, ['thresholdUsd']);
}

export function snapshotWhale(state: WhaleState, out: WhaleSnapshot): WhaleSnapshot {
  const n = Math.min(state.count, out.tsMs.length);
  for (let k = 0; k < n; k++) {
    const at = (state.head - 1 - k + state.listSize) % state.listSize;
    out.tsMs[k] = state.tsMs[at];
    out.price[k] = state.price[at];
    out.notional[k] = state.notional[at];
    out.size[k] = state.size[at];
    out.side[k] = state.side[at];
  }
  out.count = n;
  out.thresholdUsd = state.thresholdUsd;
  return out;
}

/** Net over gross whale notional with tsMs > nowMs - windowMs, in [-1, 1]; NaN when none. */
export function whaleFlowRatio(state: WhaleState, nowMs: number, windowMs: number): number {
  let net = 0;
  let gross = 0;
  for (let k = 0; k < state.count; k++) {
    const at = (state.head - 1 - k + state.listSize) % state.listSize;
    if (state.tsMs[at] <= nowMs - windowMs) break;
    net += state.side[at] * state.notional[at];
    gross += state.notional[at];
  }
  return gross > 0 ? net / gross : NaN;
}

/** Keeps the histogram's slots current when only time passes (no merged prints). */
export function advanceWhaleWindow(state: WhaleState, tsMs: number): void {
  if (state.notionals.slotIndex !== -Infinity) advanceRollingHistogram(state.notionals, tsMs);
}
