// Pair engines warmed up in-process over the simulator's warm-up (the same candles and ticks
// the shards fold in), for benches that need realistic pair state without a service.
import { createPairEngine, type PairEngine } from '../../actors/shard/pair-engine.js';
import { PairSimulator } from '../../actors/feed/sim/pair-sim.js';
import { freshWarmupPlan, PairWarmup } from '../../actors/feed/sim/sim-warmup.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';

/**
 * Warms the first `count` listed markets over `warmupHours` before `startMs`, in the world of
 * `informedShare` (default: the informed world; 0: the null world).
 */
export function warmEngines(count: number, warmupHours: number, startMs: number,
  seed = 1, informedShare?: number): { symbol: string; engine: PairEngine }[] {
  const world = simWorld(seed, undefined, informedShare);
  const markets = [...world.bySymbol.values()].filter((m) => !m.isDelisted).slice(0, count);
  return markets.map((market) => {
    const engine = createPairEngine(market.symbol, { cadenceMs: 1_000, wallNowMs: () => 0 });
    const plan = freshWarmupPlan(startMs, warmupHours * 3_600_000);
    const sim = new PairSimulator(world.seed, market, world.picker, plan.ticksFromMs);
    const warmup = new PairWarmup(world.seed, market, plan, sim);
    while (!warmup.step((event) => engine.onEvent(event)));
    engine.publish(0);
    return { symbol: market.symbol, engine };
  });
}
