// 5m / 15m / 1h OHLCV bars with buy and sell notional, trade count and the UTC-day CVD at the
// close. A bar closes when an event of a later bar arrives; bars with no trades in between are
// written flat at the last close, so the history has no holes (except across a gap).
//
//   history of timeframe t: fields[f][offset[t] + k], k in a ring of capacity[t] bars,
//   oldest at (head[t] - count[t]) mod capacity[t]; capacity = historyDays of that timeframe.
//   current[t * FIELDS + f]: t = 0 the open 5m bar; t = 1, 2 the open 15m / 1h bar WITHOUT
//   the open 5m bar's trades (UTC-aligned, a 5m bar lies inside one 15m and one 1h bar).
//
// A trade touches only the open 5m bar; its trades are folded into the 15m and 1h bars when it
// closes (and merged on the fly when an open 15m / 1h bar is read): one bar per trade, not 3.
import { checkOption, checkTrade } from './check.js';
import { asDoubleFields } from './double-fields.js';
import { BAR_TIMEFRAMES, BAR_TIMEFRAME_MS, DAY_MS, type BarTimeframe } from './timeframes.js';

/** The `Bar` of core/messages.ts without its symbol (kernels do not know it), mutable. */
export interface KernelBar {
  timeframe: BarTimeframe;
  openMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  buyNotional: number;
  sellNotional: number;
  cvdClose: number;
  trades: number;
}

/** Caller-owned columns for reading many bars at once, oldest first. */
export interface BarColumns {
  readonly openMs: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  readonly buyNotional: Float64Array;
  readonly sellNotional: Float64Array;
  readonly cvdClose: Float64Array;
  readonly trades: Float64Array;
}

const FIELDS = 10;
const [OPEN_MS, OPEN, HIGH, LOW, CLOSE, VOLUME, BUY, SELL, CVD, TRADES] =
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

export interface BarsOptions {
  /** Days of closed bars kept per timeframe (7: 2016 5m bars, 672 15m, 168 1h). */
  readonly historyDays: number;
}

export const defaultBarsOptions: BarsOptions = Object.freeze({ historyDays: 7 });

export interface BarsState {
  readonly capacity: Int32Array;
  readonly offset: Int32Array;
  readonly head: Int32Array;
  readonly count: Int32Array;
  /** Bars closed per timeframe since the last reset (flat ones included). */
  readonly closedTotal: Float64Array;
  /** One Float64Array per field over all timeframes' rings. */
  readonly fields: readonly Float64Array[];
  /** The open bar of each timeframe t at current[t * FIELDS + field]. */
  readonly current: Float64Array;
  /** End of each open bar, NaN when none. */
  readonly currentEndMs: Float64Array;
  /** The earliest bar end or UTC midnight ahead (nothing closes before it); -Infinity: none. */
  nextBoundaryMs: number;
  lastTsMs: number;
  lastClose: number;
  cvdDay: number;
  dayEndMs: number;
}

export function createBarsState(options: BarsOptions = defaultBarsOptions): BarsState {
  checkOption('historyDays', options.historyDays, 1 / 24, 3660);
  const n = BAR_TIMEFRAMES.length;
  const capacity = new Int32Array(n);
  const offset = new Int32Array(n);
  let total = 0;
  for (let t = 0; t < n; t++) {
    capacity[t] = Math.max(1, Math.ceil((options.historyDays * DAY_MS) / BAR_TIMEFRAME_MS[t]));
    offset[t] = total;
    total += capacity[t];
  }
  const fields: Float64Array[] = [];
  for (let f = 0; f < FIELDS; f++) fields.push(new Float64Array(total));
  const current = new Float64Array(n * FIELDS);
  const state: BarsState = {
    capacity, offset, head: new Int32Array(n), count: new Int32Array(n),
    closedTotal: new Float64Array(n), fields, current,
    currentEndMs: new Float64Array(n), nextBoundaryMs: -Infinity, lastTsMs: -Infinity,
    lastClose: NaN, cvdDay: 0, dayEndMs: -Infinity,
  };
  asDoubleFields(state, ['cvdDay']);
  resetBars(state);
  return state;
}

export function resetBars(state: BarsState): void {
  for (const f of state.fields) f.fill(0);
  state.head.fill(0);
  state.count.fill(0);
  state.closedTotal.fill(0);
  state.lastTsMs = -Infinity;
  gapBars(state);
}

/** Feed gap: drops the open bars (they miss trades) and keeps the closed history. */
export function gapBars(state: BarsState): void {
  state.current.fill(0);
  state.currentEndMs.fill(NaN);
  state.nextBoundaryMs = -Infinity;
  state.lastClose = NaN;
  state.cvdDay = 0;
  state.dayEndMs = -Infinity;
}

function pushBar(state: BarsState, t: number): void {
  const at = state.offset[t] + state.head[t];
  for (let f = 0; f < FIELDS; f++) state.fields[f][at] = state.current[t * FIELDS + f];
  state.head[t] = (state.head[t] + 1) % state.capacity[t];
  if (state.count[t] < state.capacity[t]) state.count[t] += 1;
  state.closedTotal[t] += 1;
}

