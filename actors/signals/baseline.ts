// Baselines on the same bars (docs/signals.md "Track record statistics"): what the signal's
// entry, stop and targets would have done on the other side, and which side the trend was on.
// The track record compares a group with a random-direction and a trend-direction entry at the
// same bars and distances, so an edge is measured against what the bars gave anyone.
import type { Bar } from '../../core/messages.js';
import { seedOf } from '../../kernels/seeded-rng.js';
import {
  barrierResultR, evaluateOutcome, OUTCOME_BAR_MS, OUTCOME_HORIZON_MS,
} from './outcome.js';
import {
  signalTimeMs, type EntrySignal, type FirstLevelHit, type Side, type SignalOutcome,
} from './types.js';

/** Stored with the outcome for the track record (not part of the signal.outcome event). */
export interface SignalBaseline {
  /** The first level touched by the same distances on the other side, same window. */
  readonly mirror_first_level_hit: FirstLevelHit;
  /** The side of the 4 h before the signal (its 5m bars' first open to last close); null flat. */
  readonly trend_side: Side | null;
  /** The mirror's exit_price (see SignalOutcome); absent from baselines stored before it. */
  readonly mirror_exit_price?: number;
}

/** The signal with its side and plan mirrored through the entry: same distances, other side. */
export function mirroredSignal(signal: EntrySignal): EntrySignal {
  const { entry, stop, t1, t2 } = signal.plan;
  const flip = (price: number) => 2 * entry - price;
  return {
    ...signal, side: signal.side === 'long' ? 'short' : 'long',
    plan: { ...signal.plan, stop: flip(stop), t1: flip(t1), t2: flip(t2) },
  };
}

/** The side the price went over the 4 h of 5m bars that closed by the signal; null if flat. */
export function trendSide(signal: EntrySignal, bars5m: readonly Bar[]): Side | null {
  const signalMs = signalTimeMs(signal);
  let first: Bar | null = null;
  let last: Bar | null = null;
  for (const bar of bars5m) {
    if (bar.openMs < signalMs - OUTCOME_HORIZON_MS || bar.openMs + OUTCOME_BAR_MS > signalMs) {
      continue;
    }
    if (first === null || bar.openMs < first.openMs) first = bar;
    if (last === null || bar.openMs > last.openMs) last = bar;
  }
  if (first === null || last === null || last.close === first.open) return null;
  return last.close > first.open ? 'long' : 'short';
}

/** The baseline of a signal: `window` as evaluateOutcome takes it, `before` the 4 h before. */
export function evaluateBaseline(signal: EntrySignal, window: readonly Bar[],
  before: readonly Bar[]): SignalBaseline {
  const mirror = evaluateOutcome(mirroredSignal(signal), window);
  return { mirror_first_level_hit: mirror.first_level_hit, trend_side: trendSide(signal, before),
    mirror_exit_price: mirror.exit_price };
}

/** The result in R of the mirrored entry, from the signal's own outcome and the mirror's. */
export function mirroredResultR(signal: EntrySignal, outcome: SignalOutcome,
  baseline: SignalBaseline): number {
  return barrierResultR(mirroredOf(signal), baseline.mirror_first_level_hit,
    baseline.mirror_exit_price, outcome.price_after);
}

// The track record keeps its decoded signals between answers: each one's mirror is made once.
const mirrors = new WeakMap<EntrySignal, EntrySignal>();

function mirroredOf(signal: EntrySignal): EntrySignal {
  let mirror = mirrors.get(signal);
  if (mirror === undefined) {
    mirror = mirroredSignal(signal);
    mirrors.set(signal, mirror);
  }
  return mirror;
}

/** The seeded coin of the random-direction baseline: true keeps the signal's own side. */
export function randomKeepsSide(signalId: string): boolean {
  return ((seedOf(`random-baseline:${signalId}`) >>> 16) & 1) === 1;
}

// The track record keeps its decoded signals between answers: each one's coin is hashed once.
const coins = new WeakMap<EntrySignal, boolean>();

/** randomKeepsSide of the signal, remembered with the signal object. */
export function signalKeepsSide(signal: EntrySignal): boolean {
  let coin = coins.get(signal);
  if (coin === undefined) {
    coin = randomKeepsSide(signal.signal_id);
    coins.set(signal, coin);
  }
  return coin;
}
