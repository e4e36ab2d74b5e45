// VPIN (Easley, Lopez de Prado, O'Hara 2012) on equal-volume buckets, with the aggressor flag
// (the default: the venue names the taker) or bulk volume classification of time bars
// (normal or Student-t). The two give different levels: never compare them.
import { checkOption, checkTrade, reject } from './check.js';
import { asDoubleFields } from './double-fields.js';
import { normalCdf, studentTCdf } from './distributions.js';
import { ringSigma, writeRing } from './ring-sigma.js';
import {
  createVpinBuckets, fillVpinBuckets, resetVpinBuckets, resizeVpinBuckets, type VpinBuckets,
} from './vpin-buckets.js';

export type VpinMode = 'aggressor' | 'bvc';

export interface VpinOptions {
  /** V in base units (ADV / 50 by default); 0 while unknown: VPIN stays null. */
  readonly bucketVolume: number;
  /** n, buckets per VPIN window. */
  readonly windowBuckets: number;
  readonly mode: VpinMode;
  /** BVC time bar length. */
  readonly bvcBarMs: number;
  /** BVC distribution: 0 for the standard normal, else Student-t degrees of freedom. */
  readonly bvcDegreesOfFreedom: number;
  /** BVC sigma of price changes over this many trailing bars (current bar included). */
  readonly bvcSigmaBars: number;
}

export const defaultVpinOptions: VpinOptions = Object.freeze({
  bucketVolume: 0,
  windowBuckets: 50,
  mode: 'aggressor',
  bvcBarMs: 60_000,
  bvcDegreesOfFreedom: 0,
  bvcSigmaBars: 1440,
});

export interface VpinState {
  readonly mode: VpinMode;
  readonly bvcBarMs: number;
  readonly bvcDegreesOfFreedom: number;
  readonly buckets: VpinBuckets;
  lastTsMs: number;
  /** BVC: the open bar (end time, volume, last price) and the previous non-empty close. */
  barEndMs: number;
  barVolume: number;
  barClose: number;
  barLastTsMs: number;
  previousClose: number;
  /** BVC: trailing close-to-close price changes, a ring. */
  readonly priceChanges: Float64Array;
  priceChangeHead: number;
  priceChangeCount: number;
}

export interface VpinSnapshot {
  /** VPIN in [0, 1]; null until windowBuckets buckets are complete. */
  vpin: number | null;
  bucketsCompleted: number;
  bucketVolume: number;
}

export function createVpinState(options: VpinOptions = defaultVpinOptions): VpinState {
  if (options.mode !== 'aggressor' && options.mode !== 'bvc') {
    reject('option mode', "'aggressor' or 'bvc'", options.mode);
  }
  checkOption('bvcBarMs', options.bvcBarMs, 1, 86_400_000, true);
  checkOption('bvcDegreesOfFreedom', options.bvcDegreesOfFreedom, 0, 1e6);
  checkOption('bvcSigmaBars', options.bvcSigmaBars, 2, 1_000_000, true);
  return asDoubleFields<VpinState>({
    mode: options.mode, bvcBarMs: options.bvcBarMs,
    bvcDegreesOfFreedom: options.bvcDegreesOfFreedom,
    buckets: createVpinBuckets(options.bucketVolume, options.windowBuckets),
    lastTsMs: -Infinity, barEndMs: -Infinity, barVolume: 0, barClose: NaN, barLastTsMs: 0,
    previousClose: NaN,
    priceChanges: new Float64Array(options.bvcSigmaBars), priceChangeHead: 0,
    priceChangeCount: 0,
  }, ['barVolume', 'barLastTsMs']);
}

export function resetVpin(state: VpinState): void {
  resetVpinBuckets(state.buckets);
  state.lastTsMs = -Infinity;
  state.barEndMs = -Infinity;
  state.barVolume = 0;
  state.barClose = NaN;
  state.barLastTsMs = 0;
  state.previousClose = NaN;
  state.priceChanges.fill(0);
  state.priceChangeHead = 0;
  state.priceChangeCount = 0;
}

/** Feed gap: drops the open bucket and BVC bar; completed buckets stay in the window. */
export function gapVpin(state: VpinState): void {
  const b = state.buckets;
  b.curBuy = 0;
  b.curSell = 0;
  b.curFilled = 0;
  b.newCount = 0;
  state.barEndMs = -Infinity;
  state.barVolume = 0;
  state.barClose = NaN;
  state.previousClose = NaN;
}

