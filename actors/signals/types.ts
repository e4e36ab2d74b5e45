// The data of the entry_signal.created and signal.outcome events (docs/webhooks.md), snake_case
// as on the wire, plus the enumerations the OpenAPI document lists for them.
import type { Grade, Timeframe } from '../../core/messages.js';

export const SIDES = ['long', 'short'] as const;
export type Side = (typeof SIDES)[number];

/** regime of a signal: the regime kernel's label, or 'unknown' when it had no input yet. */
export const SIGNAL_REGIMES = ['trending', 'ranging', 'volatile', 'squeeze', 'unknown'] as const;
export type SignalRegime = (typeof SIGNAL_REGIMES)[number];

/**
 * The strongest order-flow evidence behind a signal, checked in this order: a matching
 * absorption event, a CVD divergence, the signal bar's own delta agreeing with the side,
 * else none (a price-only signal).
 */
export const FLOW_SOURCES = ['absorption', 'cvd_divergence', 'bar_delta', 'none'] as const;
export type FlowSource = (typeof FLOW_SOURCES)[number];

export const LOGIC_NAMES = [
  'liquidity_grab', 'flow_rejection', 'absorption', 'cvd_divergence', 'structure_shift',
  'level_confluence',
] as const;
export type LogicName = (typeof LOGIC_NAMES)[number];
export type SignalLogics = { readonly [name in LogicName]: boolean };

/** Trade plan: long has stop < entry < t1 <= t2, short stop > entry > t1 >= t2. */
export interface SignalPlan {
  readonly entry: number;
  readonly stop: number;
  readonly t1: number;
  readonly t2: number;
  /** Reward of t1 in units of risk |entry - stop|, two decimals. */
  readonly r_t1: number;
  readonly r_t2: number;
}

/** entry_signal.created data minus chart_url (the runtime adds it from config.chartBaseUrl). */
export interface EntrySignal {
  /** `<symbol>-<timeframe>-<bar open, epoch ms>-<side>`. */
  readonly signal_id: string;
  readonly symbol: string;
  readonly timeframe: Timeframe;
  readonly side: Side;
  readonly grade: Grade;
  /** The pair's composite score (-100..100) when the bar closed; 0 when it had none yet. */
  readonly score: number;
  /** Open time of the signal bar, ISO 8601 UTC. The signal itself is known at its close. */
  readonly bar_time: string;
  readonly regime: SignalRegime;
  readonly confirmed: boolean;
  readonly flow_source: FlowSource;
  readonly logics: SignalLogics;
  readonly plan: SignalPlan;
  readonly price_at_signal: number;
  /** Builder markets outside their session only; crypto signals never carry these two. */
  readonly session?: 'closed';
  readonly grade_before_session?: Grade;
  /**
   * Set on the main thread before the signal is stored (evidence-grader.ts): the rule grade
   * (before any session lowering), whether `grade` comes from the rules or from the setup's
   * evidence, and that evidence. The detector's signal has none of them.
   */
  readonly grade_rules?: Grade;
  readonly grade_basis?: GradeBasis;
  readonly grade_evidence?: {
    readonly n: number;
    readonly expectancy_r: number | null;
    readonly lower_r: number | null;
  };
}

export const GRADE_BASES = ['rules', 'evidence'] as const;
export type GradeBasis = (typeof GRADE_BASES)[number];

export const FIRST_LEVEL_HITS = ['stop', 't1', 'none', 'both_same_bar'] as const;
export type FirstLevelHit = (typeof FIRST_LEVEL_HITS)[number];

/** signal.outcome data plus `complete` and `t2_touched_any` (docs/signals.md, "2. Outcomes"). */
export interface SignalOutcome {
  /** The entry_signal.created event's id; null when no event was sent (the track record only). */
  readonly entry_event_id: string | null;
  readonly signal_id: string;
  readonly symbol: string;
  readonly timeframe: Timeframe;
  readonly side: Side;
  readonly grade: Grade;
  readonly horizon: '4h';
  readonly signaled_at: string;
  readonly evaluated_at: string;
  readonly price_at_signal: number;
  readonly price_after: number;
  readonly move_pct: number;
  readonly max_favorable_pct: number;
  readonly max_adverse_pct: number;
  readonly first_level_hit: FirstLevelHit;
  readonly t2_hit: boolean;
  /** false when fewer than the 48 window bars were stored. */
  readonly complete: boolean;
  readonly t2_touched_any: boolean;
  /** Window bars the figures were computed from (48 when complete). */
  readonly bars: number;
  /**
   * The price the first barrier books: the stop (also for both_same_bar) or t1, or the bar's
   * open when that bar opened past it; price_after when neither was touched. Absent from
   * outcomes stored before it existed (then the barrier's own price counts).
   */
  readonly exit_price?: number;
}

export const TIMEFRAME_MS: { readonly [tf in Timeframe]: number } = Object.freeze({
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
});

/** Market time at which a signal is known: the close of its bar. */
export function signalTimeMs(signal: Pick<EntrySignal, 'bar_time' | 'timeframe'>): number {
  return Date.parse(signal.bar_time) + TIMEFRAME_MS[signal.timeframe];
}
