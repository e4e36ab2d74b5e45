// CVD: cumulative signed USD notional (buy aggressor +, sell -), reset at 00:00 UTC, with a
// rolling variant over whole minutes and a history of points per 1m/5m/15m/1h interval.
//
// History ring of interval i (capacity P), oldest at (head - count) mod P:
//   pointTsMs[i*P + k]  interval open time     pointCvd[i*P + k]  UTC-day CVD at its close
//   pointDelta[i*P + k] net notional inside the interval
import { checkOption, checkTrade } from './check.js';
import { asDoubleFields } from './double-fields.js';
import { CVD_INTERVAL_MS, DAY_MS, slotStartMs } from './timeframes.js';

export interface CvdOptions {
  /** Points kept per history interval. */
  readonly historyPoints: number;
  /** Length of the rolling variant, in whole minutes. */
  readonly rollingMinutes: number;
}

export const defaultCvdOptions: CvdOptions = Object.freeze({
  historyPoints: 1440,
  rollingMinutes: 1440,
});

export interface CvdState {
  readonly historyPoints: number;
  readonly rollingMinutes: number;
  lastTsMs: number;
  trades: number;
  /** UTC-day CVD and the end of its day. */
  cvdDay: number;
  dayEndMs: number;
  /** Per-minute net and gross notional, a ring over the rolling window. */
  readonly minuteNet: Float64Array;
  readonly minuteGross: Float64Array;
  minuteIndex: number;
  /** Ring position of minuteIndex. */
  minuteSlot: number;
  minuteEndMs: number;
  /** The earliest interval end, midnight or minute end ahead (-Infinity before a trade). */
  nextBoundaryMs: number;
  /**
   * Sum of minuteNet over the window, current minute excluded; NaN when a minute closed since
   * it was last summed (summed when read: a warm-up's candles cross minutes several times for
   * every time anything reads it).
   */
  rollingClosed: number;
  readonly intervalEndMs: Float64Array;
  /** Net notional of each open interval (5m, 15m, 1h at 1..3; the 1m one is minuteNet's). */
  readonly intervalDelta: Float64Array;
  readonly head: Int32Array;
  readonly count: Int32Array;
  readonly pointTsMs: Float64Array;
  readonly pointCvd: Float64Array;
  readonly pointDelta: Float64Array;
}

export interface CvdSnapshot {
  /** UTC-day CVD in USD; null before the first trade. */
  cvd: number | null;
  /** CVD over the trailing rollingMinutes (current minute included); null before any trade. */
  cvdRolling: number | null;
  trades: number;
}

export function createCvdState(options: CvdOptions = defaultCvdOptions): CvdState {
  checkOption('historyPoints', options.historyPoints, 1, 1_000_000, true);
  checkOption('rollingMinutes', options.rollingMinutes, 1, 100_000, true);
  const n = CVD_INTERVAL_MS.length;
  const p = options.historyPoints;
  const state: CvdState = {
    historyPoints: p, rollingMinutes: options.rollingMinutes,
    lastTsMs: -Infinity, trades: 0, cvdDay: 0, dayEndMs: -Infinity,
    minuteNet: new Float64Array(options.rollingMinutes),
    minuteGross: new Float64Array(options.rollingMinutes),
    minuteIndex: 0, minuteSlot: 0, minuteEndMs: -Infinity, nextBoundaryMs: -Infinity,
    rollingClosed: 0,
    intervalEndMs: new Float64Array(n), intervalDelta: new Float64Array(n),
    head: new Int32Array(n), count: new Int32Array(n),
    pointTsMs: new Float64Array(n * p), pointCvd: new Float64Array(n * p),
    pointDelta: new Float64Array(n * p),
  };
  asDoubleFields(state, ['cvdDay', 'rollingClosed']);
  resetCvd(state);
  return state;
}

export function resetCvd(state: CvdState): void {
  state.lastTsMs = -Infinity;
  state.trades = 0;
  state.cvdDay = 0;
  state.dayEndMs = -Infinity;
  state.minuteNet.fill(0);
  state.minuteGross.fill(0);
  state.minuteIndex = 0;
  state.minuteSlot = 0;
  state.minuteEndMs = -Infinity;
  state.nextBoundaryMs = -Infinity;
  state.rollingClosed = 0;
  state.intervalEndMs.fill(-Infinity);
  state.intervalDelta.fill(0);
  state.head.fill(0);
  state.count.fill(0);
  state.pointTsMs.fill(0);
  state.pointCvd.fill(0);
  state.pointDelta.fill(0);
}