/** Sets V (ADV / 50 once the pair's daily volume is known); restarts the buckets. */
export function setVpinBucketVolume(state: VpinState, bucketVolume: number): void {
  checkOption('bucketVolume', bucketVolume, 0, 1e15);
  resetVpinBuckets(state.buckets);
  state.buckets.bucketVolume = bucketVolume;
}

/**
 * Changes V (a newer ADV / 50) for the volume still to come, keeping the buckets already filled
 * and the VPIN they give (vpin-buckets.ts, resizeVpinBuckets); the BVC bar is left as it is.
 */
export function resizeVpinBucketVolume(state: VpinState, bucketVolume: number): void {
  resizeVpinBuckets(state.buckets, bucketVolume);
}

export function isVpinReady(state: VpinState): boolean {
  return !Number.isNaN(state.buckets.vpin);
}

/** Closes the open BVC bar: classifies its volume and fills the buckets with it. */
function closeBar(state: VpinState): number {
  const close = state.barClose;
  const volume = state.barVolume;
  const previous = state.previousClose;
  state.previousClose = close;
  state.barVolume = 0;
  if (Number.isNaN(previous)) return 0;
  const cap = state.priceChanges.length;
  const change = close - previous;
  writeRing(state.priceChanges, state.priceChangeHead, state.priceChangeCount, change);
  state.priceChangeHead = (state.priceChangeHead + 1) % cap;
  if (state.priceChangeCount < cap) state.priceChangeCount += 1;
  if (state.priceChangeCount < 2) return 0;
  // Sample standard deviation (ddof 1) of the trailing price changes, two-pass.
  const sigma = ringSigma(state.priceChanges, state.priceChangeCount);
  let buyFraction = 0.5;
  if (sigma > 0) {
    const z = change / sigma;
    const nu = state.bvcDegreesOfFreedom;
    buyFraction = nu === 0 ? normalCdf(z) : studentTCdf(z, nu);
  }
  return fillVpinBuckets(state.buckets, volume, buyFraction, state.barLastTsMs);
}

/** BVC: closes the open bar when `tsMs` is past its end. Returns buckets completed. */
export function advanceVpin(state: VpinState, tsMs: number): number {
  state.buckets.newCount = 0;
  if (state.mode !== 'bvc' || state.barVolume === 0 || tsMs < state.barEndMs) return 0;
  return closeBar(state);
}

/**
 * One trade (side +1 buy aggressor, -1 sell). Returns the buckets completed by this call;
 * the VPIN after each of them is in state.buckets.newValues[0 .. newCount).
 */
export function updateVpin(
  state: VpinState, tsMs: number, price: number, size: number, side: number,
): number {
  checkTrade(tsMs, price, size, side, state.lastTsMs);
  state.lastTsMs = tsMs;
  return applyVpin(state, tsMs, price, size, side);
}

/**
 * The update without its input check, for a caller that checked the trade already and keeps
 * the time order itself (lastTsMs, which only the checked update reads, is not kept here).
 */
export function applyVpin(
  state: VpinState, tsMs: number, price: number, size: number, side: number,
): number {
  return state.mode === 'aggressor' ? applyVpinAggressor(state, tsMs, size, side)
    : applyVpinBvc(state, tsMs, price, size);
}

/** applyVpin of an aggressor-mode state (a caller that knows the mode skips the dispatch). */
export function applyVpinAggressor(
  state: VpinState, tsMs: number, size: number, side: number,
): number {
  return fillVpinBuckets(state.buckets, size, side > 0 ? 1 : 0, tsMs);
}

/** applyVpin of a BVC-mode state: the trade joins the open time bar, closing the last one. */
export function applyVpinBvc(
  state: VpinState, tsMs: number, price: number, size: number,
): number {
  state.buckets.newCount = 0;
  const closed = tsMs >= state.barEndMs ? rollBar(state, tsMs) : 0;
  state.barVolume += size;
  state.barClose = price;
  state.barLastTsMs = tsMs;
  return closed;
}

/** Closes the open BVC bar (if it has volume) and opens the one holding `tsMs`. */
function rollBar(state: VpinState, tsMs: number): number {
  const closed = state.barVolume > 0 ? closeBar(state) : 0;
  state.barEndMs = (Math.floor(tsMs / state.bvcBarMs) + 1) * state.bvcBarMs;
  return closed;
}

export function snapshotVpin(state: VpinState, out: VpinSnapshot): VpinSnapshot {
  const vpin = state.buckets.vpin;
  out.vpin = Number.isNaN(vpin) ? null : vpin;
  out.bucketsCompleted = state.buckets.completed;
  out.bucketVolume = state.buckets.bucketVolume;
  return out;
}
