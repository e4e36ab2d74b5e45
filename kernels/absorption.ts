// Absorption events (docs/analytics.md, "Absorption"): in a window W, heavy
// one-sided aggression (notional >= N_min, imbalance beyond +-0.3) that fails to move price
// more than m bps its way. N_min is the trailing 95th percentile of one-sided window notional
// (past windows only), a fixed fallback until enough windows were seen.
//
//   events ring (capacity L, newest at head - 1): openMs, kind, buyNotional, sellNotional, moveBps
import { checkOption, checkTrade } from './check.js';
import { asDoubleFields } from './double-fields.js';
import {
  createRollingHistogram, pushRollingHistogram, quantileRollingHistogram,
  resetRollingHistogram, type RollingHistogram,
} from './rolling-histogram.js';

/** Bullish: passive bids held against aggressive selling. */
export const SELL_ABSORBED = 1;
/** Bearish: passive asks held against aggressive buying. */
export const BUY_ABSORBED = -1;

export interface AbsorptionOptions {
  readonly windowMs: number;
  /** |imbalance| threshold, (AB - AS) / (AB + AS). */
  readonly imbalanceMin: number;
  /** m: the most price may move the aggressor's way, in bps. */
  readonly moveBpsMax: number;
  readonly quantile: number;
  readonly historyMs: number;
  /** One-sided window values needed before the quantile replaces the fallback. */
  readonly minSamples: number;
  readonly fallbackUsd: number;
  readonly listSize: number;
}

export const defaultAbsorptionOptions: AbsorptionOptions = Object.freeze({
  windowMs: 60_000, imbalanceMin: 0.3, moveBpsMax: 5, quantile: 0.95,
  historyMs: 86_400_000, minSamples: 120, fallbackUsd: 50_000, listSize: 50,
});

export interface AbsorptionState {
  readonly windowMs: number;
  readonly imbalanceMin: number;
  readonly moveBpsMax: number;
  readonly quantile: number;
  readonly minSamples: number;
  readonly fallbackUsd: number;
  readonly listSize: number;
  readonly sides: RollingHistogram;
  lastTsMs: number;
  windowEndMs: number;
  buyNotional: number;
  sellNotional: number;
  firstPrice: number;
  lastPrice: number;
  /** N_min used for the last closed window. */
  notionalMinUsd: number;
  readonly openMs: Float64Array;
  readonly kind: Int8Array;
  readonly buy: Float64Array;
  readonly sell: Float64Array;
  readonly moveBps: Float64Array;
  head: number;
  count: number;
}

export interface AbsorptionSnapshot {
  /** Events written, newest first, into the caller's arrays. */
  count: number;
  readonly openMs: Float64Array;
  readonly kind: Int8Array;
  readonly buyNotional: Float64Array;
  readonly sellNotional: Float64Array;
  readonly moveBps: Float64Array;
  notionalMinUsd: number;
}

export function createAbsorptionState(
  options: AbsorptionOptions = defaultAbsorptionOptions,
): AbsorptionState {
  checkOption('windowMs', options.windowMs, 1000, 86_400_000, true);
  checkOption('imbalanceMin', options.imbalanceMin, 0, 1);
  checkOption('moveBpsMax', options.moveBpsMax, 0, 10_000);
  checkOption('quantile', options.quantile, 0.5, 0.9999);
  checkOption('historyMs', options.historyMs, options.windowMs, 30 * 86_400_000, true);
  checkOption('minSamples', options.minSamples, 1, 1e9, true);
  checkOption('fallbackUsd', options.fallbackUsd, 0, 1e12);
  checkOption('listSize', options.listSize, 1, 100_000, true);
  const l = options.listSize;
  const state: AbsorptionState = {
    ...options,
    sides: createRollingHistogram(Math.ceil(options.historyMs / 24), 24, 0, 34, 8),
    lastTsMs: -Infinity, windowEndMs: -Infinity, buyNotional: 0, sellNotional: 0,
    firstPrice: NaN, lastPrice: NaN, notionalMinUsd: options.fallbackUsd,
    openMs: new Float64Array(l), kind: new Int8Array(l), buy: new Float64Array(l),
    sell: new Float64Array(l), moveBps: new Float64Array(l), head: 0, count: 0,
  };
  return asDoubleFields(state, ['buyNotional', 'sellNotional']);
}

export function resetAbsorption(state: AbsorptionState): void {
  resetRollingHistogram(state.sides);
  state.lastTsMs = -Infinity;
  gapAbsorption(state);
  state.notionalMinUsd = state.fallbackUsd;
  state.openMs.fill(0);
  state.kind.fill(0);
  state.buy.fill(0);
  state.sell.fill(0);
  state.moveBps.fill(0);
  state.head = 0;
  state.count = 0;
}

