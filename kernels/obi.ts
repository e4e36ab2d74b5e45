// Order book imbalance (sum bid - sum ask) / (sum bid + sum ask) in [-1, 1], over the top k
// levels of each side and over the levels within a band of x % around mid. Sizes in base units.
import {
  checkBookLevels, checkOption, checkTime, rejectBookLevel,
} from './check.js';

export interface ObiOptions {
  /** k, levels per side for the top-k variant. */
  readonly levels: number;
  /** x, half-width of the band around mid, in percent. */
  readonly bandPct: number;
}

export const defaultObiOptions: ObiOptions = Object.freeze({ levels: 10, bandPct: 0.5 });

export interface ObiState {
  readonly levels: number;
  readonly bandFraction: number;
  lastTsMs: number;
  books: number;
  /** NaN when undefined (both sides empty in the range). */
  obiTopK: number;
  obiBand: number;
  mid: number;
}

export interface ObiSnapshot {
  /** Band OBI (comparable across pairs); null when both sides are empty in the band. */
  obi: number | null;
  obiTopK: number | null;
  mid: number | null;
  books: number;
}

export function createObiState(options: ObiOptions = defaultObiOptions): ObiState {
  checkOption('levels', options.levels, 1, 10_000, true);
  checkOption('bandPct', options.bandPct, 1e-6, 100);
  return {
    levels: options.levels, bandFraction: options.bandPct / 100,
    lastTsMs: -Infinity, books: 0, obiTopK: NaN, obiBand: NaN, mid: NaN,
  };
}

export function resetObi(state: ObiState): void {
  state.lastTsMs = -Infinity;
  state.books = 0;
  state.obiTopK = NaN;
  state.obiBand = NaN;
  state.mid = NaN;
}

function ratio(bid: number, ask: number): number {
  const total = bid + ask;
  return total > 0 ? (bid - ask) / total : NaN;
}

/**
 * One book, best level first on each side. OBI reads every level, so this update validates the
 * whole book (before any state changes): a caller may then apply the same book to OFI unchecked.
 */
export function updateObi(
  state: ObiState, tsMs: number, bidPx: Float64Array, bidSz: Float64Array, bidLevels: number,
  askPx: Float64Array, askSz: Float64Array, askLevels: number,
): void {
  checkTime(tsMs, state.lastTsMs);
  checkBookLevels('bid', bidPx, bidSz, bidLevels);
  checkBookLevels('ask', askPx, askSz, askLevels);
  const k = state.levels;
  // No mid without both sides, so no band: undefined rather than a one-sided 1 or -1.
  const mid = bidLevels > 0 && askLevels > 0 ? (bidPx[0] + askPx[0]) / 2 : NaN;
  // Every level inside the band counts, whatever its position in the arrays (NaN: none do).
  const bidFloor = mid * (1 - state.bandFraction);
  const askCeiling = mid * (1 + state.bandFraction);
  // One pass per side checks each level and sums both the top k and the band.
  let bidTop = 0;
  let bidBand = 0;
  for (let i = 0; i < bidLevels; i++) {
    const p = bidPx[i];
    const q = bidSz[i];
    if (!(p > 0 && p < Infinity && q >= 0 && q < Infinity)) rejectBookLevel('bid', i, p, q);
    if (i < k) bidTop += q;
    if (p >= bidFloor) bidBand += q;
  }
  let askTop = 0;
  let askBand = 0;
  for (let i = 0; i < askLevels; i++) {
    const p = askPx[i];
    const q = askSz[i];
    if (!(p > 0 && p < Infinity && q >= 0 && q < Infinity)) rejectBookLevel('ask', i, p, q);
    if (i < k) askTop += q;
    if (p <= askCeiling) askBand += q;
  }
  state.lastTsMs = tsMs;
  state.books += 1;
  state.obiTopK = ratio(bidTop, askTop);
  state.mid = mid;
  state.obiBand = Number.isNaN(mid) ? NaN : ratio(bidBand, askBand);
}

export function isObiReady(state: ObiState): boolean {
  return !Number.isNaN(state.obiBand) || !Number.isNaN(state.obiTopK);
}

export function snapshotObi(state: ObiState, out: ObiSnapshot): ObiSnapshot {
  out.obi = Number.isNaN(state.obiBand) ? null : state.obiBand;
  out.obiTopK = Number.isNaN(state.obiTopK) ? null : state.obiTopK;
  out.mid = Number.isNaN(state.mid) ? null : state.mid;
  out.books = state.books;
  return out;
}
