// One tracked pair's analytics: every kernel behind one state, updated synchronously per event
// with primitive arguments. Updates return a bitmask of what happened so the pair actor can
// react (record a whale's addresses, detect signals on bar close) without allocation.
import {
  advanceAbsorption, applyAbsorption, createAbsorptionState, gapAbsorption, resetAbsorption,
  type AbsorptionState,
} from './absorption.js';
import {
  advanceBars, applyBars, closedBarAgo, createBarsState, createKernelBar, gapBars, resetBars,
  type BarsState, type KernelBar,
} from './bars.js';
import { checkTime, checkTrade, reject } from './check.js';
import { asDoubleFields } from './double-fields.js';
import {
  advanceCvd, applyCvd, createCvdState, gapCvd, resetCvd, type CvdState,
} from './cvd.js';
import {
  advanceKyle, applyKyle, createKyleState, gapKyle, resetKyle, type KyleState,
} from './kyle.js';
import { createObiState, resetObi, updateObi, type ObiState } from './obi.js';
import {
  advanceOfi, applyOfi, createOfiState, gapOfi, resetOfi, type OfiState,
} from './ofi.js';
import {
  defaultPairAnalyticsOptions, kernelOptionsOf, type PairAnalyticsOptions,
} from './pair-options.js';
import {
  classifyRegime, createRegimeState, pushRegimeBar, resetRegime, type RegimeState,
} from './regime.js';
import { checkScoreOptions } from './score.js';
import {
  createVpinLevelState, resetVpinLevel, updateVpinLevel, type VpinLevelState,
} from './vpin-level.js';
import {
  advanceVpin, applyVpinAggressor, applyVpinBvc, createVpinState, gapVpin, resetVpin,
  resizeVpinBucketVolume, setVpinBucketVolume, type VpinState,
} from './vpin.js';
import {
  advanceWhale, applyWhale, createWhaleState, gapWhale, resetWhale, WHALE_CLOSED,
  WHALE_CROSSED, type WhaleState,
} from './whale.js';

/** Bits of the mask onTrade / onBook / onTime return. Bits 0..2: a 5m / 15m / 1h bar closed. */
export const BAR_5M_CLOSED = 1;
export const BAR_15M_CLOSED = 2;
export const BAR_1H_CLOSED = 4;
/** A merged print closed as a whale (read it first in the snapshot's whale list). */
export const WHALE_PRINT = 8;
/** The open merged print crossed the whale threshold with this very trade. */
export const WHALE_PRINT_CROSSED = 16;
/** A window closed as an absorption event. */
export const ABSORPTION_EVENT = 32;
/** A VPIN bucket (aggressor or BVC) completed. */
export const VPIN_BUCKET = 64;
/** A Kyle interval closed (lambda re-estimated). */
export const KYLE_INTERVAL = 128;
/** An OFI interval closed. */
export const OFI_INTERVAL = 256;

export interface PairAnalytics {
  readonly options: PairAnalyticsOptions;
  readonly cvd: CvdState;
  readonly vpin: VpinState;
  readonly vpinBvc: VpinState;
  readonly vpinLevel: VpinLevelState;
  readonly vpinBvcLevel: VpinLevelState;
  readonly obi: ObiState;
  readonly ofi: OfiState;
  readonly kyle: KyleState;
  readonly bars: BarsState;
  readonly whale: WhaleState;
  readonly absorption: AbsorptionState;
  readonly regime: RegimeState;
  /** Closed 5m bars already folded into the regime. */
  regimeBarsSeen: number;
  readonly scratchBar: KernelBar;
  lastTradeTsMs: number;
  lastBookTsMs: number;
  lastTradePrice: number;
  markPrice: number;
  fundingHourly: number;
}

export function createPairAnalytics(
  override: Partial<PairAnalyticsOptions> = {},
): PairAnalytics {
  const options = Object.freeze({ ...defaultPairAnalyticsOptions, ...override });
  checkScoreOptions(options);
  const k = kernelOptionsOf(options);
  const state: PairAnalytics = {
    options,
    cvd: createCvdState(k.cvd),
    vpin: createVpinState(k.vpin('aggressor')),
    vpinBvc: createVpinState(k.vpin('bvc')),
    vpinLevel: createVpinLevelState(k.vpinLevel),
    vpinBvcLevel: createVpinLevelState(k.vpinLevel),
    obi: createObiState(k.obi), ofi: createOfiState(k.ofi), kyle: createKyleState(k.kyle),
    bars: createBarsState(k.bars), whale: createWhaleState(k.whale),
    absorption: createAbsorptionState(k.absorption), regime: createRegimeState(k.regime),
    regimeBarsSeen: 0, scratchBar: createKernelBar(),
    lastTradeTsMs: -Infinity, lastBookTsMs: -Infinity, lastTradePrice: NaN, markPrice: NaN,
    fundingHourly: NaN,
  };
  // Set from a Float64Array (bars' closedTotal): a double, though a whole number.
  return asDoubleFields(state, ['regimeBarsSeen']);
}