function startBar(state: BarsState, t: number, openMs: number, price: number, cvd: number): void {
  const c = state.current;
  const at = t * FIELDS;
  c[at + OPEN_MS] = openMs;
  c[at + OPEN] = price; c[at + HIGH] = price; c[at + LOW] = price; c[at + CLOSE] = price;
  c[at + VOLUME] = 0; c[at + BUY] = 0; c[at + SELL] = 0; c[at + TRADES] = 0;
  c[at + CVD] = cvd;
  state.currentEndMs[t] = openMs + BAR_TIMEFRAME_MS[t];
}

/** Closes timeframe t's open bar and writes flat bars for the empty ones before `tsMs`. */
function closeBars(state: BarsState, t: number, tsMs: number): void {
  const ms = BAR_TIMEFRAME_MS[t];
  pushBar(state, t);
  let openMs = state.currentEndMs[t];
  const nowStartMs = Math.floor(tsMs / ms) * ms;
  const empty = (nowStartMs - openMs) / ms;
  if (empty > state.capacity[t]) {
    // Only the newest `capacity` flat bars can stay in the ring.
    state.closedTotal[t] += empty - state.capacity[t];
    openMs += (empty - state.capacity[t]) * ms;
  }
  for (; openMs < nowStartMs; openMs += ms) {
    // A flat bar closing after a UTC midnight carries the new day's CVD, which is 0.
    startBar(state, t, openMs, state.lastClose, openMs + ms > state.dayEndMs ? 0 : state.cvdDay);
    pushBar(state, t);
  }
  startBar(state, t, nowStartMs, state.lastClose, nowStartMs + ms > state.dayEndMs ? 0 :
    state.cvdDay);
}

/** Folds the open 5m bar's trades into the open 15m and 1h bars (target t at `at`). */
function foldInto(c: Float64Array, at: number): void {
  if (c[TRADES] === 0) return;
  if (c[at + TRADES] === 0) {
    c[at + OPEN] = c[OPEN];
    c[at + HIGH] = c[HIGH];
    c[at + LOW] = c[LOW];
  } else {
    if (c[HIGH] > c[at + HIGH]) c[at + HIGH] = c[HIGH];
    if (c[LOW] < c[at + LOW]) c[at + LOW] = c[LOW];
  }
  c[at + CLOSE] = c[CLOSE];
  c[at + VOLUME] += c[VOLUME];
  c[at + BUY] += c[BUY];
  c[at + SELL] += c[SELL];
  c[at + CVD] = c[CVD];
  c[at + TRADES] += c[TRADES];
}

/** Closes every bar that ended at or before `tsMs`; returns a bitmask (bit t: timeframe t). */
export function advanceBars(state: BarsState, tsMs: number): number {
  let closed = 0;
  if (tsMs >= state.currentEndMs[0]) {
    // The 5m bar ends first (or with them): its trades join the longer bars before they close.
    for (let t = 1; t < BAR_TIMEFRAME_MS.length; t++) foldInto(state.current, t * FIELDS);
  }
  for (let t = 0; t < BAR_TIMEFRAME_MS.length; t++) {
    if (tsMs >= state.currentEndMs[t]) {
      closeBars(state, t, tsMs);
      closed |= 1 << t;
    }
  }
  if (tsMs >= state.dayEndMs) {
    state.cvdDay = 0;
    state.dayEndMs = Math.floor(tsMs / DAY_MS) * DAY_MS + DAY_MS;
  }
  updateBoundary(state);
  return closed;
}

function updateBoundary(state: BarsState): void {
  let next = state.dayEndMs;
  for (let t = 0; t < BAR_TIMEFRAME_MS.length; t++) {
    if (state.currentEndMs[t] < next) next = state.currentEndMs[t];
  }
  state.nextBoundaryMs = Number.isNaN(state.currentEndMs[0]) ? -Infinity : next;
}

/** One trade (side +1 buy aggressor, -1 sell). Returns the bitmask of timeframes closed. */
export function updateBars(
  state: BarsState, tsMs: number, price: number, size: number, side: number,
): number {
  checkTrade(tsMs, price, size, side, state.lastTsMs);
  state.lastTsMs = tsMs;
  return applyBars(state, tsMs, price, size, side);
}

/**
 * The update without its input check, for a caller that checked the trade already and keeps
 * the time order itself (lastTsMs, which only the checked update reads, is not kept here).
 */
export function applyBars(
  state: BarsState, tsMs: number, price: number, size: number, side: number,
): number {
  // One comparison on the common path: nextBoundaryMs is -Infinity while no bar is open.
  const closed = tsMs >= state.nextBoundaryMs ? crossBoundary(state, tsMs, price) : 0;
  const notional = price * size;
  const cvd = (state.cvdDay += side * notional);
  state.lastClose = price;
  const c = state.current;
  if (c[TRADES] === 0) {
    c[OPEN] = price;
    c[HIGH] = price;
    c[LOW] = price;
  } else if (price > c[HIGH]) {
    c[HIGH] = price;
  } else if (price < c[LOW]) {
    c[LOW] = price;
  }
  c[CLOSE] = price;
  c[VOLUME] += size;
  c[side > 0 ? BUY : SELL] += notional;
  c[CVD] = cvd;
  c[TRADES] += 1;
  return closed;
}

