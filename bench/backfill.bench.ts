// Live backfill: the CPU cost of folding one pair's backfill into a pair engine (the plan of
// 1-minute candles for the newest 4 h and 5-minute ones before, against the former 5000 one-minute
// candles, and against as many trades as prints, same run); the request weight of one pair; and,
// on simulated time with the venue's weights and the service's other budget users, how long
// until every tracked pair is filled and how many are filled within the default wait.
import { printRows, quick, type ReportRow } from './harness.js';
import type { MarketEvent } from '../core/messages.js';
import { parseCandles, parseFundingHistory } from '../actors/feed/home/history-mappers.js';
import { venueLimits } from '../actors/feed/budget.js';
import { candlePlan, coarseIntervalMsDefault, fineSpanMsDefault, type BackfillerOptions }
  from '../actors/feed/home/backfill.js';
import { simulateBackfillBudget } from './lib/backfill-budget-sim.js';
import { createPairEngine } from '../actors/shard/pair-engine.js';
import { defaultConfig } from '../core/config.js';
import { candleAnswer, fundingAnswer, recordedTrades } from '../test/feed/venue-history.js';
import { readFileSync } from 'node:fs';
import { venueFixture } from '../test/helpers/fixtures.js';

const lookbackMs = 83 * 3_600_000;
/** The plan before this change: 1-minute candles all the way, funding for the whole lookback. */
const formerPlan: BackfillerOptions = { fineSpanMs: Infinity, fundingSpanMs: Infinity };
const intervalNames: Readonly<Record<number, string>> = { 60_000: '1m', 300_000: '5m' };

function backfillEvents(nowMs: number, plan: BackfillerOptions): MarketEvent[] {
  const frames = readFileSync(venueFixture('hl_ws_btc_raw_2025-01-26.txt'), 'utf8').split('\n')
    .filter((l) => l.length > 0).map((l) => l.slice(l.indexOf(' ') + 1));
  const trades = recordedTrades(frames);
  const fromMs = Math.floor((nowMs - lookbackMs) / coarseIntervalMsDefault) *
    coarseIntervalMsDefault;
  const fineSpanMs = plan.fineSpanMs ?? fineSpanMsDefault;
  const out: MarketEvent[] = [];
  for (const segment of candlePlan(fromMs, nowMs, fineSpanMs, coarseIntervalMsDefault)) {
    const candles = parseCandles(candleAnswer('BTC', segment.firstOpenMs, segment.lastOpenMs,
      nowMs, trades, 5, intervalNames[segment.intervalMs]), 'BTC', segment.intervalMs);
    if (typeof candles === 'string') throw new Error(candles);
    out.push(...candles);
  }
  const fundingFromMs = Math.max(fromMs, nowMs - (plan.fundingSpanMs ?? fineSpanMsDefault));
  const fundings = parseFundingHistory(fundingAnswer('BTC', fundingFromMs, nowMs, nowMs), 'BTC');
  if (typeof fundings === 'string') throw new Error(fundings);
  return [...out, ...fundings].sort((a, b) => a.tsMs - b.tsMs);
}

/** The same count of prints a candle becomes (4), as trades along the candles' closes. */
function tradeEvents(fill: readonly MarketEvent[]): MarketEvent[] {
  const out: MarketEvent[] = [];
  let id = 0;
  for (const e of fill) {
    if (e.type !== 'candle') continue;
    for (let k = 0; k < 4; k++) {
      out.push({ type: 'trade', symbol: 'BTC', tsMs: e.tsMs + k * 15_000, price: e.close,
        size: e.volume / 4, side: k % 2 === 0 ? 1 : -1, tradeId: String(id++), buyer: null,
        seller: null });
    }
  }
  return out;
}