/** Full reset: every kernel, history and learned distribution back to its initial state. */
export function resetPairAnalytics(state: PairAnalytics): void {
  resetCvd(state.cvd);
  resetVpin(state.vpin);
  resetVpin(state.vpinBvc);
  resetVpinLevel(state.vpinLevel);
  resetVpinLevel(state.vpinBvcLevel);
  resetObi(state.obi);
  resetOfi(state.ofi);
  resetKyle(state.kyle);
  resetBars(state.bars);
  resetWhale(state.whale);
  resetAbsorption(state.absorption);
  resetRegime(state.regime);
  state.regimeBarsSeen = 0;
  state.lastTradeTsMs = -Infinity;
  state.lastBookTsMs = -Infinity;
  state.lastTradePrice = NaN;
  state.markPrice = NaN;
  state.fundingHourly = NaN;
}

/**
 * Feed gap: nothing is computed across it. Drops every open aggregate (bars, the open VPIN
 * bucket and BVC bar, OFI's previous book, Kyle and absorption windows, the open merged print,
 * the UTC-day CVD) and keeps what closed before it: bar, CVD, OFI and Kyle history, completed
 * VPIN buckets and distributions, whale and absorption lists. Time still only moves forward.
 */
export function gapPairAnalytics(state: PairAnalytics): void {
  gapCvd(state.cvd);
  gapVpin(state.vpin);
  gapVpin(state.vpinBvc);
  resetObi(state.obi);
  state.obi.lastTsMs = state.lastBookTsMs;
  gapOfi(state.ofi);
  gapKyle(state.kyle);
  gapBars(state.bars);
  gapWhale(state.whale);
  gapAbsorption(state.absorption);
  state.lastTradePrice = NaN;
}

/** Sets V (base units; ADV / 50) for both VPINs; restarts their buckets and distributions. */
export function setPairVpinBucketVolume(state: PairAnalytics, bucketVolume: number): void {
  setVpinBucketVolume(state.vpin, bucketVolume);
  setVpinBucketVolume(state.vpinBvc, bucketVolume);
  resetVpinLevel(state.vpinLevel);
  resetVpinLevel(state.vpinBvcLevel);
}

/**
 * Changes V (base units; ADV / 50) for both VPINs for the volume still to come: the buckets
 * already filled, their VPIN and its distribution stay (a V of 0 restarts the buckets).
 */
export function resizePairVpinBucketVolume(state: PairAnalytics, bucketVolume: number): void {
  resizeVpinBucketVolume(state.vpin, bucketVolume);
  resizeVpinBucketVolume(state.vpinBvc, bucketVolume);
}

/** Rates the VPIN values of the buckets just completed; VPIN_BUCKET when any completed. */
function rateNewVpins(vpin: VpinState, level: VpinLevelState): number {
  const b = vpin.buckets;
  for (let k = 0; k < b.newCount; k++) updateVpinLevel(level, b.newValues[k]);
  return VPIN_BUCKET;
}

/** Folds the 5m bars closed since the last call into the regime, oldest first. */
function feedRegime(state: PairAnalytics): void {
  const bars = state.bars;
  const fresh = Math.min(bars.closedTotal[0] - state.regimeBarsSeen, bars.count[0],
    state.options.regimeRvHistory + state.options.regimeBars + 1);
  let pushed = false;
  for (let back = fresh - 1; back >= 0; back--) {
    if (closedBarAgo(bars, 0, back, state.scratchBar)) {
      const b = state.scratchBar;
      pushRegimeBar(state.regime, b.high, b.low, b.close);
      pushed = true;
    }
  }
  // Classified once for the batch (after a candle's hour, up to 12 bars): the same result.
  if (pushed) classifyRegime(state.regime);
  state.regimeBarsSeen = bars.closedTotal[0];
}

/** Closes everything that ended at or before `tsMs`, with no new event. */
function advanceAll(state: PairAnalytics, tsMs: number): number {
  let bits = advanceBars(state.bars, tsMs);
  advanceCvd(state.cvd, tsMs);
  if (advanceVpin(state.vpinBvc, tsMs) > 0) {
    bits |= rateNewVpins(state.vpinBvc, state.vpinBvcLevel);
  }
  if ((advanceWhale(state.whale, tsMs) & WHALE_CLOSED) !== 0) bits |= WHALE_PRINT;
  if (advanceAbsorption(state.absorption, tsMs)) bits |= ABSORPTION_EVENT;
  if (advanceKyle(state.kyle, tsMs)) bits |= KYLE_INTERVAL;
  if ((bits & BAR_5M_CLOSED) !== 0) feedRegime(state);
  return bits;
}

/**
 * Market time passed without a trade (the actor's tick): closes bars and windows that ended.
 * Trades after this call must not be older than `tsMs`.
 */
export function onTime(state: PairAnalytics, tsMs: number): number {
  checkTime(tsMs, -Infinity);
  if (tsMs <= state.lastTradeTsMs) return 0;
  state.lastTradeTsMs = tsMs;
  let bits = advanceAll(state, tsMs);
  if (tsMs > state.lastBookTsMs && advanceOfi(state.ofi, tsMs)) bits |= OFI_INTERVAL;
  return bits;
}

