// The latent fundamental value of a simulated market (log, relative to its reference price): a
// Brownian path plus jumps, each a pure function of (seed, symbol, time) so every thread, every
// start and every warm-up sees the same value at the same instant. Prices learn it through order
// flow (pair-sim.ts) as in Kyle (1985) and Glosten-Milgrom (1985); the candle warm-up uses the
// price such learning gives on average (`discoveredLog`). Both parts are martingales from the
// reference instant: nothing pulls a price back, so in the null world no past move, flow or
// score predicts the next one.
import { hashUnit } from './rng.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Bridge levels: the window halves this many times, down to tents two minutes wide. */
const LEVELS = 13;
/** One window of the bridge: 2^13 minutes (5.7 days), its ends steps of a random walk. */
export const windowMs = MINUTE_MS * 2 ** LEVELS;
/**
 * The reference prices' instant (reference-prices.ts: 2026-02-06 12:54 UTC): the anchor of a
 * world that names none. A running service anchors at its data dir's first warm-up start
 * instead (sim-anchor.ts), so its prices start from the references whatever today's date.
 */
export const REFERENCE_INSTANT_MS = Date.UTC(2026, 1, 6, 12, 54);
/** Jump slots per window (4.3 h each), each holding at most one jump. */
const SLOTS = 32;
const slotMs = windowMs / SLOTS;
/** Chance that a slot holds a jump: about 2.8 jumps a day. */
const JUMP_CHANCE = 0.5;
/** Share of the daily variance that comes as jumps (the news informed traders know first). */
const JUMP_VARIANCE_SHARE = 0.6;
/**
 * How long the market takes, on average, to learn a jump's private part (e-folding): the pace
 * the warm-up's candles assume, and about the pace informed bursts reach in the tick world.
 * Hours, not minutes: news priced within the hour left the 4 h after a signal too little of it
 * for setups to differ (docs/feeds.md, "Price discovery").
 */
export const discoveryMs = 180 * MINUTE_MS;
/** Past this many e-foldings a jump counts as learned (e^-8: 0.03 % of it left). */
const DISCOVERY_HORIZON_MS = 8 * discoveryMs;
const SQRT3 = Math.sqrt(3);
const WINDOW_DAYS = windowMs / DAY_MS;
/** Per level, the bridge's midpoint standard deviation per unit of volatility: sqrt(L) / 2. */
const LEVEL_SD: readonly number[] = Array.from({ length: LEVELS },
  (_, level) => Math.sqrt(WINDOW_DAYS / 2 ** level) / 2);

/** What the fundamental needs of a market: its noise stream, daily volatility and anchor. */
export interface FundamentalMarket {
  readonly stream: number;
  readonly dailyVol: number;
  /**
   * The world's anchor: both parts start from 0 at the open of the window holding it and walk
   * from there, forward and backward in time (default REFERENCE_INSTANT_MS).
   */
  readonly anchorMs?: number;
}

/** A zero-mean unit-variance draw from a hash (uniform: bounded, which keeps prices sane). */
function unitDraw(seed: number, stream: number, a: number, b: number): number {
  return (hashUnit(seed, stream, a, b) * 2 - 1) * SQRT3;
}

/**
 * The Brownian part at tMs (Levy-Ciesielski construction): window ends a random walk from the
 * anchor window (windowEnds), and between them a bridge of tents, one per level. Increments are
 * independent at every horizon, so no horizon's past return predicts its next one.
 */
export function brownianLog(seed: number, market: FundamentalMarket, tMs: number): number {
  const sigma = market.dailyVol * Math.sqrt(1 - JUMP_VARIANCE_SHARE);
  const window = Math.floor(tMs / windowMs);
  const u = (tMs - window * windowMs) / windowMs;
  const ends = windowEnds(seed, market);
  const left = ends.brownianAt(window);
  const right = ends.brownianAt(window + 1);
  let x = left + (right - left) * u;
  let cells = 1;
  for (let level = 0; level < LEVELS; level++) {
    const position = u * cells;
    const cell = Math.floor(position);
    const tent = 1 - Math.abs(2 * (position - cell) - 1);
    // Midpoint displacement of a bridge over a cell of L days: standard deviation sigma*sqrt(L)/2.
    x += sigma * LEVEL_SD[level] * tent *
      unitDraw(seed, market.stream, window * 8192 + cell, 16 + level);
    cells *= 2;
  }
  return x;
}

