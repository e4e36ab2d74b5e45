// Entry-signal detection on closed 5m, 15m and 1h bars: plain synchronous code with no I/O,
// run by the pair actor on each closed bar. State per timeframe is allocated once.
import type { Bar, Grade, Timeframe } from '../../core/messages.js';
import { resolveDetectorOptions, type DetectorOptions } from './detector-options.js';
import { gradeFromLogics, lowerGrade } from './grade.js';
import {
  absorptionLogic, applyStructure, cvdDivergence, flowRejection, levelConfluence,
  liquidityGrab, structureShift,
} from './logics.js';
import { buildPlan } from './plan.js';
import {
  createTimeframeState, pushBar, resetTimeframeState, rollDay, type TimeframeState,
} from './timeframe-state.js';
import {
  SIGNAL_REGIMES, TIMEFRAME_MS, type EntrySignal, type FlowSource, type SignalLogics,
  type SignalRegime,
} from './types.js';

export interface SignalContext {
  /** The regime kernel's label for the pair, or null before it has one. */
  readonly regime: string | null;
  /** The pair's composite score (-100..100), or null before it has one. */
  readonly score: number | null;
  /** The pair's latest absorption event, or null. */
  readonly absorption: { kind: 'buy_absorbed' | 'sell_absorbed'; tsMs: number } | null;
  /** Whether the market's session is open at the bar; null for crypto (no session). */
  readonly sessionOpen: boolean | null;
}

export interface SignalDetector {
  readonly symbol: string;
  readonly options: DetectorOptions;
  readonly states: { readonly [tf in Timeframe]: TimeframeState };
  /** Bars ignored because they were not newer than the last one of their timeframe. */
  staleBars: number;
}

export function createSignalDetector(symbol: string, options?: Partial<DetectorOptions>):
  SignalDetector {
  if (typeof symbol !== 'string' || symbol.length === 0) {
    throw new TypeError(`symbol must be a non-empty string (was ${JSON.stringify(symbol)})`);
  }
  const resolved = resolveDetectorOptions(options);
  return {
    symbol,
    options: resolved,
    states: {
      '5m': createTimeframeState(resolved),
      '15m': createTimeframeState(resolved),
      '1h': createTimeframeState(resolved),
    },
    staleBars: 0,
  };
}

/** After a feed gap: nothing is computed across it. */
export function resetSignalDetector(detector: SignalDetector): void {
  for (const state of Object.values(detector.states)) resetTimeframeState(state);
}

function assertBar(detector: SignalDetector, bar: Bar): void {
  if (bar.symbol !== detector.symbol) {
    throw new Error(`bar of ${bar.symbol} sent to the detector of ${detector.symbol}`);
  }
  if (!(bar.timeframe in TIMEFRAME_MS)) throw new Error(`bar timeframe ${bar.timeframe}`);
  const prices = bar.low > 0 && bar.high >= bar.low && bar.open >= bar.low &&
    bar.open <= bar.high && bar.close >= bar.low && bar.close <= bar.high;
  const flows = bar.buyNotional >= 0 && bar.sellNotional >= 0 && bar.volume >= 0 &&
    Number.isFinite(bar.buyNotional + bar.sellNotional + bar.volume + bar.high);
  if (!prices || !flows || !Number.isFinite(bar.openMs)) {
    throw new Error(`corrupt bar ${bar.symbol} ${bar.timeframe} ${bar.openMs}`);
  }
}

/** Folds one closed bar in and returns the entry signal it makes, if any. */
export function onClosedBar(detector: SignalDetector, bar: Bar, context: SignalContext):
  EntrySignal | null {
  assertBar(detector, bar);
  if (context.score !== null && !Number.isFinite(context.score)) {
    throw new Error(`score of ${bar.symbol} is not finite (was ${context.score})`);
  }
  const state = detector.states[bar.timeframe];
  if (bar.openMs <= state.lastOpenMs) {
    detector.staleBars += 1;
    return null;
  }
  rollDay(state, bar.openMs);
  const signal = detect(detector, state, bar, context);
  applyStructure(state, bar);
  pushBar(state, bar, detector.options);
  return signal;
}