/**
 * Feed gap: the UTC-day CVD and the open intervals miss trades, so they restart with the next
 * trade (CVD null until then); closed history points are kept.
 */
export function gapCvd(state: CvdState): void {
  state.trades = 0;
  state.cvdDay = 0;
  state.dayEndMs = -Infinity;
  state.minuteNet.fill(0);
  state.minuteGross.fill(0);
  state.minuteEndMs = -Infinity;
  state.nextBoundaryMs = -Infinity;
  state.rollingClosed = 0;
  state.intervalEndMs.fill(-Infinity);
  state.intervalDelta.fill(0);
}

export function isCvdReady(state: CvdState): boolean {
  return state.trades > 0;
}

function pushPoint(state: CvdState, i: number, openMs: number, cvd: number, delta: number): void {
  const p = state.historyPoints;
  const at = i * p + state.head[i];
  state.pointTsMs[at] = openMs;
  state.pointCvd[at] = cvd;
  state.pointDelta[at] = delta;
  state.head[i] = (state.head[i] + 1) % p;
  if (state.count[i] < p) state.count[i] += 1;
}

/** Closes interval i up to `tsMs`: its own point, then flat points for empty intervals. */
function closeInterval(state: CvdState, i: number, tsMs: number): void {
  const ms = CVD_INTERVAL_MS[i];
  const endMs = state.intervalEndMs[i];
  // The 1m interval's net is the current minute's (same trades, same order): kept once.
  const delta = i === 0 ? state.minuteNet[state.minuteSlot] : state.intervalDelta[i];
  pushPoint(state, i, endMs - ms, state.cvdDay, delta);
  state.intervalDelta[i] = 0;
  const nowStartMs = slotStartMs(tsMs, ms);
  const empty = (nowStartMs - endMs) / ms;
  // Only the newest `historyPoints` empty intervals can survive in the ring.
  for (let k = Math.max(0, empty - state.historyPoints); k < empty; k++) {
    const openMs = endMs + k * ms;
    // An empty interval after a UTC midnight closes with the new day's CVD, which is 0.
    pushPoint(state, i, openMs, openMs + ms > state.dayEndMs ? 0 : state.cvdDay, 0);
  }
  state.intervalEndMs[i] = nowStartMs + ms;
}

function advanceMinutes(state: CvdState, tsMs: number): void {
  const m = state.rollingMinutes;
  const minute = Math.floor(tsMs / 60_000);
  const steps = state.minuteEndMs === -Infinity ? m : Math.min(minute - state.minuteIndex, m);
  // Locals: the loops below run per crossed minute over all 1,440 slots (a warm-up's candles
  // cross thousands of minutes), and a property read per slot was most of their cost.
  const net = state.minuteNet;
  const gross = state.minuteGross;
  // Slots (minute - steps + k) mod m for k = 1..steps, stepped rather than divided per slot.
  let slot = (((minute - steps + 1) % m) + m) % m;
  for (let k = 1; k <= steps; k++) {
    net[slot] = 0;
    gross[slot] = 0;
    slot = slot === m - 1 ? 0 : slot + 1;
  }
  state.rollingClosed = NaN;
  state.minuteIndex = minute;
  state.minuteSlot = ((minute % m) + m) % m;
  state.minuteEndMs = (minute + 1) * 60_000;
}

function updateBoundary(state: CvdState): void {
  let next = Math.min(state.dayEndMs, state.minuteEndMs);
  for (let i = 0; i < CVD_INTERVAL_MS.length; i++) {
    if (state.intervalEndMs[i] < next) next = state.intervalEndMs[i];
  }
  state.nextBoundaryMs = next;
}

/** Closes every interval, minute and day that ended at or before `tsMs`. */
export function advanceCvd(state: CvdState, tsMs: number): void {
  if (state.trades === 0) return;
  for (let i = 0; i < CVD_INTERVAL_MS.length; i++) {
    if (tsMs >= state.intervalEndMs[i]) closeInterval(state, i, tsMs);
  }
  if (tsMs >= state.dayEndMs) {
    state.cvdDay = 0;
    state.dayEndMs = slotStartMs(tsMs, DAY_MS) + DAY_MS;
  }
  if (tsMs >= state.minuteEndMs) advanceMinutes(state, tsMs);
  updateBoundary(state);
}

function startCvd(state: CvdState, tsMs: number): void {
  for (let i = 0; i < CVD_INTERVAL_MS.length; i++) {
    state.intervalEndMs[i] = slotStartMs(tsMs, CVD_INTERVAL_MS[i]) + CVD_INTERVAL_MS[i];
  }
  state.dayEndMs = slotStartMs(tsMs, DAY_MS) + DAY_MS;
  advanceMinutes(state, tsMs);
  updateBoundary(state);
}

