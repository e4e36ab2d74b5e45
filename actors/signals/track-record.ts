// The signals' track record (docs/decisions.md "History"): past entry signals with their evaluated
// 4-hour outcomes, filtered and paged, and per-group performance figures. Pure: the caller
// hands the stored records and "now" (market time).
import type { SignalRecord } from '../../persistence/signals.js';
import type { SignalBaseline } from './baseline.js';
import { barrierResultR } from './outcome.js';
import {
  LOGIC_NAMES, signalTimeMs, type EntrySignal, type SignalOutcome,
} from './types.js';

export const PERFORMANCE_WINDOWS = ['7d', '30d', '90d', 'all'] as const;
export type PerformanceWindow = (typeof PERFORMANCE_WINDOWS)[number];
export const WINDOW_MS: Readonly<Record<PerformanceWindow, number>> = Object.freeze({
  '7d': 7 * 86_400_000, '30d': 30 * 86_400_000, '90d': 90 * 86_400_000, 'all': Infinity,
});
export const PERFORMANCE_GROUPS = ['grade', 'timeframe', 'logic', 'regime', 'symbol', 'side',
  'grade_timeframe'] as const;
export type PerformanceGroup = (typeof PERFORMANCE_GROUPS)[number];

/** A stored signal with its outcome (null until evaluated). */
export interface TrackedSignal {
  readonly signal: EntrySignal;
  /** Market time the signal was known: the close of its bar. */
  readonly signalMs: number;
  readonly outcome: SignalOutcome | null;
  /** The same bars' baseline; null until evaluated and for outcomes stored before it existed. */
  readonly baseline: SignalBaseline | null;
}

/** A stored record as the track record reads it, before "now" decides what is known. */
export interface StoredTrack {
  readonly signal: EntrySignal;
  readonly signalMs: number;
  readonly outcome: SignalOutcome | null;
  /** Market time of the outcome's evaluated_at; Infinity without one. */
  readonly evaluatedMs: number;
  readonly baseline: SignalBaseline | null;
}

export function storedTrack(record: SignalRecord<EntrySignal>): StoredTrack {
  const stored = record.outcomeDone && record.result !== undefined
    ? record.result as unknown as SignalOutcome : null;
  // Outcomes stored before null marked "no event sent" carry '': read once per record, here.
  const outcome = stored === null || stored.entry_event_id !== '' ? stored
    : { ...stored, entry_event_id: null };
  const baseline = outcome !== null && record.baseline !== undefined
    ? record.baseline as unknown as SignalBaseline : null;
  return { signal: record.signal, signalMs: signalTimeMs(record.signal), outcome,
    evaluatedMs: outcome === null ? Infinity : Date.parse(outcome.evaluated_at), baseline };
}

/** Oldest first; the id breaks ties so paging is stable. */
export function byTimeThenId(a: { signalMs: number; signal: EntrySignal },
  b: { signalMs: number; signal: EntrySignal }): number {
  return a.signalMs - b.signalMs ||
    (a.signal.signal_id < b.signal.signal_id ? -1 : a.signal.signal_id > b.signal.signal_id ? 1
      : 0);
}

/**
 * Sorted stored tracks as known at `nowMs` (market time): an outcome counts from its
 * `evaluated_at` on. The pipeline's market clock can run a minute ahead of the answers' (the
 * newest recorded minute), and an answer for a moment must not depend on how far the
 * evaluation had got.
 */
export function trackedAtMs(sorted: readonly StoredTrack[], nowMs: number): TrackedSignal[] {
  return sorted.map((t) => ({ signal: t.signal, signalMs: t.signalMs,
    outcome: t.evaluatedMs <= nowMs ? t.outcome : null,
    baseline: t.evaluatedMs <= nowMs ? t.baseline : null }));
}

/** The records as tracked signals at `nowMs` (market time; default: all known), oldest first. */
export function trackedSignals(records: Iterable<SignalRecord<EntrySignal>>,
  nowMs = Infinity): TrackedSignal[] {
  const stored: StoredTrack[] = [];
  for (const record of records) stored.push(storedTrack(record));
  return trackedAtMs(stored.sort(byTimeThenId), nowMs);
}

export interface SignalFilter {
  readonly symbol?: string;
  readonly timeframe?: string;
  readonly grade?: string;
  readonly fromMs: number;
  readonly toMs: number;
  /** Continue after this signal (time, id) of the previous page. */
  readonly after?: { readonly signalMs: number; readonly signalId: string };
  readonly limit: number;
}

