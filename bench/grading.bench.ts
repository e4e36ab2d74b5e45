// Evidence grading bench: the main thread's cost of grading one signal and of recording one
// outcome in a book of half a year of outcomes, against the trade path (pair onTrade, all trade
// kernels) measured in the same run. Grading runs once per signal and recording once per
// outcome, never per trade, and on the main thread rather than a shard's. The ratio rows spread
// that cost over a pair's trades: at the default warm-up's signal rate over a quiet pair's trades
// (1 a second), and at the bound of one signal per closed bar of every timeframe (17 an hour)
// over BTC's (20 a second).
import { measure, printRows, quick as quickFlag, type ReportRow } from './harness.js';
import * as pair from '../kernels/index.js';
import { tradeTape } from './lib/trade-tape.js';
import { EvidenceGrader, type GradedRecord } from '../actors/signals/evidence-grader.js';
import {
  LOGIC_NAMES, SIGNAL_REGIMES, type EntrySignal, type SignalLogics, type SignalOutcome,
} from '../actors/signals/types.js';
import type { Timeframe } from '../core/messages.js';

const DAY_MS = 86_400_000;
const START_MS = Date.UTC(2026, 0, 1);
/** Signals an hour per pair at most: one per closed 5m, 15m and 1h bar. */
const SIGNALS_PER_HOUR_MAX = 12 + 4 + 1;
/** The default warm-up's rate: about 4,000 signals over 168 h and 100 tracked pairs. */
const SIGNALS_PER_HOUR_SEEN = 0.24;
const TRADES_PER_HOUR_QUIET = 3_600;
const TRADES_PER_HOUR_BTC = 72_000;
const TIMEFRAMES: readonly Timeframe[] = ['5m', '15m', '1h'];

function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

function randomSignal(r: () => number, openMs: number, id: number): EntrySignal {
  // A handful of logic sets, as the detector makes (one to three logics mostly).
  const bits = 1 + Math.floor(r() * r() * 24);
  const logics = Object.fromEntries(LOGIC_NAMES.map((name, i) => [name, (bits & (1 << i)) !== 0]));
  return {
    signal_id: `P${id % 50}-5m-${openMs}-long`, symbol: `P${id % 50}`,
    timeframe: TIMEFRAMES[Math.floor(r() * 3)], side: r() < 0.5 ? 'long' : 'short',
    grade: 'C', score: Math.round((r() - 0.5) * 100), bar_time: new Date(openMs).toISOString(),
    regime: SIGNAL_REGIMES[Math.floor(r() * SIGNAL_REGIMES.length)], confirmed: true,
    flow_source: 'bar_delta', logics: logics as unknown as SignalLogics,
    plan: { entry: 100, stop: 98, t1: 103, t2: 106, r_t1: 1.5, r_t2: 3 }, price_at_signal: 100,
  };
}

function outcomeOf(signal: EntrySignal, r: () => number): SignalOutcome {
  const evaluatedMs = Date.parse(signal.bar_time) + 4 * 3_600_000;
  const roll = r();
  return {
    entry_event_id: '', signal_id: signal.signal_id, symbol: signal.symbol,
    timeframe: signal.timeframe, side: signal.side, grade: signal.grade, horizon: '4h',
    signaled_at: signal.bar_time, evaluated_at: new Date(evaluatedMs).toISOString(),
    price_at_signal: 100, price_after: 99 + r() * 2, move_pct: 0, max_favorable_pct: 0,
    max_adverse_pct: 0, first_level_hit: roll < 0.3 ? 'stop' : roll < 0.5 ? 't1' : 'none',
    t2_hit: false, complete: true, t2_touched_any: false, bars: 48,
  };
}

/** `days` of outcomes, `perDay` a day, as the store holds them. */
function storedRecords(days: number, perDay: number): GradedRecord[] {
  const r = seeded(7);
  const out: GradedRecord[] = [];
  for (let i = 0; i < days * perDay; i++) {
    const signal = randomSignal(r, START_MS + Math.floor(i * DAY_MS / perDay / 300_000) * 300_000,
      i);
    out.push({ signal, outcomeDone: true,
      result: outcomeOf(signal, r) as unknown as Record<string, unknown> });
  }
  return out;
}