/**
 * One side's six logics as bits, in SignalLogics' key order (bit 5: level confluence): two
 * objects a closed bar made for every timeframe, of which a signal keeps at most one.
 */
function logicBits(state: TimeframeState, bar: Bar, sign: number, context: SignalContext,
  options: DetectorOptions): number {
  return (liquidityGrab(state, bar, sign) ? 1 : 0) |
    (flowRejection(state, bar, sign, options) ? 2 : 0) |
    (absorptionLogic(bar, context.absorption, sign, TIMEFRAME_MS[bar.timeframe], options)
      ? 4 : 0) |
    (cvdDivergence(state, bar, sign, options) ? 8 : 0) |
    (structureShift(state, bar, sign) ? 16 : 0) |
    (levelConfluence(state, bar, sign, options) ? 32 : 0);
}

function logicsOf(bits: number): SignalLogics {
  return {
    liquidity_grab: (bits & 1) !== 0,
    flow_rejection: (bits & 2) !== 0,
    absorption: (bits & 4) !== 0,
    cvd_divergence: (bits & 8) !== 0,
    structure_shift: (bits & 16) !== 0,
    level_confluence: (bits & 32) !== 0,
  };
}

/** Trigger logics set (level confluence alone is context, not a setup). */
function triggersOf(bits: number): number {
  return (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1) + ((bits >> 3) & 1) +
    ((bits >> 4) & 1);
}

function detect(detector: SignalDetector, state: TimeframeState, bar: Bar,
  context: SignalContext): EntrySignal | null {
  const options = detector.options;
  const long = logicBits(state, bar, 1, context, options);
  const short = logicBits(state, bar, -1, context, options);
  const longTriggers = triggersOf(long);
  const shortTriggers = triggersOf(short);
  // A side needs a trigger logic; when both sides have one, the side with more agreeing
  // logics wins and a tie makes no signal.
  if (longTriggers === 0 && shortTriggers === 0) return null;
  const longAll = longTriggers + (long >> 5);
  const shortAll = shortTriggers + (short >> 5);
  let sign: number;
  if (longTriggers > 0 && shortTriggers > 0) {
    if (longAll === shortAll) return null;
    sign = longAll > shortAll ? 1 : -1;
  } else sign = longTriggers > 0 ? 1 : -1;
  const plan = buildPlan(state, bar, sign, options);
  if (plan === null) return null;
  const logics = logicsOf(sign > 0 ? long : short);
  const grade = gradeFromLogics(sign > 0 ? longAll : shortAll,
    context.score === null ? null : sign * context.score, options.scoreBoostMin);
  return makeSignal(detector.symbol, bar, sign, logics, grade, plan, context);
}

function makeSignal(symbol: string, bar: Bar, sign: number, logics: SignalLogics,
  grade: Grade, plan: EntrySignal['plan'], context: SignalContext): EntrySignal {
  const delta = bar.buyNotional - bar.sellNotional;
  const deltaAgrees = sign * delta > 0;
  const mid = (bar.high + bar.low) / 2;
  const flowSource: FlowSource = logics.absorption ? 'absorption'
    : logics.cvd_divergence ? 'cvd_divergence' : deltaAgrees ? 'bar_delta' : 'none';
  const side = sign > 0 ? 'long' : 'short';
  const base = {
    signal_id: `${symbol}-${bar.timeframe}-${bar.openMs}-${side}`,
    symbol,
    timeframe: bar.timeframe,
    side,
    grade,
    score: context.score ?? 0,
    bar_time: new Date(bar.openMs).toISOString(),
    regime: regimeOf(context.regime),
    confirmed: deltaAgrees && sign * (bar.close - mid) >= 0,
    flow_source: flowSource,
    logics,
    plan,
    price_at_signal: bar.close,
  } as const;
  if (context.sessionOpen !== false) return base;
  const lowered: Grade = lowerGrade(grade);
  return { ...base, grade: lowered, session: 'closed', grade_before_session: grade };
}

function regimeOf(regime: string | null): SignalRegime {
  return regime !== null && (SIGNAL_REGIMES as readonly string[]).includes(regime)
    ? (regime as SignalRegime) : 'unknown';
}
