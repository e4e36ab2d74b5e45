// A whole simulated venue in one thread, in time order: universe, funding and wallets every
// cadence, and the tracked pairs' events, merged and sorted per one-second window. This is what
// `orderflow record --feed sim` writes; same options, same bytes.
import type { Clock } from '../../../core/clock.js';
import type { MarketEvent } from '../../../core/messages.js';
import { rankTracked } from '../../universe/tracked.js';
import { createPacer } from '../pacer.js';
import { PairSimulator } from './pair-sim.js';
import { simFundingAt, simUniverseAt, simWalletsAt } from './sim-universe.js';
import { simWorld } from './sim-world.js';

export interface SimSessionOptions {
  readonly seed: number;
  readonly startMs: number;
  /** Market time to cover. */
  readonly durationMs: number;
  readonly speed: number;
  readonly clock: Clock;
  readonly cadenceMs: number;
  readonly walletCadenceMs?: number;
  readonly trackedCount?: number;
  /** How often the tracked set is re-ranked (docs/decisions.md: hourly). */
  readonly rerankMs?: number;
}

export interface SimSession {
  readonly done: Promise<void>;
  stop(): void;
}

const WINDOW_MS = 1_000;

export function runSimSession(o: SimSessionOptions, sink: (e: MarketEvent) => void): SimSession {
  const world = simWorld(o.seed);
  const endMs = o.startMs + o.durationMs;
  const walletCadenceMs = o.walletCadenceMs ?? 60_000;
  const rerankMs = o.rerankMs ?? 3_600_000;
  const sims = new Map<string, PairSimulator>();
  let nextUniverseMs = o.startMs;
  let nextWalletMs = o.startMs;
  let nextRerankMs = o.startMs;
  let reachedMs = o.startMs - 1;
  const window: MarketEvent[] = [];
  const collect = (e: MarketEvent) => window.push(e);

  const universeAt = (tMs: number) => {
    const universe = simUniverseAt(world, tMs);
    collect(universe);
    for (const e of simFundingAt(world, tMs)) collect(e);
    if (tMs >= nextWalletMs) {
      for (const e of simWalletsAt(world, tMs)) collect(e);
      nextWalletMs = tMs + walletCadenceMs;
    }
    if (tMs >= nextRerankMs) {
      const tracked = rankTracked(universe.markets, new Set(sims.keys()), o.trackedCount ?? 100,
        Math.ceil((o.trackedCount ?? 100) * 1.1));
      const keep = new Set(tracked);
      for (const s of [...sims.keys()]) if (!keep.has(s)) sims.delete(s);
      for (const s of tracked) {
        if (!sims.has(s)) sims.set(s, new PairSimulator(o.seed, world.bySymbol.get(s)!,
          world.picker, tMs));
      }
      nextRerankMs = tMs + rerankMs;
    }
  };
  const step = (toMs: number) => {
    window.length = 0;
    while (nextUniverseMs <= toMs) {
      universeAt(nextUniverseMs);
      nextUniverseMs += o.cadenceMs;
    }
    for (const sim of sims.values()) sim.advanceTo(toMs, collect);
    // Stable: at equal times the universe comes first, then pairs in tracked order.
    window.sort((a, b) => a.tsMs - b.tsMs);
    for (const e of window) sink(e);
    reachedMs = toMs;
  };

  const pacer = createPacer({ clock: o.clock, speed: o.speed, startMs: o.startMs,
    stepMs: WINDOW_MS });
  let resolve: () => void = () => {};
  const done = new Promise<void>((r) => { resolve = r; });
  const stop = () => {
    pacer.stop();
    resolve();
  };
  pacer.start((toMs) => {
    const target = Math.min(toMs, endMs);
    while (reachedMs < target) step(Math.min(target, reachedMs + WINDOW_MS));
    if (reachedMs >= endMs) stop();
  });
  return { done, stop };
}