/** Kept out of applyCvd so that the per-trade path stays small enough to inline. */
function crossBoundary(state: CvdState, tsMs: number): void {
  if (state.trades === 0) startCvd(state, tsMs);
  else advanceCvd(state, tsMs);
}

/** One trade: side +1 buy aggressor, -1 sell aggressor. */
export function updateCvd(
  state: CvdState, tsMs: number, price: number, size: number, side: number,
): void {
  checkTrade(tsMs, price, size, side, state.lastTsMs);
  state.lastTsMs = tsMs;
  return applyCvd(state, tsMs, price, size, side);
}

/**
 * The update without its input check, for a caller that checked the trade already and keeps
 * the time order itself (lastTsMs, which only the checked update reads, is not kept here).
 */
export function applyCvd(
  state: CvdState, tsMs: number, price: number, size: number, side: number,
): void {
  // One comparison on the common path: nextBoundaryMs is -Infinity before the first trade.
  if (tsMs >= state.nextBoundaryMs) crossBoundary(state, tsMs);
  const notional = price * size;
  const delta = side * notional;
  state.cvdDay += delta;
  const d = state.intervalDelta;
  d[1] += delta;
  d[2] += delta;
  d[3] += delta;
  const slot = state.minuteSlot;
  state.minuteNet[slot] += delta;
  state.minuteGross[slot] += notional;
  state.trades += 1;
}

/**
 * The closed minutes' sum, summed once after each minute closes. The same sum, slot by slot in
 * ring order, as when it was summed at the close: the current slot (zero then, its trades now)
 * adds nothing, and no other slot changes until the next close.
 */
function rollingClosed(state: CvdState): number {
  if (!Number.isNaN(state.rollingClosed)) return state.rollingClosed;
  const net = state.minuteNet;
  const current = state.minuteSlot;
  let sum = 0;
  for (let k = 0; k < net.length; k++) if (k !== current) sum += net[k];
  state.rollingClosed = sum;
  return sum;
}

export function snapshotCvd(state: CvdState, out: CvdSnapshot): CvdSnapshot {
  snapshotCvdDay(state, out);
  out.cvdRolling = cvdRolling(state);
  return out;
}

/** The UTC-day CVD and the trade count, not the rolling variant (which sums the window). */
/** CVD over the trailing rollingMinutes, current minute included; null before any trade. */
export function cvdRolling(state: CvdState): number | null {
  return state.trades > 0 ? rollingClosed(state) + state.minuteNet[state.minuteSlot] : null;
}

export function snapshotCvdDay(state: CvdState, out: CvdSnapshot): CvdSnapshot {
  out.cvd = state.trades > 0 ? state.cvdDay : null;
  out.trades = state.trades;
  return out;
}

/**
 * Net over gross notional of the trailing `minutes` (current minute included, at most the
 * rolling window): the direction of flow in [-1, 1]; NaN when nothing traded.
 */
export function cvdFlowRatio(state: CvdState, minutes: number): number {
  const m = state.rollingMinutes;
  const span = Math.min(minutes, m);
  const minuteNet = state.minuteNet;
  const minuteGross = state.minuteGross;
  let net = 0;
  let gross = 0;
  // Slots (minuteIndex - k) mod m, newest first, stepped back rather than divided per slot
  // (two remainders a slot were most of this read, taken at every recorded minute and bar).
  let slot = ((state.minuteIndex % m) + m) % m;
  for (let k = 0; k < span; k++) {
    net += minuteNet[slot];
    gross += minuteGross[slot];
    slot = slot === 0 ? m - 1 : slot - 1;
  }
  return gross > 0 ? net / gross : NaN;
}

/**
 * Copies up to `limit` newest history points of interval `intervalIndex` (0: 1m .. 3: 1h),
 * oldest first, into the caller's arrays; returns how many were written.
 */
export function readCvdHistory(
  state: CvdState, intervalIndex: number, limit: number,
  outTsMs: Float64Array, outCvd: Float64Array, outDelta: Float64Array,
): number {
  const p = state.historyPoints;
  const n = Math.min(state.count[intervalIndex], limit, outTsMs.length, outCvd.length,
    outDelta.length);
  const first = state.head[intervalIndex] - n + p;
  for (let k = 0; k < n; k++) {
    const at = intervalIndex * p + ((first + k) % p);
    outTsMs[k] = state.pointTsMs[at];
    outCvd[k] = state.pointCvd[at];
    outDelta[k] = state.pointDelta[at];
  }
  return n;
}
