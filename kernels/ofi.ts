// Order flow imbalance (Cont, Kukanov and Stoikov 2014) between consecutive book states, at the
// best level and per level m = 1..M (multi-level OFI, Xu, Gould and Howison), summed per
// interval. Base units. Crossed, locked or empty books are skipped, and the next good book
// starts afresh (nothing is computed across them).
//
//   prevBid*/prevAsk*[m]: the last good book (missing levels: bid px -Inf, ask px +Inf, size 0)
//   open[m]: the open interval's sums       history ring (capacity H, oldest at head - count):
//   historyTsMs[h] interval open time       historyOfi[h*M + m] level m's OFI of that interval
import { checkBookSide, checkOption, checkTime } from './check.js';

export interface OfiOptions {
  /** M, levels per side for multi-level OFI (level 1 is the CKS best-level OFI). */
  readonly levels: number;
  /** Aggregation interval (CKS use 10 s). */
  readonly intervalMs: number;
  /** Closed intervals kept. */
  readonly historyIntervals: number;
}

export const defaultOfiOptions: OfiOptions = Object.freeze({
  levels: 10, intervalMs: 10_000, historyIntervals: 360,
});

export interface OfiState {
  readonly levels: number;
  readonly intervalMs: number;
  readonly historyIntervals: number;
  lastTsMs: number;
  previousValid: boolean;
  readonly prevBidPx: Float64Array;
  readonly prevBidSz: Float64Array;
  readonly prevAskPx: Float64Array;
  readonly prevAskSz: Float64Array;
  readonly open: Float64Array;
  intervalEndMs: number;
  readonly historyTsMs: Float64Array;
  readonly historyOfi: Float64Array;
  head: number;
  count: number;
}

export interface OfiSnapshot {
  /** Best-level OFI of the last closed interval; null before one closed. */
  ofi: number | null;
  /** Best-level OFI of the open interval so far; null before the first book. */
  ofiOpen: number | null;
  /** Per-level OFI of the last closed interval (caller-owned, length M); valid when ofi != null. */
  readonly ofiLevels: Float64Array;
  intervals: number;
}

export function createOfiState(options: OfiOptions = defaultOfiOptions): OfiState {
  checkOption('levels', options.levels, 1, 1000, true);
  checkOption('intervalMs', options.intervalMs, 1, 86_400_000, true);
  checkOption('historyIntervals', options.historyIntervals, 1, 1_000_000, true);
  const m = options.levels;
  const state: OfiState = {
    levels: m, intervalMs: options.intervalMs, historyIntervals: options.historyIntervals,
    lastTsMs: -Infinity, previousValid: false,
    prevBidPx: new Float64Array(m), prevBidSz: new Float64Array(m),
    prevAskPx: new Float64Array(m), prevAskSz: new Float64Array(m),
    open: new Float64Array(m), intervalEndMs: -Infinity,
    historyTsMs: new Float64Array(options.historyIntervals),
    historyOfi: new Float64Array(options.historyIntervals * m), head: 0, count: 0,
  };
  resetOfi(state);
  return state;
}

export function resetOfi(state: OfiState): void {
  state.lastTsMs = -Infinity;
  state.previousValid = false;
  state.prevBidPx.fill(0);
  state.prevBidSz.fill(0);
  state.prevAskPx.fill(0);
  state.prevAskSz.fill(0);
  state.open.fill(0);
  state.intervalEndMs = -Infinity;
  state.historyTsMs.fill(0);
  state.historyOfi.fill(0);
  state.head = 0;
  state.count = 0;
}

/** Feed gap: drops the previous book and the open interval; closed intervals are kept. */
export function gapOfi(state: OfiState): void {
  state.previousValid = false;
  state.open.fill(0);
  state.intervalEndMs = -Infinity;
}

export function createOfiSnapshot(levels: number): OfiSnapshot {
  return { ofi: null, ofiOpen: null, ofiLevels: new Float64Array(levels), intervals: 0 };
}

function pushInterval(state: OfiState, openMs: number, fromOpen: boolean): void {
  const m = state.levels;
  state.historyTsMs[state.head] = openMs;
  for (let k = 0; k < m; k++) {
    state.historyOfi[state.head * m + k] = fromOpen ? state.open[k] : 0;
  }
  state.head = (state.head + 1) % state.historyIntervals;
  if (state.count < state.historyIntervals) state.count += 1;
}

/** Closes the open interval and the empty ones up to the interval holding `tsMs`. */
export function advanceOfi(state: OfiState, tsMs: number): boolean {
  if (state.intervalEndMs === -Infinity || tsMs < state.intervalEndMs) return false;
  const ms = state.intervalMs;
  const endMs = state.intervalEndMs;
  pushInterval(state, endMs - ms, true);
  state.open.fill(0);
  const nowStartMs = Math.floor(tsMs / ms) * ms;
  const empty = (nowStartMs - endMs) / ms;
  for (let k = Math.max(0, empty - state.historyIntervals); k < empty; k++) {
    pushInterval(state, endMs + k * ms, false);
  }
  state.intervalEndMs = nowStartMs + ms;
  return true;
}