/**
 * Both parts at each window's open, summed from the anchor window (0 there): the Brownian ends
 * step by independent draws of a window's variance, the jumps by each window's total. Kept per
 * market and seed, extended as far as asked (a year is 64 windows).
 */
class WindowEnds {
  /** Index i: window anchor + i (forward) or anchor - i (backward). */
  private readonly brownianFwd = [0];
  private readonly jumpsFwd = [0];
  private readonly brownianBack = [0];
  private readonly jumpsBack = [0];
  private readonly stepSd: number;
  private readonly anchor: number;

  constructor(private readonly seed: number, private readonly market: FundamentalMarket) {
    this.anchor = Math.floor((market.anchorMs ?? REFERENCE_INSTANT_MS) / windowMs);
    this.stepSd = market.dailyVol * Math.sqrt((1 - JUMP_VARIANCE_SHARE) * WINDOW_DAYS);
  }

  brownianAt(window: number): number {
    this.reach(window);
    const { anchor } = this;
    return window >= anchor ? this.brownianFwd[window - anchor]
      : this.brownianBack[anchor - window];
  }

  jumpsAt(window: number): number {
    this.reach(window);
    const { anchor } = this;
    return window >= anchor ? this.jumpsFwd[window - anchor]
      : this.jumpsBack[anchor - window];
  }

  private reach(window: number): void {
    const { seed, market, anchor } = this;
    while (anchor + this.brownianFwd.length - 1 < window) {
      const from = anchor + this.brownianFwd.length - 1;
      this.brownianFwd.push(this.brownianFwd[this.brownianFwd.length - 1] +
        this.stepSd * unitDraw(seed, market.stream, from, 1));
      this.jumpsFwd.push(this.jumpsFwd[this.jumpsFwd.length - 1] +
        windowJumps(seed, market, from).total);
    }
    while (anchor - (this.brownianBack.length - 1) > window) {
      const to = anchor - (this.brownianBack.length - 1);
      this.brownianBack.push(this.brownianBack[this.brownianBack.length - 1] -
        this.stepSd * unitDraw(seed, market.stream, to - 1, 1));
      this.jumpsBack.push(this.jumpsBack[this.jumpsBack.length - 1] -
        windowJumps(seed, market, to - 1).total);
    }
  }
}

/** Each market's walks, keyed by seed (a market object is one (stream, vol)). */
const endsCache = new WeakMap<FundamentalMarket, Map<number, WindowEnds>>();

function windowEnds(seed: number, market: FundamentalMarket): WindowEnds {
  let bySeed = endsCache.get(market);
  if (!bySeed) {
    bySeed = new Map();
    endsCache.set(market, bySeed);
  }
  let ends = bySeed.get(seed);
  if (!ends) {
    ends = new WindowEnds(seed, market);
    if (bySeed.size >= 4) bySeed.delete(bySeed.keys().next().value as number);
    bySeed.set(seed, ends);
  }
  return ends;
}

/** The jumps of one window: times and log sizes (0 where a slot has none), and their sum. */
interface WindowJumps {
  readonly timesMs: Float64Array;
  readonly sizes: Float64Array;
  readonly total: number;
}

/** Each market's windows, keyed by seed and window: a market object is one (stream, vol). */
const jumpCache = new WeakMap<FundamentalMarket, Map<number, WindowJumps>>();
/** Windows kept per market: the few a warm-up and a live run walk, and a couple of seeds. */
const JUMP_CACHE_MAX = 16;

