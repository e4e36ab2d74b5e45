// The real service on the live feed against the fake venue (recorded frames, history answers
// derived from the recordings): /readyz waits a bounded time for the backfill, then answers 200
// with a `backfill` check and a detail naming the pairs it could not fill and why; a pair that
// was filled says `basis: candles` or `mixed`, and its metrics are numbers; a pair late at the
// wait is filled afterwards, as the request budget allows. A filled pair's backfilled minutes
// are history points.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { startService, type Service } from '../../bin/service.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { binPath } from '../helpers/service-process.js';
import { startFakeVenue, type FakeVenue } from '../feed/fake-venue.js';

const live = suite('backfill readiness');
let service: Service | undefined;
let venue: FakeVenue | undefined;
let dataDir: string;
let key = '';

live.before(async () => {
  dataDir = join(await tempDir(), 'data');
  mkdirSync(dataDir);
  const made = spawnSync(process.execPath,
    [binPath, 'keys', 'create', '--plan', 'Whale', '--json', '--data-dir', dataDir],
    { encoding: 'utf8' });
  assert.is(made.status, 0, made.stderr);
  key = JSON.parse(made.stdout).key as string;
});

live.after(async () => {
  await service?.stop();
  await venue?.close();
});

interface Readyz {
  ready: boolean; checks: Record<string, boolean>; detail?: Record<string, string>;
}

live('ready after a bounded wait, naming what backfill could not fill', async () => {
  venue = await startFakeVenue({ frameIntervalMs: 20, shiftToNow: true });
  // The busiest pairs are asked first (by their context in the universe's answer): ETH's and
  // SOL's history answers fail. The budget (1200 weight a minute) cannot fill 100 pairs in 4 s.
  const failing = ['ETH', 'SOL'];
  venue.setHistoryMode({ fail: 'status', coins: failing });
  const config = resolveConfig({
    port: 0, dataDir, shards: 1, logLevel: 'silent', limitsEnabled: false, feed: 'live',
    homeWsUrl: venue.wsUrl, homeInfoUrl: venue.infoUrl, backfillHours: 30, backfillWaitS: 4,
    // One retry, soon: the failing pairs give up well within the wait.
    backfillRetryS: [0.2],
  });
  service = await startService(config, { logger: silentLogger });
  const seen: Readyz[] = [];
  const body = await eventually(async () => {
    const response = await fetch(`${service!.baseUrl}/readyz`);
    const answer = await response.json() as Readyz;
    seen.push(answer);
    return response.status === 200 ? answer : null;
  }, { timeoutMs: 40_000, intervalMs: 50, message: '/readyz 200' });
  assert.is(body.checks.backfill, true);
  // While it waited, the check said so.
  assert.ok(seen.some((a) =>
    a.checks.backfill === false && a.detail?.backfill.includes('filling')));
  const detail = body.detail?.backfill ?? '';
  const filled = /^(\d+) of 100 pairs filled from candles/.exec(detail);
  assert.ok(filled, detail);
  // Every group of pairs not filled, by its reason: the failing pairs (given up after their
  // retry, or still to be asked again), and the late ones past the wait.
  const groups = [...detail.matchAll(/not filled: ([^(;]*) \(([^;]*)\)/g)]
    .map((m) => ({ pairs: m[1].split(', '), reason: m[2] }));
  const pairsWhere = (reason: string) =>
    groups.filter((g) => g.reason.startsWith(reason)).flatMap((g) => g.pairs);
  const failedPairs = pairsWhere('candleSnapshot: status 503');
  assert.ok(failedPairs.length > 0 && failedPairs.every((s) => failing.includes(s)), detail);
  assert.ok(groups.some((g) => g.reason.includes('(asked 2 times)')), detail);
  const latePairs = pairsWhere('not filled within 4000 ms');
  assert.ok(latePairs.length > 0, detail);
  assert.is(Number(filled![1]) + failedPairs.length + latePairs.length, 100, detail);
  assert.ok(Number(filled![1]) > 0, detail);

  const pair = async (symbol: string) => {
    const response = await fetch(`${service!.baseUrl}/api/v1/pair/${symbol}`,
      { headers: { authorization: `Bearer ${key}` } });
    assert.is(response.status, 200);
    return await response.json() as Record<string, unknown>;
  };
  const screener = await fetch(`${service.baseUrl}/api/v1/screener`,
    { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json()) as
    { pairs: { symbol: string; tracked: boolean }[] };
  const tracked = screener.pairs.filter((p) => p.tracked).map((p) => p.symbol);
  const filledPair = tracked.find((s) => !failedPairs.includes(s) && !latePairs.includes(s))!;
  const withCandles = await pair(filledPair);
  assert.ok(withCandles.basis === 'candles' || withCandles.basis === 'mixed',
    `${filledPair}: ${String(withCandles.basis)}`);
  // 30 hours of candles: a day of VPIN buckets, regime's 100 five-minute samples.
  for (const field of ['vpin', 'regime', 'signalScore']) {
    assert.ok(withCandles[field] !== null && withCandles[field] !== undefined,
      `${filledPair} ${field}: ${withCandles[field]}`);
  }
  // Its backfilled minutes are history points, though the venue sent its context before the
  // candles: one a minute in the 1-minute candles' hours, one an hour further back.
  const points = async (query: string) => {
    const response = await fetch(`${service!.baseUrl}/api/v1/history/${filledPair}?${query}`,
      { headers: { authorization: `Bearer ${key}` } });
    assert.is(response.status, 200);
    return (await response.json() as { points: { t: string; volume: number }[] }).points;
  };
  const hoursAgo = (hours: number) => Date.now() - hours * 3_600_000;
  const minutes = await eventually(async () => {
    const found = await points(`interval=1m&start=${hoursAgo(3)}&end=${hoursAgo(1)}&limit=500`);
    return found.length >= 115 ? found : null;
  }, { timeoutMs: 20_000, intervalMs: 250, message: `${filledPair}'s backfilled minutes` });
  // `start` moves back to its minute's open: 121 minutes at most.
  assert.ok(minutes.length <= 121, `${minutes.length} points in two hours`);
  assert.ok(minutes.every((p, i) => i === 0 || Date.parse(p.t) > Date.parse(minutes[i - 1].t)));
  assert.ok(minutes.every((p) => p.volume > 0));
  const hours = await points(`interval=1h&start=${hoursAgo(28)}&end=${hoursAgo(5)}`);
  assert.ok(hours.length >= 22, `${hours.length} hourly points in 23 hours`);
  // A failing pair goes live on its trades once its retry failed too.
  await eventually(async () => (await pair(failedPairs[0])).basis === 'trades',
    { timeoutMs: 10_000, message: `${failedPairs[0]} live on trades` });
  // A late pair publishes meanwhile and is filled once the budget reaches it (20 weight a
  // second; ~71 a pair at 30 h), exactly as one filled in time.
  const filledLate = await eventually(async () => {
    for (const symbol of latePairs) {
      const answer = await pair(symbol);
      if (answer.basis !== 'trades' && answer.vpin !== null) return { symbol, answer };
    }
    return null;
  }, { timeoutMs: 30_000, intervalMs: 250, message: 'a late pair filled after /readyz' });
  assert.ok(['candles', 'mixed'].includes(String(filledLate.answer.basis)), filledLate.symbol);
  const after = await fetch(`${service.baseUrl}/readyz`).then((r) => r.json()) as Readyz;
  assert.ok(Number(/^(\d+) of 100/.exec(after.detail!.backfill)![1]) > Number(filled![1]),
    after.detail!.backfill);
});

live.run();
