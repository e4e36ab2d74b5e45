// The live backfill of every tracked pair under the venue's request budget, on simulated time:
// the real BackfillRounds, backfiller, info client and shared budget, a venue answering at once
// with answers of the real lengths (weights depend only on them), and the service's other
// budget users (universe polls, wallet states) at their real cadences. Gives when each pair
// was filled, in budget time, in milliseconds of wall time.
import { silentLogger } from '../../core/logger.js';
import { createSharedBudget } from '../../actors/feed/budget.js';
import { createBackfiller, type BackfillerOptions } from '../../actors/feed/home/backfill.js';
import { BackfillRounds } from '../../actors/feed/home/backfill-rounds.js';
import { createInfoClient, type InfoClient } from '../../actors/feed/home/info-client.js';
import { candleIntervals, fundingAnswer } from '../../test/feed/venue-history.js';
import { SimulatedTime } from '../../test/helpers/simulated-time.js';

export interface BudgetSimOptions {
  readonly pairs: number;
  readonly shards: number;
  readonly lookbackMs: number;
  readonly waitMs: number;
  readonly plan: BackfillerOptions;
  /** Builder dexes the universe polls every 30 s (the recorded perpDexs lists 4). */
  readonly builderDexes: number;
}

export interface BudgetSimResult {
  /** Budget time from the start until each pair was filled, in fill order. */
  readonly filledAtMs: readonly number[];
  /** Weight the backfill paid in all (the other users' weight excluded). */
  readonly backfillWeight: number;
}

const candlesKept = 5_000;

/** A candleSnapshot answer of the venue's length for the request (flat prices). */
function candles(req: { coin: string; interval: string; startTime: number; endTime: number },
  nowMs: number): unknown[] {
  const lengthMs = candleIntervals[req.interval];
  const current = Math.floor(nowMs / lengthMs) * lengthMs;
  const from = Math.max(current - (candlesKept - 1) * lengthMs,
    Math.ceil(req.startTime / lengthMs) * lengthMs);
  const out: unknown[] = [];
  for (let t = from; t <= Math.min(current, req.endTime) && out.length < candlesKept;
    t += lengthMs) {
    out.push({ t, T: t + lengthMs - 1, s: req.coin, i: req.interval, o: '100', c: '100.5',
      h: '101', l: '99', v: '12.5', n: 40 });
  }
  return out;
}

/** The service's other budget users: the universe every 5 s (builders and funding every 30 s). */
function pollOthers(time: SimulatedTime, info: InfoClient, builderDexes: number): () => void {
  let stopped = false;
  let round = 0;
  const universe = async () => {
    if (stopped) return;
    if (round++ % 6 === 0) {
      await info.post({ type: 'perpDexs' });
      for (let i = 0; i < builderDexes; i++) await info.post({ type: 'metaAndAssetCtxs' });
    }
    await info.post({ type: 'metaAndAssetCtxs' });
    if ((round - 1) % 6 === 0) await info.post({ type: 'predictedFundings' });
    time.setTimeout(() => void universe(), 5_000);
  };
  // Wallet states: at most 10 clearinghouseState (weight 2) every 10 s.
  const wallets = async () => {
    if (stopped) return;
    for (let i = 0; i < 10; i++) await info.post({ type: 'clearinghouseState' });
    time.setTimeout(() => void wallets(), 10_000);
  };
  void universe();
  void wallets();
  return () => { stopped = true; };
}

export async function simulateBackfillBudget(o: BudgetSimOptions): Promise<BudgetSimResult> {
  const startMs = Math.floor(Date.UTC(2026, 10, 20) / 60_000) * 60_000;
  const time = new SimulatedTime(startMs);
  const budget = createSharedBudget(time);
  let requests = 0;
  let backfillWeight = 0;
  const venue: typeof fetch = async (_url, init) => {
    requests++;
    const body = JSON.parse(String(init?.body)) as { type: string; coin: string;
      startTime: number; endTime: number; req: Parameters<typeof candles>[0] };
    let answer: unknown = [];
    if (body.type === 'candleSnapshot') answer = candles(body.req, time.nowMs());
    if (body.type === 'fundingHistory') {
      answer = fundingAnswer(body.coin, body.startTime, body.endTime, time.nowMs());
    }
    return new Response(JSON.stringify(answer));
  };
  const info = createInfoClient({ url: 'http://venue.invalid/info', budget, clock: time,
    timers: time, fetch: venue });
  const paying = { ...budget, take: (bucket: 'rest' | 'ws', cost: number) => {
    const waitMs = budget.take(bucket, cost);
    if (waitMs === 0) backfillWeight += cost;
    return waitMs;
  } };
  const backfillInfo = createInfoClient({ url: 'http://venue.invalid/info', budget: paying,
    clock: time, timers: time, fetch: venue });
  // The service waits for its first universe before the shards get their pairs.
  const stopOthers = pollOthers(time, info, o.builderDexes);
  const filledAtMs: number[] = [];
  const symbols = Array.from({ length: o.pairs }, (_, i) => `P${i}`);
  const fromMs = Math.floor((startMs - o.lookbackMs) / 300_000) * 300_000;
  for (let shard = 0; shard < o.shards; shard++) {
    const rounds = new BackfillRounds({
      backfiller: createBackfiller(backfillInfo, o.plan), logger: silentLogger,
      waitMs: o.waitMs, holdMs: 6 * 3_600_000, timers: time, deliver: () => {},
      backlog: () => 0,
      onReport: (r) => { if (r.state === 'filled') filledAtMs.push(time.nowMs() - startMs); },
    });
    rounds.start(symbols.filter((_, i) => i % o.shards === shard), () => fromMs, startMs);
  }
  // Simulated time moves only when every request has been answered and nothing changed for a
  // few turns: the workers are then all waiting for budget.
  let quietTurns = 0;
  let seen = -1;
  while (filledAtMs.length < o.pairs) {
    await new Promise((resolve) => setImmediate(resolve));
    quietTurns = requests === seen ? quietTurns + 1 : 0;
    seen = requests;
    if (quietTurns >= 3 && !time.advance()) break;
  }
  stopOthers();
  return { filledAtMs, backfillWeight };
}