function windowJumps(seed: number, market: FundamentalMarket, window: number): WindowJumps {
  let windows = jumpCache.get(market);
  if (!windows) {
    windows = new Map();
    jumpCache.set(market, windows);
  }
  // Exact while windows stay below 2^20 (a window is 5.7 days: 16,000 years from 1970).
  const key = (seed >>> 0) * 1_048_576 + window;
  const cached = windows.get(key);
  if (cached) return cached;
  const jumpsPerDay = (JUMP_CHANCE * DAY_MS) / slotMs;
  const jumpSd = market.dailyVol * Math.sqrt(JUMP_VARIANCE_SHARE / jumpsPerDay);
  const timesMs = new Float64Array(SLOTS);
  const sizes = new Float64Array(SLOTS);
  let total = 0;
  for (let slot = 0; slot < SLOTS; slot++) {
    const index = window * SLOTS + slot;
    timesMs[slot] = window * windowMs + slot * slotMs +
      Math.floor(hashUnit(seed, market.stream, index, 3) * slotMs);
    if (hashUnit(seed, market.stream, index, 4) >= JUMP_CHANCE) continue;
    // Laplace sizes (heavier tails than normal) with standard deviation jumpSd.
    const u = hashUnit(seed, market.stream, index, 5);
    const magnitude = (-Math.log(1 - Math.abs(2 * u - 1) * 0.9999) * jumpSd) / Math.SQRT2;
    sizes[slot] = u < 0.5 ? -magnitude : magnitude;
    total += sizes[slot];
  }
  const jumps = { timesMs, sizes, total };
  if (windows.size >= JUMP_CACHE_MAX) windows.delete(windows.keys().next().value as number);
  windows.set(key, jumps);
  return jumps;
}

/** The jump part at tMs: every jump since the anchor window's open (before it: less them). */
export function jumpLog(seed: number, market: FundamentalMarket, tMs: number): number {
  const window = Math.floor(tMs / windowMs);
  const jumps = windowJumps(seed, market, window);
  let x = windowEnds(seed, market).jumpsAt(window);
  for (let slot = 0; slot < SLOTS && jumps.timesMs[slot] <= tMs; slot++) x += jumps.sizes[slot];
  return x;
}

/** The fundamental value at tMs (log, relative to the market's reference price). */
export function fundamentalLog(seed: number, market: FundamentalMarket, tMs: number): number {
  return brownianLog(seed, market, tMs) + jumpLog(seed, market, tMs);
}

/**
 * The part of the fundamental that a market learning at the average pace has not yet priced
 * at tMs: each jump's private share (`informedShare`), decaying with `discoveryMs`.
 */
export function unlearnedLog(seed: number, market: FundamentalMarket, informedShare: number,
  tMs: number): number {
  if (informedShare <= 0) return 0;
  let x = 0;
  // Only the slots that can hold a jump younger than the horizon (slots are in time order).
  const fromSlot = Math.floor((tMs - DISCOVERY_HORIZON_MS) / slotMs) - 1;
  const toSlot = Math.floor(tMs / slotMs);
  for (let w = Math.floor(fromSlot / SLOTS); w <= Math.floor(toSlot / SLOTS); w++) {
    const jumps = windowJumps(seed, market, w);
    const first = Math.max(0, fromSlot - w * SLOTS);
    const last = Math.min(SLOTS - 1, toSlot - w * SLOTS);
    for (let slot = first; slot <= last; slot++) {
      const ageMs = tMs - jumps.timesMs[slot];
      if (ageMs < 0 || ageMs > DISCOVERY_HORIZON_MS || jumps.sizes[slot] === 0) continue;
      x += jumps.sizes[slot] * Math.exp(-ageMs / discoveryMs);
    }
  }
  return informedShare * x;
}

/** The price a market learning at the average pace quotes at tMs (log, like the fundamental). */
export function discoveredLog(seed: number, market: FundamentalMarket, informedShare: number,
  tMs: number): number {
  return fundamentalLog(seed, market, tMs) - unlearnedLog(seed, market, informedShare, tMs);
}

/** The first jump after tMs: its time and log size (the tick world adds its private share). */
export function nextJumpAfter(seed: number, market: FundamentalMarket, tMs: number,
  out: { tMs: number; size: number }): void {
  const first = Math.floor(tMs / windowMs);
  // A window without a jump has odds of 2^-32; past a few, none comes.
  out.tMs = Infinity;
  out.size = 0;
  for (let window = first; window < first + 4; window++) {
    const jumps = windowJumps(seed, market, window);
    for (let slot = 0; slot < SLOTS; slot++) {
      if (jumps.timesMs[slot] > tMs && jumps.sizes[slot] !== 0) {
        out.tMs = jumps.timesMs[slot];
        out.size = jumps.sizes[slot];
        return;
      }
    }
  }
}
