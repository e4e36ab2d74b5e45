// The simulator as a shard's PairFeed: one PairSimulator per tracked symbol, paced on market time.
// A symbol that joins is first warmed up (sim-warmup.ts): the market hours before it joined run
// through its lane at full speed, a slice per event-loop turn, before it follows the pacer.
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { FeedCounters } from '../feed-counters.js';
import type { EventSink, FeedStats, IngestSink, PairFeed } from '../feed-types.js';
import { eventSinkOf } from '../lanes.js';
import { PairSimulator } from './pair-sim.js';
import { SimPace } from './sim-pace.js';
import { marketWarmupPlan, PairWarmup, warmupPlan } from './sim-warmup.js';
import { simWorld } from './sim-world.js';
import { resumeAnswer, resumeFillMs } from './sim-resume.js';

export interface SimPairFeedOptions {
  readonly seed: number;
  readonly speed: number;
  readonly startMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly tickMs?: number;
  readonly stepMs?: number;
  /** Sizes the wallet population trades are attributed to (FeedSpec.walletsTracked). */
  readonly walletsTracked?: number;
  /** The world's informed share (FeedSpec.informedShare): every thread must pass the same. */
  readonly informedShare?: number;
  /** The world's anchor (FeedSpec.anchorMs): every thread must pass the same. */
  readonly anchorMs?: number;
  /** Market time each joining symbol is warmed up over (FeedSpec.warmupMs); 0: none. */
  readonly warmupMs?: number;
  /** Called when the last warming symbol reached its start (its owner publishes then). */
  readonly onWarmedUp?: () => void;
  /** Called in a turn in which some symbols reached their start while others still warm. */
  readonly onPairsWarmed?: () => void;
  /** The slowest other shard's market time (NaN: none paces); sim-pace.ts keeps close to it. */
  readonly groupMs?: () => number;
  /** This shard's market time after each paced step; null while no pair paces. */
  readonly onPaced?: (reachedMs: number | null) => void;
}

/**
 * A lane still holding queued events waits a turn before its next warm-up slice: a shard drains
 * each pair's whole mailbox at once, so slices that pile up would become one long turn and the
 * shard would miss its heartbeat.
 */
const warmupBacklogMax = 0;
/**
 * Pairs that take a warm-up slice per event-loop turn (the others wait their turn). Each turn
 * costs a drain message per pair and a few promise hops: 8 pairs of 24 candles make ~220 turns
 * for a shard's 50 pairs instead of ~1,850 with 2 of 8, and a turn stays a few milliseconds
 * (heartbeat deadline 5 s). Same events in the same order per pair
 * (bench/log/2026-11-26-warm-start-shard-cpu.md).
 */
const warmupPairsPerTurn = 8;

export function createSimPairFeed(options: SimPairFeedOptions): PairFeed {
  const world = simWorld(options.seed, options.walletsTracked, options.informedShare,
    options.anchorMs);
  const counters = new FeedCounters(options.clock, options.logger);
  const warmupMs = options.warmupMs ?? 0;
  // Insertion order is the order symbols are stepped in: deterministic for a given call order.
  const sims = new Map<string, PairSimulator>();
  const warming = new Map<string, PairWarmup>();
  let wanted: readonly string[] = [];
  let sink: EventSink | null = null;
  let target: EventSink | IngestSink | null = null;
  let warmupTurn: NodeJS.Immediate | null = null;
  /** Symbols restored from saved state: the market time their warm-up starts from. */
  const resumes = new Map<string, number>();

  const emit: EventSink = (event) => {
    counters.count(event);
    sink?.(event);
  };
  const backlog = (symbol: string) =>
    target && typeof target !== 'function' ? target.lane(symbol)?.length ?? 0 : 0;
  // A symbol still warming joins the pacer once its warm-up reached its start.
  function* paced(): Generator<PairSimulator> {
    for (const [symbol, sim] of sims) if (!warming.has(symbol)) yield sim;
  }
  const pacer = new SimPace({ clock: options.clock, speed: options.speed,
    startMs: options.startMs, tickMs: options.tickMs ?? 50, groupMs: options.groupMs,
    onPaced: options.onPaced }, paced, backlog, emit);
  const warmupStep = () => {
    warmupTurn = null;
    if (!sink) return;
    let stepped = 0;
    let ended = false;
    for (const [symbol, warmup] of [...warming]) {
      if (stepped >= warmupPairsPerTurn) break;
      if (backlog(symbol) > warmupBacklogMax) continue;
      stepped++;
      // Round robin: a pair that took its slice queues behind the others.
      warming.delete(symbol);
      if (!warmup.step(emit)) warming.set(symbol, warmup);
      else {
        ended = true;
        options.logger.debug('warm-up done', { symbol, fromMs: warmup.plan.fromMs });
      }
    }
    if (warming.size > 0) {
      warmupTurn = setImmediate(warmupStep);
      if (ended) options.onPairsWarmed?.();
    } else options.onWarmedUp?.();
  };
  const apply = () => {
    const keep = new Set(wanted);
    for (const symbol of [...sims.keys()]) {
      if (!keep.has(symbol)) {
        sims.delete(symbol);
        warming.delete(symbol);
      }
    }
    for (const symbol of wanted) {
      if (sims.has(symbol)) continue;
      const market = world.bySymbol.get(symbol);
      if (!market || market.isDelisted) {
        counters.drop(market ? 'delisted_symbol' : 'unknown_coin', { symbol });
        continue;
      }
      const resumeFromMs = resumes.get(symbol);
      resumes.delete(symbol);
      const fillMs = resumeFromMs === undefined ? warmupMs
        : resumeFillMs(pacer.marketMs(), resumeFromMs);
      if (fillMs <= 0) {
        sims.set(symbol, new PairSimulator(world.seed, market, world.picker, pacer.marketMs()));
        continue;
      }
      // A restored pair fills just its gap; a fresh one warms over its market's sessions.
      const plan = resumeFromMs === undefined
        ? marketWarmupPlan(market, pacer.marketMs(), warmupMs)
        : warmupPlan(pacer.marketMs(), fillMs);
      const sim = new PairSimulator(world.seed, market, world.picker, plan.ticksFromMs);
      sims.set(symbol, sim);
      warming.set(symbol, new PairWarmup(world.seed, market, plan, sim));
    }
    if (warming.size > 0 && !warmupTurn) warmupTurn = setImmediate(warmupStep);
  };
  return {
    start(to) {
      if (sink) throw new Error('feed already started');
      target = to;
      sink = eventSinkOf(to);
      counters.connected = true;
      apply();
      pacer.start();
    },
    setSymbols(symbols) {
      wanted = [...new Set(symbols)];
      if (sink) apply();
    },
    async stop() {
      pacer.stop();
      if (warmupTurn) clearImmediate(warmupTurn);
      warmupTurn = null;
      warming.clear();
      counters.connected = false;
      sink = null;
      target = null;
    },
    stats: (): FeedStats => ({ ...counters.snapshot(), warming: warming.size }),
    isWarming: (symbol) => warming.has(symbol),
    resumeFrom(symbol, fromMs) {
      const answer = resumeAnswer(pacer.marketMs(), fromMs);
      if (answer === 'fill') resumes.set(symbol, fromMs);
      return answer;
    },
  };
}