export interface SignalPage {
  readonly signals: readonly TrackedSignal[];
  /** The last signal of the page when more follow, else null. */
  readonly next: TrackedSignal | null;
}

export function filterSignals(all: readonly TrackedSignal[], f: SignalFilter): SignalPage {
  const out: TrackedSignal[] = [];
  for (const item of all) {
    const { signal, signalMs } = item;
    if (signalMs < f.fromMs || signalMs >= f.toMs) continue;
    if (f.symbol !== undefined && signal.symbol !== f.symbol) continue;
    if (f.timeframe !== undefined && signal.timeframe !== f.timeframe) continue;
    if (f.grade !== undefined && signal.grade !== f.grade) continue;
    if (f.after !== undefined && (signalMs < f.after.signalMs ||
      (signalMs === f.after.signalMs && signal.signal_id <= f.after.signalId))) continue;
    if (out.length === f.limit) return { signals: out, next: out[out.length - 1] };
    out.push(item);
  }
  return { signals: out, next: null };
}

export interface PerformanceRow {
  readonly group: string;
  readonly count: number;
  readonly evaluated: number;
  readonly t1Hits: number;
  readonly stopHits: number;
  /** t1 before the stop, over evaluated; null when none was evaluated. */
  readonly hitRate: number | null;
  readonly avgMovePct: number | null;
  readonly avgMaxFavorablePct: number | null;
  readonly avgMaxAdversePct: number | null;
  /** Mean result in units of risk |entry - stop|: t1 first +r_t1, stop first -1, else the move. */
  readonly expectancyR: number | null;
}

/** The result of one evaluated signal in units of its risk. */
export function resultR(signal: EntrySignal, outcome: SignalOutcome): number {
  return barrierResultR(signal, outcome.first_level_hit, outcome.exit_price,
    outcome.price_after);
}

export function groupsOf(signal: EntrySignal, by: PerformanceGroup): string[] {
  switch (by) {
    case 'grade': return [signal.grade];
    case 'timeframe': return [signal.timeframe];
    case 'regime': return [signal.regime];
    case 'symbol': return [signal.symbol];
    case 'side': return [signal.side];
    case 'grade_timeframe': return [`${signal.grade}/${signal.timeframe}`];
    // A signal backed by several logics counts in each of their groups.
    case 'logic': return LOGIC_NAMES.filter((name) => signal.logics[name]);
  }
}

interface Sums {
  count: number; evaluated: number; t1Hits: number; stopHits: number;
  move: number; favorable: number; adverse: number; r: number;
}

const mean = (sum: number, n: number) => (n === 0 ? null : sum / n);

export function signalPerformance(all: readonly TrackedSignal[], fromMs: number, toMs: number,
  by: PerformanceGroup): PerformanceRow[] {
  const sums = new Map<string, Sums>();
  for (const { signal, signalMs, outcome } of all) {
    if (signalMs < fromMs || signalMs >= toMs) continue;
    for (const group of groupsOf(signal, by)) {
      let s = sums.get(group);
      if (s === undefined) {
        s = { count: 0, evaluated: 0, t1Hits: 0, stopHits: 0, move: 0, favorable: 0, adverse: 0,
          r: 0 };
        sums.set(group, s);
      }
      s.count += 1;
      if (outcome === null) continue;
      s.evaluated += 1;
      if (outcome.first_level_hit === 't1') s.t1Hits += 1;
      if (outcome.first_level_hit === 'stop' || outcome.first_level_hit === 'both_same_bar') {
        s.stopHits += 1;
      }
      s.move += outcome.move_pct;
      s.favorable += outcome.max_favorable_pct;
      s.adverse += outcome.max_adverse_pct;
      s.r += resultR(signal, outcome);
    }
  }
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([group, s]) => ({
      group, count: s.count, evaluated: s.evaluated, t1Hits: s.t1Hits, stopHits: s.stopHits,
      hitRate: mean(s.t1Hits, s.evaluated), avgMovePct: mean(s.move, s.evaluated),
      avgMaxFavorablePct: mean(s.favorable, s.evaluated),
      avgMaxAdversePct: mean(s.adverse, s.evaluated), expectancyR: mean(s.r, s.evaluated),
    }));
}