/** Wall ms of folding `events` into a fresh engine. */
function foldOnceMs(events: readonly MarketEvent[]): number {
  const engine = createPairEngine('BTC', { cadenceMs: 1_000 });
  engine.onEvent({ type: 'ctx', symbol: 'BTC', tsMs: events[0].tsMs, markPx: 100_000,
    prevDayPx: 100_000, dayNtlVlm: 7_200 * 100_000, openInterest: 1, fundingRate: 0,
    oraclePx: null, midPx: null });
  const start = process.hrtime.bigint();
  for (const e of events) engine.onEvent(e);
  engine.publish(Date.now());
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Median wall ms per event set, the sets folded in turn (one engine per run; a warm-up). */
function foldMs(sets: readonly (readonly MarketEvent[])[], runs: number): number[] {
  const samples = sets.map(() => [] as number[]);
  for (let i = 0; i <= runs; i++) {
    sets.forEach((events, k) => {
      const ms = foldOnceMs(events);
      if (i > 0) samples[k].push(ms);
    });
  }
  return samples.map((s) => s.sort((a, b) => a - b)[Math.floor(s.length / 2)]);
}

/** 100 pairs on two shards, the default wait, four builder dexes (the recorded perpDexs). */
async function budgetRun(plan: BackfillerOptions) {
  const result = await simulateBackfillBudget({ pairs: 100, shards: 2, lookbackMs,
    waitMs: defaultConfig.backfillWaitS * 1_000, plan, builderDexes: 4 });
  return { allMs: Math.max(...result.filledAtMs), weight: result.backfillWeight / 100,
    inWait: result.filledAtMs.filter((t) => t <= defaultConfig.backfillWaitS * 1_000).length };
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const nowMs = Math.floor(Date.now() / 60_000) * 60_000;
  const fill = backfillEvents(nowMs, {});
  const former = backfillEvents(nowMs, formerPlan);
  const trades = tradeEvents(former);
  const runs = opts.quick ? 5 : 11;
  const [fillMs, formerMs, tradesMs] = foldMs([fill, former, trades], runs);
  const count = (events: MarketEvent[], type: string) =>
    events.filter((e) => e.type === type).length;
  const now = await budgetRun({});
  const before = await budgetRun(formerPlan);
  // What asking no fundingHistory would give (the ctx sets the funding rate within a second).
  const noFunding = await budgetRun({ fundingSpanMs: 0 });
  const perMinute = venueLimits.restWeightPerMinute;
  const waitS = defaultConfig.backfillWaitS;
  const row = (figure: string, value: number, unit: string, baseline: number): ReportRow =>
    ({ bench: 'backfill', figure, value, unit, baseline, ratio: value / baseline, target: '-',
      pass: null });
  return [
    row(`fold one pair's 83 h backfill (${count(fill, 'candle')} candles: 1m for 4 h, 5m ` +
      `before; ${count(fill, 'funding')} fundings) into the pair engine (baseline: the former ` +
      `${count(former, 'candle')} 1m candles)`, fillMs, 'ms', formerMs),
    row(`fold the former ${count(former, 'candle')} 1m candles and ` +
      `${count(former, 'funding')} fundings (baseline: as many trades as prints)`, formerMs, 'ms',
    tradesMs),
    row('request weight of one pair\'s 83 h backfill, paid (baseline: the former plan)',
      now.weight, 'weight', before.weight),
    row(`time until every one of 100 tracked pairs is filled (venue weights ${perMinute}/min, ` +
      'with the universe and wallet polls; simulated clock; baseline: the former plan, which ' +
      'left late pairs unfilled)', now.allMs / 1_000, 's', before.allMs / 1_000),
    row(`pairs filled within the default ${waitS} s wait (baseline: the former plan)`,
      now.inWait, 'pairs', before.inWait),
    row('the same time without fundingHistory requests (not done: the issue asks for them; ' +
      'baseline: with them)', noFunding.allMs / 1_000, 's', now.allMs / 1_000),
  ];
}

if (process.argv[1]?.endsWith('backfill.bench.ts')) printRows(await run({ quick }));
