// Live backfill: the CPU cost of folding one pair's full backfill (5000 one-minute candles and
// 83 hourly funding settlements, the venue's most) into a pair engine, against folding the same
// number of prints as trades in the same run; and what the venue's request budget allows: weight
// per pair and pairs filled within the default bounded wait (arithmetic on the published weights).
import { printRows, quick, type ReportRow } from './harness.js';
import type { MarketEvent } from '../core/messages.js';
import { parseCandles, parseFundingHistory } from '../actors/feed/home/history-mappers.js';
import { itemsWeight, requestWeight } from '../actors/feed/home/info-client.js';
import { venueLimits } from '../actors/feed/budget.js';
import { createPairEngine } from '../actors/shard/pair-engine.js';
import { defaultConfig } from '../actors/config.js';
import { candleAnswer, fundingAnswer, recordedTrades } from '../test/feed/venue-history.js';
import { readFileSync } from 'node:fs';
import { venueFixture } from '../test/helpers/fixtures.js';

const candlesMax = 5_000;

function backfillEvents(nowMs: number): MarketEvent[] {
  const frames = readFileSync(venueFixture('hl_ws_btc_raw_2025-01-26.txt'), 'utf8').split('\n')
    .filter((l) => l.length > 0).map((l) => l.slice(l.indexOf(' ') + 1));
  const trades = recordedTrades(frames);
  const fromMs = nowMs - candlesMax * 60_000;
  const candles = parseCandles(candleAnswer('BTC', fromMs, nowMs - 60_000, nowMs, trades, 5),
    'BTC', 60_000);
  const fundings = parseFundingHistory(fundingAnswer('BTC', fromMs, nowMs, nowMs), 'BTC');
  if (typeof candles === 'string' || typeof fundings === 'string') throw new Error('bad answer');
  return [...candles, ...fundings].sort((a, b) => a.tsMs - b.tsMs);
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

/** Median wall ms of folding `events` into a fresh engine (one engine per run). */
function foldMs(events: readonly MarketEvent[], runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const engine = createPairEngine('BTC', { cadenceMs: 1_000 });
    engine.onEvent({ type: 'ctx', symbol: 'BTC', tsMs: events[0].tsMs, markPx: 100_000,
      prevDayPx: 100_000, dayNtlVlm: 7_200 * 100_000, openInterest: 1, fundingRate: 0,
      oraclePx: null, midPx: null });
    const start = process.hrtime.bigint();
    for (const e of events) engine.onEvent(e);
    engine.publish(Date.now());
    if (i > 0) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const fill = backfillEvents(Math.floor(Date.now() / 60_000) * 60_000);
  const trades = tradeEvents(fill);
  const runs = opts.quick ? 3 : 9;
  const fillMs = foldMs(fill, runs);
  const tradesMs = foldMs(trades, runs);
  const candles = fill.filter((e) => e.type === 'candle').length;
  const fundings = fill.length - candles;
  const weight = requestWeight('candleSnapshot') + requestWeight('fundingHistory') +
    itemsWeight('candleSnapshot', candles) + itemsWeight('fundingHistory', fundings);
  const perMinute = venueLimits.restWeightPerMinute;
  const waitS = defaultConfig.backfillWaitS;
  const pairsInWait = Math.floor((perMinute + (perMinute / 60) * waitS) / weight);
  return [
    { bench: 'backfill', figure: `fold one pair's backfill (${candles} 1m candles, ${fundings} ` +
      'fundings) into the pair engine (baseline: as many trades as prints)', value: fillMs,
    unit: 'ms', baseline: tradesMs, ratio: fillMs / tradesMs, target: '-', pass: null },
    { bench: 'backfill', figure: 'request weight of one full pair backfill (venue table)',
      value: weight, unit: 'weight', baseline: perMinute, ratio: weight / perMinute,
      target: '-', pass: null },
    { bench: 'backfill', figure: `pairs the budget fills within the default ${waitS} s wait ` +
      '(baseline: 100 tracked)', value: pairsInWait, unit: 'pairs', baseline: 100,
    ratio: pairsInWait / 100, target: '-', pass: null },
  ];
}

if (process.argv[1]?.endsWith('backfill.bench.ts')) printRows(await run({ quick }));