/** Adds e_n of every level between the previous good book and this one to the open sums. */
function accumulate(
  state: OfiState, bidPx: Float64Array, bidSz: Float64Array, bidLevels: number,
  askPx: Float64Array, askSz: Float64Array, askLevels: number,
): void {
  const { prevBidPx, prevBidSz, prevAskPx, prevAskSz, open } = state;
  const valid = state.previousValid;
  for (let k = 0; k < state.levels; k++) {
    let bp = -Infinity;
    let bq = 0;
    let ap = Infinity;
    let aq = 0;
    if (k < bidLevels) {
      bp = bidPx[k];
      bq = bidSz[k];
    }
    if (k < askLevels) {
      ap = askPx[k];
      aq = askSz[k];
    }
    if (valid) {
      const pbp = prevBidPx[k];
      const pap = prevAskPx[k];
      open[k] += (bp >= pbp ? bq : 0) - (bp <= pbp ? prevBidSz[k] : 0) -
        (ap <= pap ? aq : 0) + (ap >= pap ? prevAskSz[k] : 0);
    }
    prevBidPx[k] = bp;
    prevBidSz[k] = bq;
    prevAskPx[k] = ap;
    prevAskSz[k] = aq;
  }
  state.previousValid = true;
}

/** One book state, best level first. Returns true when an interval closed before it. */
export function updateOfi(
  state: OfiState, tsMs: number, bidPx: Float64Array, bidSz: Float64Array, bidLevels: number,
  askPx: Float64Array, askSz: Float64Array, askLevels: number,
): boolean {
  checkTime(tsMs, state.lastTsMs);
  checkBookSide('bid', bidPx, bidSz, bidLevels);
  checkBookSide('ask', askPx, askSz, askLevels);
  return applyOfi(state, tsMs, bidPx, bidSz, bidLevels, askPx, askSz, askLevels);
}

/** The update without its input checks, for a caller that checked the book already. */
export function applyOfi(
  state: OfiState, tsMs: number, bidPx: Float64Array, bidSz: Float64Array, bidLevels: number,
  askPx: Float64Array, askSz: Float64Array, askLevels: number,
): boolean {
  state.lastTsMs = tsMs;
  let closed = false;
  if (state.intervalEndMs === -Infinity) {
    state.intervalEndMs = (Math.floor(tsMs / state.intervalMs) + 1) * state.intervalMs;
  } else {
    closed = advanceOfi(state, tsMs);
  }
  const crossed = bidLevels > 0 && askLevels > 0 && bidPx[0] >= askPx[0];
  if (crossed || (bidLevels === 0 && askLevels === 0)) {
    state.previousValid = false;
    return closed;
  }
  accumulate(state, bidPx, bidSz, bidLevels, askPx, askSz, askLevels);
  return closed;
}

export function snapshotOfi(state: OfiState, out: OfiSnapshot): OfiSnapshot {
  const m = state.levels;
  out.intervals = state.count;
  out.ofiOpen = state.intervalEndMs === -Infinity ? null : state.open[0];
  if (state.count === 0) {
    out.ofi = null;
    out.ofiLevels.fill(0);
    return out;
  }
  const last = (state.head - 1 + state.historyIntervals) % state.historyIntervals;
  out.ofi = state.historyOfi[last * m];
  for (let k = 0; k < m && k < out.ofiLevels.length; k++) {
    out.ofiLevels[k] = state.historyOfi[last * m + k];
  }
  return out;
}

/** Last closed best-level OFI over the root mean square of the history; NaN when unknown. */
export function ofiNormalized(state: OfiState, minIntervals: number): number {
  if (state.count < minIntervals) return NaN;
  const m = state.levels;
  let squares = 0;
  for (let h = 0; h < state.count; h++) {
    const v = state.historyOfi[h * m];
    squares += v * v;
  }
  const rms = Math.sqrt(squares / state.count);
  const last = (state.head - 1 + state.historyIntervals) % state.historyIntervals;
  return rms > 0 ? state.historyOfi[last * m] / rms : NaN;
}

/** Copies up to `limit` newest closed intervals (open time, best-level OFI), oldest first. */
export function readOfiHistory(
  state: OfiState, limit: number, outTsMs: Float64Array, outOfi: Float64Array,
): number {
  const n = Math.min(state.count, limit, outTsMs.length, outOfi.length);
  const h = state.historyIntervals;
  for (let k = 0; k < n; k++) {
    const at = (state.head - n + k + h) % h;
    outTsMs[k] = state.historyTsMs[at];
    outOfi[k] = state.historyOfi[at * state.levels];
  }
  return n;
}
