// The simulator's warm-up (docs/decisions.md, Warm start): the market hours before the start, made
// fast enough to run before /readyz. The past is candles from the shared price path (pure
// functions of seed, symbol and time): hourly far back (VPIN's volume buckets and their
// distribution need days of volume, nothing else looks that far), 5-minute for the regime's
// bars, 1-minute in the last hour for Kyle's intervals; the last minutes are the pair's own tick
// simulator, which then carries on live. All of it goes through the shard's lanes.
//
// The past does not move with the start: a fresh warm-up begins at a UTC midnight (the day's CVD
// is whole), and every tier boundary is on a fixed UTC grid, so two starts emit the same candles
// for the same market time up to an hour before the earlier start (docs/operations.md).
import type { AssetCtxEvent, CandleEvent, MarketEvent } from '../../../core/messages.js';
import type { SimMarket } from './catalogue.js';
import { isSessionOpen } from './catalogue.js';
import { activity, assetCtxAt, referencePx, roundPx } from './market-model.js';
import type { PairSimulator } from './pair-sim.js';
import { hashUnit } from './rng.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Tick-simulated tail of the warm-up: OBI, OFI, whales and absorption learn from real prints. */
export const warmupTicksMs = 5 * MINUTE_MS;
/** Candles a pair emits per warm-up step (one step per event-loop turn and pair). */
const candlesPerStep = 24;
/**
 * Candle slots a step walks at most, closed ones (a session market's nights and weekends: an
 * hour's asset context, no candle) included. Counting those as candles made a builder market's
 * warm-up 63 steps against an always-open pair's 30, and its last steps ran alone, a turn each,
 * after every other pair had warmed (bench/log/2026-11-26-warm-start-views-first.md).
 */
const slotsPerStepMax = 240;
const DAY_MS = 24 * HOUR_MS;
/**
 * Hourly candles end at the last mark of this grid (00, 06, 12, 18 UTC) that lies at least
 * `fiveMinuteSpanMinMs` before the start: a boundary that moves with the start would turn a
 * past hour from one candle into twelve between two starts. The 5-minute tier then spans 8 to
 * 14 h before the start (11 h on average, as before the grid) and holds the regime's 100 bars.
 */
export const hourlyTierGridMs = 6 * HOUR_MS;
const fiveMinuteSpanMinMs = 9 * HOUR_MS;
/**
 * 1-minute candles in the last hour, from the 5-minute mark at or after toMs - 1 h: older than
 * an hour before the start every minute is inside a 5-minute candle, whatever the start.
 */
const minuteSpanMs = HOUR_MS;
/** Market time of tick simulation per warm-up step: a busy pair's minute is ~1,500 events. */
const ticksPerStepMs = 20_000;
/** Price samples per candle at least (the path between them is what high and low see). */
const samplesPerCandle = 4;
/**
 * ... and one a minute: an hourly candle's range is the range its minutes saw. Sampled every 15
 * minutes it missed most touches of a stop or target inside the hour, and an outcome missing a
 * stop touch (nearer than t1, so missed more often) paid a random entry +0.06 R.
 */
const sampleSpacingMs = 60_000;

export interface WarmupPlan {
  /** First candle's open (a whole minute). */
  readonly fromMs: number;
  /** Where candles end and the tick simulator starts (a whole minute). */
  readonly ticksFromMs: number;
  /** The feed's start: the warm-up ends here and live market time carries on. */
  readonly toMs: number;
  /**
   * Where the finer candle tiers count back from: toMs, or for a market with sessions closed at
   * toMs the end of its last session (its last hour of trading is 1-minute candles).
   */
  readonly tiersToMs?: number;
}

/** How far back a market with sessions may reach to see `warmupMs` of trading. */
const sessionReachMaxMs = 60 * 24 * HOUR_MS;

const floorTo = (tMs: number, gridMs: number) => Math.floor(tMs / gridMs) * gridMs;