/** Kept out of applyBars so that the per-trade path stays small enough to inline. */
function crossBoundary(state: BarsState, tsMs: number, price: number): number {
  return Number.isNaN(state.currentEndMs[0]) ? startBars(state, tsMs, price)
    : advanceBars(state, tsMs);
}

/** The first trade (or the first after a gap) opens a bar of every timeframe; closes none. */
function startBars(state: BarsState, tsMs: number, price: number): number {
  state.dayEndMs = Math.floor(tsMs / DAY_MS) * DAY_MS + DAY_MS;
  for (let t = 0; t < BAR_TIMEFRAME_MS.length; t++) {
    startBar(state, t, Math.floor(tsMs / BAR_TIMEFRAME_MS[t]) * BAR_TIMEFRAME_MS[t], price, 0);
  }
  updateBoundary(state);
  return 0;
}

/** Reads field f of a bar through `get` (history columns or the flat open bars). */
function readInto(get: (f: number) => number, t: number, out: KernelBar): void {
  out.timeframe = BAR_TIMEFRAMES[t];
  out.openMs = get(OPEN_MS);
  out.open = get(OPEN);
  out.high = get(HIGH);
  out.low = get(LOW);
  out.close = get(CLOSE);
  out.volume = get(VOLUME);
  out.buyNotional = get(BUY);
  out.sellNotional = get(SELL);
  out.cvdClose = get(CVD);
  out.trades = get(TRADES);
}

/** The closed bar `back` places before the newest (0: newest); false when not kept. */
export function closedBarAgo(state: BarsState, t: number, back: number, out: KernelBar): boolean {
  if (!(back >= 0 && back < state.count[t])) return false;
  const cap = state.capacity[t];
  const at = state.offset[t] + (state.head[t] - 1 - back + cap) % cap;
  readInto((f) => state.fields[f][at], t, out);
  return true;
}

/** The newest closed bar of timeframe index t into `out`; false when there is none. */
export function lastClosedBar(state: BarsState, t: number, out: KernelBar): boolean {
  return closedBarAgo(state, t, 0, out);
}

/** The open bar of timeframe index t (trades so far) into `out`; false when there is none. */
export function openBar(state: BarsState, t: number, out: KernelBar): boolean {
  if (Number.isNaN(state.currentEndMs[t])) return false;
  const c = state.current;
  readInto((f) => c[t * FIELDS + f], t, out);
  if (t === 0 || c[TRADES] === 0) return true;
  // The open 5m bar's trades are not folded into the longer bar yet: merge them here.
  if (out.trades === 0) {
    out.open = c[OPEN];
    out.high = c[HIGH];
    out.low = c[LOW];
  } else {
    out.high = Math.max(out.high, c[HIGH]);
    out.low = Math.min(out.low, c[LOW]);
  }
  out.close = c[CLOSE];
  out.volume += c[VOLUME];
  out.buyNotional += c[BUY];
  out.sellNotional += c[SELL];
  out.cvdClose = c[CVD];
  out.trades += c[TRADES];
  return true;
}

/** Every number field of a KernelBar (double-fields.ts). */
const kernelBarNumbers = ['openMs', 'open', 'high', 'low', 'close', 'volume', 'buyNotional',
  'sellNotional', 'cvdClose', 'trades'] as const;

export function createKernelBar(): KernelBar {
  return asDoubleFields<KernelBar>({
    timeframe: '5m', openMs: 0, open: 0, high: 0, low: 0, close: 0, volume: 0,
    buyNotional: 0, sellNotional: 0, cvdClose: 0, trades: 0,
  }, kernelBarNumbers);
}

export function createBarColumns(capacity: number): BarColumns {
  const f = () => new Float64Array(capacity);
  return {
    openMs: f(), open: f(), high: f(), low: f(), close: f(), volume: f(), buyNotional: f(),
    sellNotional: f(), cvdClose: f(), trades: f(),
  };
}

/** Copies up to `limit` newest closed bars of timeframe t, oldest first; returns the count. */
export function readClosedBars(
  state: BarsState, t: number, limit: number, out: BarColumns,
): number {
  const cap = state.capacity[t];
  const n = Math.min(state.count[t], limit, out.openMs.length);
  const columns = [out.openMs, out.open, out.high, out.low, out.close, out.volume,
    out.buyNotional, out.sellNotional, out.cvdClose, out.trades];
  for (let k = 0; k < n; k++) {
    const at = state.offset[t] + (state.head[t] - n + k + cap) % cap;
    for (let f = 0; f < FIELDS; f++) columns[f][k] = state.fields[f][at];
  }
  return n;
}
