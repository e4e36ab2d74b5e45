// The signals' track record of a simulated world, in-process: pair engines fold the simulator's
// warm-up candles (the path a service's warm-up takes, docs/decisions.md Warm start), their
// closed bars and entry signals go where the main thread's signal pipeline sends them (the
// walk-forward evidence grader, the outcome and its baseline from the stored 5m bars), and the
// track record's report is computed over them. No store, no threads: the same pure functions.
import type { Bar } from '../../core/messages.js';
import { createPairEngine } from '../../actors/shard/pair-engine.js';
import { PairSimulator } from '../../actors/feed/sim/pair-sim.js';
import { freshWarmupPlan, PairWarmup } from '../../actors/feed/sim/sim-warmup.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { evaluateBaseline } from '../../actors/signals/baseline.js';
import { EvidenceGrader } from '../../actors/signals/evidence-grader.js';
import { evaluateOutcome, OUTCOME_HORIZON_MS } from '../../actors/signals/outcome.js';
import {
  performanceReport, type PerformanceReport,
} from '../../actors/signals/performance-report.js';
import type { PerformanceGroup, TrackedSignal } from '../../actors/signals/track-record.js';
import {
  signalTimeMs, type EntrySignal, type SignalOutcome,
} from '../../actors/signals/types.js';

export interface SimTrackRecordOptions {
  readonly seed: number;
  /** The world's informed share (0: the null world). */
  readonly informedShare: number;
  /** Markets simulated: these symbols, or the first `pairs` listed ones. */
  readonly symbols?: readonly string[];
  readonly pairs?: number;
  /** The warm-up's end (market time) and its length. */
  readonly toMs: number;
  readonly days: number;
}

export interface SimTrackRecord {
  /** Every signal, graded walk-forward, with its outcome and baseline, oldest first. */
  readonly tracked: readonly TrackedSignal[];
  /** Market time of the first and last signal's close, for the report's window. */
  readonly fromMs: number;
  readonly toMs: number;
}

interface PairRun {
  readonly signals: EntrySignal[];
  /** The pair's closed 5m bars, oldest first (what the bar store holds). */
  readonly bars5m: Bar[];
}

/** Warms one market over the plan and keeps its closed 5m bars and entry signals. */
function runPair(o: SimTrackRecordOptions, symbol: string): PairRun {
  const world = simWorld(o.seed, undefined, o.informedShare);
  const market = world.bySymbol.get(symbol);
  if (!market) throw new Error(`unknown symbol ${symbol}`);
  const engine = createPairEngine(symbol, { cadenceMs: 1_000, wallNowMs: () => 0 });
  const plan = freshWarmupPlan(o.toMs, o.days * 86_400_000);
  const sim = new PairSimulator(world.seed, market, world.picker, plan.ticksFromMs);
  const warmup = new PairWarmup(world.seed, market, plan, sim);
  const run: PairRun = { signals: [], bars5m: [] };
  const take = () => {
    for (const item of engine.publish(0)?.outbound ?? []) {
      if (item.kind === 'entry_signal') run.signals.push(item.data as unknown as EntrySignal);
      else if (item.kind === 'bar' && (item.data as unknown as Bar).timeframe === '5m') {
        run.bars5m.push(item.data as unknown as Bar);
      }
    }
  };
  while (!warmup.step((event) => engine.onEvent(event))) take();
  take();
  return run;
}

/** The bars of `bars` (oldest first) opening in [fromMs, toMs). */
function barsBetween(bars: readonly Bar[], fromMs: number, toMs: number): Bar[] {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bars[mid].openMs < fromMs) lo = mid + 1;
    else hi = mid;
  }
  const out: Bar[] = [];
  for (let i = lo; i < bars.length && bars[i].openMs < toMs; i++) out.push(bars[i]);
  return out;
}

/**
 * The world's track record: every pair warmed over `days`, its signals graded in market-time
 * order from the outcomes evaluated (signal close + 4 h) strictly before each one's bar, and
 * each outcome and baseline computed from its pair's 5m bars as the outcome scheduler does.
 * Outcomes whose 4 h run past the warm-up's end are left unevaluated.
 */
export function simTrackRecord(o: SimTrackRecordOptions): SimTrackRecord {
  const world = simWorld(o.seed, undefined, o.informedShare);
  const symbols = o.symbols ?? world.markets.filter((m) => !m.isDelisted)
    .slice(0, o.pairs ?? 8).map((m) => m.symbol);
  const raw: { signal: EntrySignal; bars5m: readonly Bar[] }[] = [];
  for (const symbol of symbols) {
    const run = runPair(o, symbol);
    for (const signal of run.signals) raw.push({ signal, bars5m: run.bars5m });
  }
  raw.sort((a, b) => signalTimeMs(a.signal) - signalTimeMs(b.signal) ||
    (a.signal.signal_id < b.signal.signal_id ? -1 : 1));
  const grader = new EvidenceGrader();
  const tracked: TrackedSignal[] = [];
  // Outcomes in evaluation order (signal close + 4 h: the order of the signals).
  const pending: { signal: EntrySignal; outcome: SignalOutcome; evaluatedMs: number }[] = [];
  let recorded = 0;
  for (const { signal: detected, bars5m } of raw) {
    const barMs = Date.parse(detected.bar_time);
    while (recorded < pending.length && pending[recorded].evaluatedMs < barMs) {
      grader.record(pending[recorded].signal, pending[recorded].outcome);
      recorded++;
    }
    const signal = grader.grade(detected);
    const signalMs = signalTimeMs(signal);
    const dueMs = signalMs + OUTCOME_HORIZON_MS;
    if (dueMs > o.toMs) {
      tracked.push({ signal, signalMs, outcome: null, baseline: null });
      continue;
    }
    const window = barsBetween(bars5m, signalMs, dueMs);
    const outcome = evaluateOutcome(signal, window);
    const baseline = evaluateBaseline(signal, window,
      barsBetween(bars5m, signalMs - OUTCOME_HORIZON_MS, signalMs));
    pending.push({ signal, outcome, evaluatedMs: dueMs });
    tracked.push({ signal, signalMs, outcome, baseline });
  }
  return { tracked, fromMs: tracked.length > 0 ? tracked[0].signalMs : o.toMs,
    toMs: o.toMs + 1 };
}

/** The report over the whole run, grouped by `by`. */
export function simReport(record: SimTrackRecord, by: PerformanceGroup): PerformanceReport {
  return performanceReport(record.tracked, record.fromMs, record.toMs, by);
}