/** Feed gap: drops the open window, keeps the distribution and the recent events. */
export function gapAbsorption(state: AbsorptionState): void {
  state.windowEndMs = -Infinity;
  state.buyNotional = 0;
  state.sellNotional = 0;
  state.firstPrice = NaN;
  state.lastPrice = NaN;
}

/** The event kind of a closed window (0 for none). Exported for tests and analyze. */
export function classifyWindow(
  buy: number, sell: number, moveBps: number, notionalMin: number, imbalanceMin: number,
  moveBpsMax: number,
): number {
  const total = buy + sell;
  if (total <= 0) return 0;
  const imbalance = (buy - sell) / total;
  if (sell >= notionalMin && imbalance <= -imbalanceMin && moveBps >= -moveBpsMax) {
    return SELL_ABSORBED;
  }
  if (buy >= notionalMin && imbalance >= imbalanceMin && moveBps <= moveBpsMax) {
    return BUY_ABSORBED;
  }
  return 0;
}

function closeWindow(state: AbsorptionState): boolean {
  const h = state.sides;
  state.notionalMinUsd = h.count >= state.minSamples
    ? quantileRollingHistogram(h, state.quantile) : state.fallbackUsd;
  const openMs = state.windowEndMs - state.windowMs;
  const move = ((state.lastPrice - state.firstPrice) / state.firstPrice) * 1e4;
  const kind = classifyWindow(state.buyNotional, state.sellNotional, move,
    state.notionalMinUsd, state.imbalanceMin, state.moveBpsMax);
  if (kind !== 0) {
    const at = state.head;
    state.openMs[at] = openMs;
    state.kind[at] = kind;
    state.buy[at] = state.buyNotional;
    state.sell[at] = state.sellNotional;
    state.moveBps[at] = move;
    state.head = (at + 1) % state.listSize;
    if (state.count < state.listSize) state.count += 1;
  }
  // Only windows with trades enter the distribution (an idle pair would fill it with zeros).
  pushRollingHistogram(h, openMs, state.buyNotional);
  pushRollingHistogram(h, openMs, state.sellNotional);
  gapAbsorption(state);
  return kind !== 0;
}

/** Closes the open window when `tsMs` is past it; returns true when it made an event. */
export function advanceAbsorption(state: AbsorptionState, tsMs: number): boolean {
  if (tsMs < state.windowEndMs || Number.isNaN(state.firstPrice)) return false;
  return closeWindow(state);
}

/** One trade (side +1 buy aggressor, -1 sell); returns true when a window closed an event. */
export function updateAbsorption(
  state: AbsorptionState, tsMs: number, price: number, size: number, side: number,
): boolean {
  checkTrade(tsMs, price, size, side, state.lastTsMs);
  state.lastTsMs = tsMs;
  return applyAbsorption(state, tsMs, price, size, side);
}

/**
 * The update without its input check, for a caller that checked the trade already and keeps
 * the time order itself (lastTsMs, which only the checked update reads, is not kept here).
 */
export function applyAbsorption(
  state: AbsorptionState, tsMs: number, price: number, size: number, side: number,
): boolean {
  // One comparison on the common path: windowEndMs is -Infinity while no window is open.
  const event = tsMs >= state.windowEndMs ? rollWindow(state, tsMs, price) : false;
  if (side > 0) state.buyNotional += price * size;
  else state.sellNotional += price * size;
  state.lastPrice = price;
  return event;
}

/** Closes the open window (if any) and opens the one holding `tsMs` at `price`. */
function rollWindow(state: AbsorptionState, tsMs: number, price: number): boolean {
  const event = advanceAbsorption(state, tsMs);
  state.firstPrice = price;
  state.windowEndMs = (Math.floor(tsMs / state.windowMs) + 1) * state.windowMs;
  return event;
}

export function createAbsorptionSnapshot(listSize: number): AbsorptionSnapshot {
  return {
    count: 0, openMs: new Float64Array(listSize), kind: new Int8Array(listSize),
    buyNotional: new Float64Array(listSize), sellNotional: new Float64Array(listSize),
    moveBps: new Float64Array(listSize), notionalMinUsd: 0,
  };
}

export function snapshotAbsorption(
  state: AbsorptionState, out: AbsorptionSnapshot,
): AbsorptionSnapshot {
  const n = Math.min(state.count, out.openMs.length);
  for (let k = 0; k < n; k++) {
    const at = (state.head - 1 - k + state.listSize) % state.listSize;
    out.openMs[k] = state.openMs[at];
    out.kind[k] = state.kind[at];
    out.buyNotional[k] = state.buy[at];
    out.sellNotional[k] = state.sell[at];
    out.moveBps[k] = state.moveBps[at];
  }
  out.count = n;
  out.notionalMinUsd = state.notionalMinUsd;
  return out;
}