/** ns per trade of pair onTrade over a seeded tape made beforehand (laps follow in time). */
function tradePathNs(trades: number, runs: number): number {
  const { price, size, side, gapMs } = tradeTape(trades, seeded(42));
  const state = pair.createPairAnalytics({ vpinBucketVolume: 50 });
  let t = 1_700_000_000_000;
  return measure('trade path', trades, (ops) => {
    for (let i = 0; i < ops; i++) {
      t += gapMs[i % trades];
      pair.onTrade(state, t, price[i % trades], size[i % trades], side[i % trades]);
    }
  }, runs).nsPerOp;
}

const row = (figure: string, value: number, unit: string, baseline: number | null,
  target: string, pass: boolean | null): ReportRow => ({
  bench: 'grading', figure, value, unit, baseline,
  ratio: baseline === null ? null : value / baseline, target, pass,
});

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const days = opts.quick ? 30 : 180;
  const perDay = 600;
  const runs = opts.quick ? 3 : 5;
  const records = storedRecords(days, perDay);
  const grader = new EvidenceGrader();
  const rebuildStartNs = process.hrtime.bigint();
  grader.rebuild(records);
  const rebuildMs = Number(process.hrtime.bigint() - rebuildStartNs) / 1e6;
  const r = seeded(99);
  const endMs = START_MS + days * DAY_MS;
  const fresh = Array.from({ length: 8_192 }, (_, i) => randomSignal(r, endMs + i * 300_000, i));
  let sink = 0;
  const gradeNs = measure('grade', fresh.length * 8, (ops) => {
    for (let i = 0; i < ops; i++) sink += grader.grade(fresh[i % fresh.length]).grade.length;
  }, runs).nsPerOp;
  const outcomes = fresh.map((signal) => outcomeOf(signal, r));
  let next = 0;
  // Outcomes arrive in evaluation order: each lap records the next ones, later in time.
  const recordNs = measure('record', 1_024, (ops) => {
    for (let i = 0; i < ops; i++) {
      const k = next++ % outcomes.length;
      grader.record(fresh[k], outcomes[k]);
    }
  }, runs).nsPerOp;
  const tradeNs = tradePathNs(opts.quick ? 1 << 17 : 1 << 19, runs);
  const seenNs = (gradeNs + recordNs) * SIGNALS_PER_HOUR_SEEN / TRADES_PER_HOUR_QUIET;
  const boundNs = (gradeNs + recordNs) * SIGNALS_PER_HOUR_MAX / TRADES_PER_HOUR_BTC;
  if (sink < 0) throw new Error('unreachable');
  return [
    row(`rebuild at start from ${records.length} stored outcomes`, rebuildMs, 'ms', null, '-',
      null),
    row('grade one signal (main thread, once per signal)', gradeNs, 'ns', tradeNs,
      '- (baseline: one trade on the trade path)', null),
    row('record one outcome (main thread, once per outcome)', recordNs, 'ns', tradeNs,
      '- (baseline: one trade on the trade path)', null),
    { bench: 'grading', figure: 'grading and recording per trade (0.24 signals an hour, as ' +
      'the default warm-up; 1 trade a second)', value: seenNs, unit: 'ns/trade',
    baseline: tradeNs, ratio: 1 + seenNs / tradeNs, target: '< 1.02x (baseline: the trade path)',
    pass: 1 + seenNs / tradeNs < 1.02 },
    { bench: 'grading', figure: 'the same at the bound (17 signals an hour; 20 trades a second)',
      value: boundNs, unit: 'ns/trade', baseline: tradeNs, ratio: 1 + boundNs / tradeNs,
      target: '< 1.02x (baseline: the trade path)', pass: 1 + boundNs / tradeNs < 1.02 },
  ];
}

const isEntry = process.argv[1] !== undefined && /grading\.bench\.ts$/.test(process.argv[1]);
if (isEntry) printRows(await run({ quick: quickFlag }));
