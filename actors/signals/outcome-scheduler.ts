// The persisted schedule of signal outcomes: each delivered signal is evaluated 4 hours of
// market time after it, from the stored 5m bars; an outcome that fell due while the service
// was down is evaluated at the first call after start.
import type { BarStore } from '../../persistence/bars.js';
import type { PendingOutcome, SignalStore } from '../../persistence/signals.js';
import { runSliced } from '../runtime/sliced.js';
import { evaluateBaseline, type SignalBaseline } from './baseline.js';
import { entryEventIdOf, evaluateOutcome, OUTCOME_HORIZON_MS } from './outcome.js';
import { signalTimeMs, type EntrySignal, type SignalOutcome } from './types.js';

export interface OutcomeSchedulerOptions {
  /**
   * Market time an incomplete window may wait past its due time for late bars (a quiet pair
   * closes its last bar only at its next trade); a complete window is evaluated at once.
   */
  readonly graceMs: number;
  /** Outcomes evaluated per call at most; the rest wait for the next call. */
  readonly batchMax: number;
  /**
   * Main-thread time one event-loop turn of evaluations may take: a start after a warm-up finds
   * thousands due at once, each reading its bars from the store, and a poll waits behind a turn.
   */
  readonly sliceMs: number;
}

export const defaultOutcomeSchedulerOptions: OutcomeSchedulerOptions = Object.freeze({
  graceMs: 300_000,
  batchMax: 1_000,
  sliceMs: 1,
});

export interface DueOutcome {
  readonly pending: PendingOutcome<EntrySignal>;
  readonly outcome: SignalOutcome;
  /** The same bars' baseline, for the track record only (not delivered). */
  readonly baseline: SignalBaseline;
}

export interface OutcomeScheduler {
  /** Schedules the outcome of a claimed signal whose entry event was made. */
  schedule(signal: EntrySignal, entryEventId: string): Promise<boolean>;
  /** Pending outcomes due by nowMarketMs (not yet handed out by evaluateDue). */
  due(nowMarketMs: number): PendingOutcome<EntrySignal>[];
  /**
   * Evaluates the due outcomes whose window is complete or whose grace has passed. Each is
   * handed out once per process until `complete` (after the outbox took it) or `release`.
   * `barsUntilMs(symbol)`: market time up to which the symbol's bars are all in (default
   * nowMarketMs); an incomplete window's grace counts from it, not from the newest pair's time.
   */
  evaluateDue(nowMarketMs: number, barsUntilMs?: (symbol: string) => number):
    Promise<DueOutcome[]>;
  /**
   * One pending outcome's figures, as evaluateDue makes them, or null while it is not due or
   * its window waits for bars; not handed out (the caller completes it at once).
   */
  evaluateNow(pending: PendingOutcome<EntrySignal>, nowMarketMs: number,
    barsUntilMs: (symbol: string) => number): DueOutcome | null;
  /** Marks the outcome done, storing its figures and baseline for the track record. */
  complete(signalId: string, outcome?: SignalOutcome, baseline?: SignalBaseline): Promise<void>;
  /** Hands an outcome out again at the next evaluateDue (its delivery could not be queued). */
  release(signalId: string): void;
}

export function createOutcomeScheduler(signals: SignalStore<EntrySignal>, bars: BarStore,
  override: Partial<OutcomeSchedulerOptions> = {}): OutcomeScheduler {
  const options = { ...defaultOutcomeSchedulerOptions, ...override };
  if (!(options.graceMs >= 0)) throw new TypeError(`graceMs must be >= 0 (was ${options.graceMs})`);
  if (!(options.sliceMs > 0)) throw new TypeError(`sliceMs must be > 0 (was ${options.sliceMs})`);
  // Bounded by the store's pendingOutcomesMax: only pending outcomes enter it.
  const handedOut = new Set<string>();
  const due = (nowMarketMs: number) => signals.due(nowMarketMs, options.batchMax + handedOut.size)
    .filter((p) => !handedOut.has(p.signal.signal_id)).slice(0, options.batchMax);
  /** Null while an incomplete window's grace (on the pair's own time) has not passed. */
  const evaluatePending = (pending: PendingOutcome<EntrySignal>,
    barsUntilMs: (symbol: string) => number): DueOutcome | null => {
    const fromMs = signalTimeMs(pending.signal);
    const window = bars.range(pending.signal.symbol, fromMs, pending.dueMs);
    const outcome = evaluateOutcome(pending.signal, window,
      { entryEventId: entryEventIdOf(pending.entryEventId) });
    if (!outcome.complete &&
      barsUntilMs(pending.signal.symbol) < pending.dueMs + options.graceMs) return null;
    const before = bars.range(pending.signal.symbol, fromMs - OUTCOME_HORIZON_MS, fromMs);
    return { pending, outcome, baseline: evaluateBaseline(pending.signal, window, before) };
  };
  return {
    schedule(signal, entryEventId) {
      const signaledAtMs = signalTimeMs(signal);
      const dueMs = signaledAtMs + OUTCOME_HORIZON_MS;
      return signals.scheduleOutcome(signal.signal_id, entryEventId, signaledAtMs, dueMs);
    },
    due,
    async evaluateDue(nowMarketMs, barsUntilMs = () => nowMarketMs) {
      const ready = due(nowMarketMs);
      if (ready.length === 0) return [];
      await bars.flush();
      const out: DueOutcome[] = [];
      // One unit an outcome: the slices end on the clock, not on a count of outcomes.
      function* evaluate(): Generator<void> {
        for (const pending of ready) {
          const done = evaluatePending(pending, barsUntilMs);
          if (done !== null) {
            handedOut.add(done.pending.signal.signal_id);
            out.push(done);
          }
          yield;
        }
      }
      await runSliced(evaluate(), options.sliceMs);
      return out;
    },
    evaluateNow(pending, nowMarketMs, barsUntilMs) {
      return pending.dueMs > nowMarketMs ? null : evaluatePending(pending, barsUntilMs);
    },
    async complete(signalId, outcome, baseline) {
      await signals.completeOutcome(signalId,
        outcome as unknown as Readonly<Record<string, unknown>> | undefined,
        baseline as unknown as Readonly<Record<string, unknown>> | undefined);
      handedOut.delete(signalId);
    },
    release(signalId) {
      handedOut.delete(signalId);
    },
  };
}