/**
 * One trade print: side +1 buy aggressor, -1 sell aggressor. Returns the event bitmask.
 * Shaped for speed: every kernel's per-trade function is small enough for the optimizer to
 * inline here (a call that is not inlined boxes its number arguments: an allocation each),
 * and everything that happens on a boundary (a bucket or bar closing) sits behind one test.
 */
export function onTrade(
  state: PairAnalytics, tsMs: number, price: number, size: number, side: number,
): number {
  // Checked once here, before any kernel changes, so the kernels' unchecked apply is safe.
  checkTrade(tsMs, price, size, side, state.lastTradeTsMs);
  applyCvd(state.cvd, tsMs, price, size, side);
  let bits = 0;
  if (applyVpinAggressor(state.vpin, tsMs, size, side) > 0) {
    bits = rateNewVpins(state.vpin, state.vpinLevel);
  }
  if (applyVpinBvc(state.vpinBvc, tsMs, price, size) > 0) {
    bits |= rateNewVpins(state.vpinBvc, state.vpinBvcLevel);
  }
  const closedBars = applyBars(state.bars, tsMs, price, size, side);
  if (closedBars !== 0) bits |= barsClosed(state, closedBars);
  const whale = applyWhale(state.whale, tsMs, price, size, side);
  if (whale !== 0) bits |= whaleBits(whale);
  if (applyAbsorption(state.absorption, tsMs, price, size, side)) bits |= ABSORPTION_EVENT;
  if (applyKyle(state.kyle, tsMs, price, size, side)) bits |= KYLE_INTERVAL;
  state.lastTradeTsMs = tsMs;
  state.lastTradePrice = price;
  return bits;
}

/**
 * One print made from a candle (see candle-split.ts): like onTrade, but it stays out of the
 * whale and absorption kernels, which learn from real prints (a candle's quarter volume is no
 * trade's size). Returns the event bitmask.
 */
export function onCandlePrint(
  state: PairAnalytics, tsMs: number, price: number, size: number, side: number,
): number {
  checkTrade(tsMs, price, size, side, state.lastTradeTsMs);
  applyCvd(state.cvd, tsMs, price, size, side);
  let bits = 0;
  if (applyVpinAggressor(state.vpin, tsMs, size, side) > 0) {
    bits = rateNewVpins(state.vpin, state.vpinLevel);
  }
  if (applyVpinBvc(state.vpinBvc, tsMs, price, size) > 0) {
    bits |= rateNewVpins(state.vpinBvc, state.vpinBvcLevel);
  }
  const closedBars = applyBars(state.bars, tsMs, price, size, side);
  if (closedBars !== 0) bits |= barsClosed(state, closedBars);
  if (advanceWhale(state.whale, tsMs) & WHALE_CLOSED) bits |= WHALE_PRINT;
  if (advanceAbsorption(state.absorption, tsMs)) bits |= ABSORPTION_EVENT;
  if (applyKyle(state.kyle, tsMs, price, size, side)) bits |= KYLE_INTERVAL;
  state.lastTradeTsMs = tsMs;
  state.lastTradePrice = price;
  return bits;
}

function barsClosed(state: PairAnalytics, closedBars: number): number {
  if ((closedBars & BAR_5M_CLOSED) !== 0) feedRegime(state);
  return closedBars;
}

function whaleBits(whale: number): number {
  return ((whale & WHALE_CLOSED) !== 0 ? WHALE_PRINT : 0) |
    ((whale & WHALE_CROSSED) !== 0 ? WHALE_PRINT_CROSSED : 0);
}

/** One book of the top levels, best first on each side (sizes in base units). */
export function onBook(
  state: PairAnalytics, tsMs: number, bidPx: Float64Array, bidSz: Float64Array,
  bidLevels: number, askPx: Float64Array, askSz: Float64Array, askLevels: number,
): number {
  // OBI's update validates the whole book before changing anything (its clock follows the
  // books, also across a gap), so OFI takes the same book unchecked: one validation pass.
  updateObi(state.obi, tsMs, bidPx, bidSz, bidLevels, askPx, askSz, askLevels);
  const closed = applyOfi(state.ofi, tsMs, bidPx, bidSz, bidLevels, askPx, askSz, askLevels);
  state.lastBookTsMs = tsMs;
  return closed ? OFI_INTERVAL : 0;
}

/** The pair's raw hourly funding rate on the home venue. */
export function onFunding(state: PairAnalytics, hourlyRate: number): void {
  if (!Number.isFinite(hourlyRate)) reject('funding hourlyRate', 'a finite number', hourlyRate);
  state.fundingHourly = hourlyRate;
}

/** The venue's mark price: the `price` the views show. */
export function onMark(state: PairAnalytics, markPx: number): void {
  if (!(markPx > 0 && markPx < Infinity)) reject('markPx', 'a finite number > 0', markPx);
  state.markPrice = markPx;
}