/**
 * The plan of a window of `warmupMs` before toMs from its first whole minute (a restored pair's
 * gap). A fresh warm-up begins at a UTC midnight instead (`freshWarmupPlan`).
 */
export function warmupPlan(toMs: number, warmupMs: number, ticksMs = warmupTicksMs): WarmupPlan {
  const fromMs = floorTo(toMs - warmupMs, MINUTE_MS);
  return { fromMs,
    ticksFromMs: Math.max(fromMs, floorTo(toMs - Math.min(ticksMs, warmupMs), MINUTE_MS)), toMs };
}

/**
 * A fresh warm-up of at least `warmupMs`: from the UTC midnight at or before toMs - warmupMs, so
 * the day's CVD (reset at midnight) and the candle split's volatility (learned per UTC day) of
 * every day in it are the same whatever the start; a later start at most drops a first day.
 */
export function freshWarmupPlan(toMs: number, warmupMs: number, ticksMs = warmupTicksMs):
  WarmupPlan {
  const plan = warmupPlan(toMs, warmupMs, ticksMs);
  return warmupMs <= 0 ? plan : { ...plan, fromMs: floorTo(plan.fromMs, DAY_MS) };
}

/**
 * A market's warm-up plan: a market with sessions (builder markets) is warmed over as much
 * trading as an always-open one sees in `warmupMs` (its open whole hours, reaching back up to
 * 60 days), so its volume buckets, VPIN level and bars fill; its finer tiers end where its last
 * session ended. Any window fromMs..toMs works (a restart fills its gap the same way).
 */
export function marketWarmupPlan(market: SimMarket, toMs: number, warmupMs: number,
  ticksMs = warmupTicksMs): WarmupPlan {
  const plan = freshWarmupPlan(toMs, warmupMs, ticksMs);
  if (market.session === 'always' || warmupMs <= 0) return plan;
  let openMs = 0;
  let fromMs = Math.floor(toMs / HOUR_MS) * HOUR_MS;
  while (openMs < warmupMs && toMs - fromMs < sessionReachMaxMs) {
    fromMs -= HOUR_MS;
    if (isSessionOpen(market.session, fromMs)) openMs += HOUR_MS;
  }
  let lastOpenMs = Math.floor(toMs / MINUTE_MS) * MINUTE_MS;
  while (lastOpenMs > fromMs && !isSessionOpen(market.session, lastOpenMs - MINUTE_MS)) {
    lastOpenMs -= MINUTE_MS;
  }
  return { ...plan, fromMs: floorTo(Math.min(plan.fromMs, fromMs), DAY_MS),
    tiersToMs: lastOpenMs };
}

/** The asset context the venue would report at tMs (the first one sets VPIN's bucket size). */
export function simCtxAt(seed: number, market: SimMarket, tMs: number): AssetCtxEvent {
  return { type: 'ctx', symbol: market.symbol, tsMs: tMs, ...assetCtxAt(seed, market, tMs) };
}

/**
 * The length of the candle that opens at tMs in a warm-up of `plan`: hourly before the hourly
 * tier's end on the 6-hour grid, 5-minute before the last hour, then 1-minute; each only where
 * its whole candle fits before the ticks, so every candle is on its own length's UTC grid.
 */
export function candleIntervalAt(plan: WarmupPlan, tMs: number): number {
  const tiersToMs = plan.tiersToMs ?? plan.toMs;
  // After a session market's last session (closed to the end) there is nothing to resolve:
  // the coarsest step that fits, not thousands of empty minutes.
  const closed = plan.tiersToMs !== undefined && tMs >= plan.tiersToMs;
  const fits = (intervalMs: number, endMs: number) =>
    tMs % intervalMs === 0 && tMs + intervalMs <= Math.min(endMs, plan.ticksFromMs);
  if (fits(HOUR_MS, closed ? Infinity : hourlyTierEndMs(tiersToMs))) return HOUR_MS;
  const minutesFromMs = Math.ceil((tiersToMs - minuteSpanMs) / (5 * MINUTE_MS)) * 5 * MINUTE_MS;
  if (fits(5 * MINUTE_MS, closed ? Infinity : minutesFromMs)) return 5 * MINUTE_MS;
  return MINUTE_MS;
}

/** Where hourly candles end for tiers counting back from tiersToMs: a mark of the fixed grid. */
export function hourlyTierEndMs(tiersToMs: number): number {
  return floorTo(tiersToMs - fiveMinuteSpanMinMs, hourlyTierGridMs);
}

/**
 * The candle opening at openMs, or null outside the market's session. Prices follow the
 * reference path; volume is the market's activity-scaled daily volume over the candle's length,
 * with a jitter (exponential, mean 1, for minutes; milder for longer candles, which sum many
 * minutes), so volume buckets fill unevenly as on the venue.
 */
export function simCandleAt(seed: number, market: SimMarket, openMs: number,
  intervalMs = MINUTE_MS): CandleEvent | null {
  if (!isSessionOpen(market.session, openMs) || market.isDelisted) return null;
  let high = 0;
  let low = Infinity;
  let open = 0;
  let close = 0;
  const samples = Math.max(samplesPerCandle, Math.round(intervalMs / sampleSpacingMs));
  for (let k = 0; k <= samples; k++) {
    const px = roundPx(referencePx(seed, market, openMs + (k * intervalMs) / samples));
    if (k === 0) open = px;
    if (k === samples) close = px;
    if (px > high) high = px;
    if (px < low) low = px;
  }
  const minute = Math.floor(openMs / MINUTE_MS);
  const u = hashUnit(seed, market.stream, minute, 11);
  const jitter = intervalMs <= MINUTE_MS ? -Math.log(1 - u * 0.999) : 0.5 + u;
  const volumeUsd = Math.max(2e4, market.baseVolumeUsd * activity(seed, market, openMs)) *
    (intervalMs / 86_400_000) * jitter;
  const volume = volumeUsd / ((open + close) / 2);
  return { type: 'candle', symbol: market.symbol, tsMs: openMs, intervalMs, open, high, low, close,
    volume };
}

/** One pair's warm-up, run a step at a time so the shard keeps draining and answering. */
export class PairWarmup {
  private nextCandleMs: number;
  private nextCtxMs: number;
  private ticksReachedMs: number;

  constructor(private readonly seed: number, private readonly market: SimMarket,
    readonly plan: WarmupPlan, private readonly sim: PairSimulator) {
    this.nextCandleMs = plan.fromMs;
    this.nextCtxMs = plan.fromMs;
    this.ticksReachedMs = plan.ticksFromMs;
  }

  get done(): boolean {
    return this.ticksReachedMs >= this.plan.toMs;
  }

  /**
   * Emits the next slice of the warm-up; true when the warm-up reached its end. Slices are a
   * pure function of the plan: the events and their order do not depend on how they are paced.
   */
  step(emit: (event: MarketEvent) => void): boolean {
    const { seed, market, plan } = this;
    if (this.nextCandleMs < plan.ticksFromMs) {
      for (let n = 0, slots = 0; n < candlesPerStep && slots < slotsPerStepMax &&
        this.nextCandleMs < plan.ticksFromMs; slots++) {
        const openMs = this.nextCandleMs;
        if (openMs >= this.nextCtxMs) {
          emit(simCtxAt(seed, market, openMs));
          // On the hour grid, wherever the window began: the same contexts for the same hours.
          this.nextCtxMs = floorTo(openMs, HOUR_MS) + HOUR_MS;
        }
        const intervalMs = candleIntervalAt(plan, openMs);
        const candle = simCandleAt(seed, market, openMs, intervalMs);
        if (candle) {
          emit(candle);
          n++;
        }
        this.nextCandleMs = openMs + intervalMs;
      }
      return false;
    }
    this.ticksReachedMs = Math.min(plan.toMs, this.ticksReachedMs + ticksPerStepMs);
    this.sim.advanceTo(this.ticksReachedMs, emit);
    return this.done;
  }
}
