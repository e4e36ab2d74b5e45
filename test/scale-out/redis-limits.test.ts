// The limit step itself over a real Redis: two RedisLimits on their own connections (two
// fronts) share each burst window and daily counter exactly, keep a window's times in order
// when the fronts' clocks differ a little, and answer the oldest time for Retry-After; a day's
// count is kept under its own name when the next day starts (a key's 32 days, an address's an
// hour), and a daily step counts the day alone.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { silentLogger } from '../../core/logger.js';
import { openRedisLink, type RedisLink } from '../../scale-out/redis-link.js';
import {
  DAILY_ONLY, limitsName, RedisLimits, type TakeRequest, type TakeResult,
} from '../../scale-out/redis-limits.js';
import { eventually } from '../helpers/eventually.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer;
const links: RedisLink[] = [];
const fronts: RedisLimits[] = [];
const step = suite('redis limit step');

step.before(async () => {
  redis = await startRedisServer();
  for (let i = 0; i < 2; i++) {
    const link = await openRedisLink(redis.url, silentLogger);
    await eventually(() => link.ready(), { timeoutMs: 5_000, message: 'redis link ready' });
    links.push(link);
    fronts.push(new RedisLimits(link));
  }
});

step.after(async () => {
  for (const link of links) await link.close();
  await redis?.stop();
});

let nextId = 0;
function request(nowMs: number, over: Partial<TakeRequest> = {}): TakeRequest {
  return { limitsName: limitsName(`key:ofk_t${nextId}`), windowField: 'v1|127.0.0.1',
    burstLimit: 3, windowMs: 60_000, dayKey: '2027-01-15', dailyLimit: 100,
    dailyTtlSeconds: 3_600, nowMs, ...over };
}

/** Takes the requests through the fronts in turn, one after the other (a known order). */
async function takeAll(requests: TakeRequest[]): Promise<(TakeResult | null)[]> {
  const results: (TakeResult | null)[] = [];
  for (const [i, r] of requests.entries()) {
    results.push(await new Promise<TakeResult | null>((resolve) => {
      fronts[i % 2]!.take(r, (result) => resolve(result), null);
    }));
  }
  return results;
}

/** The same, all in one turn of the event loop (each front sends its own batch). */
async function takeAtOnce(requests: TakeRequest[]): Promise<(TakeResult | null)[]> {
  return Promise.all(requests.map((r, i) => new Promise<TakeResult | null>((resolve) => {
    fronts[i % 2]!.take(r, (result) => resolve(result), null);
  })));
}

step('a burst limit of 3 over two fronts: 3 admitted, then refused until the oldest leaves',
  async () => {
    nextId++;
    const first = await takeAll([request(1_000), request(2_000), request(3_000),
      request(4_000), request(5_000)]);
    assert.equal(first.map((r) => r!.burstOk), [true, true, true, false, false]);
    assert.equal(first.map((r) => r!.burstCount), [1, 2, 3, 3, 3]);
    assert.equal(first.map((r) => r!.oldestMs), [1_000, 1_000, 1_000, 1_000, 1_000]);
    assert.equal(first.map((r) => r!.dailyUsed), [1, 2, 3, 3, 3], 'refused: not counted');
    // At 61 000 the request of 1 000 has left (the window keeps times > now - 60 s).
    const [later] = await takeAll([request(61_000)]);
    assert.ok(later!.burstOk);
    assert.is(later!.burstCount, 3);
    assert.is(later!.oldestMs, 2_000);
  });

step('a front whose clock is behind: its time goes in order, the oldest stays right',
  async () => {
    nextId++;
    const results = await takeAll([request(10_000, { burstLimit: 5 }),
      request(9_990, { burstLimit: 5 }), request(10_020, { burstLimit: 5 }),
      request(10_005, { burstLimit: 5 })]);
    assert.ok(results.every((r) => r!.burstOk));
    assert.equal(results.map((r) => r!.oldestMs), [10_000, 9_990, 9_990, 9_990]);
    // 9 990 leaves first, then 10 000 and 10 005: one place each.
    const [after] = await takeAll([request(70_001, { burstLimit: 5 })]);
    assert.is(after!.burstCount, 3, '10 005, 10 020 and this one');
    assert.is(after!.oldestMs, 10_005);
  });

step('the daily limit holds exactly across fronts; a request not counted reads the day',
  async () => {
    nextId++;
    const results = await takeAtOnce(Array.from({ length: 7 }, (_, i) =>
      request(1_000 + i, { burstLimit: 60, dailyLimit: 4 })));
    assert.is(results.filter((r) => r!.dailyOk).length, 4);
    assert.equal(results.filter((r) => r!.dailyOk).map((r) => r!.dailyUsed).sort(),
      [1, 2, 3, 4]);
    assert.ok(results.every((r) => r!.dailyOk || r!.dailyUsed === 4));
    assert.ok(results.every((r) => r!.burstOk), 'burst counts them all');
    // A 304 (dailyLimit -1) takes a burst place and leaves the day alone.
    const [free] = await takeAll([request(2_000, { burstLimit: 60, dailyLimit: -1 })]);
    assert.ok(free!.burstOk && free!.dailyOk);
    assert.is(free!.dailyUsed, 4);
    assert.is(free!.burstCount, 8);
    assert.is(await fronts[1]!.used('2027-01-15', `key:ofk_t${nextId}`), 4);
  });

step('a day starts from the counter an earlier version kept, and a new day from zero',
  async () => {
    nextId++;
    const identity = `key:ofk_t${nextId}`;
    await links[0]!.command.set(`orderflow:daily:2027-01-15:${identity}`, '5');
    const day = { burstLimit: 60, dailyLimit: 6 };
    const results = await takeAll([request(1_000, day), request(2_000, day)]);
    assert.equal(results.map((r) => [r!.dailyOk, r!.dailyUsed]), [[true, 6], [false, 6]]);
    // A key's hash outlives its day (its last day is kept when the key is next used).
    const ttl = await links[0]!.command.ttl(limitsName(identity));
    assert.ok(ttl > 30 * 86_400, `a key's hash is kept 32 days (ttl ${ttl} s)`);
    const [next] = await takeAll([request(3_000, { ...day, dayKey: '2027-01-16' })]);
    assert.equal([next!.dailyOk, next!.dailyUsed, next!.burstCount], [true, 1, 3]);
    assert.is(await fronts[0]!.used('2027-01-16', identity), 1);
    assert.is(await fronts[0]!.used('2027-01-15', identity), 0, 'that day is over');
    // The day before is kept under its own name, 32 days: the dashboard's usage days.
    const kept = `orderflow:daily:2027-01-15:${identity}`;
    assert.is(await links[0]!.command.get(kept), '6');
    assert.ok(await links[0]!.command.ttl(kept) > 30 * 86_400);
    assert.equal(await fronts[1]!.usedOn(identity, ['2027-01-16', '2027-01-15', '2027-01-14']),
      [1, 6, 0]);
  });

step('an address: its hash and its day before are dropped an hour past the day', async () => {
  nextId++;
  const identity = `ip:10.9.${nextId}.1`;
  const at = (nowMs: number, dayKey: string) =>
    request(nowMs, { limitsName: limitsName(identity), dayKey, dailyLimit: 10 });
  await takeAll([at(1_000, '2027-01-15'), at(2_000, '2027-01-15')]);
  const ttl = await links[0]!.command.ttl(limitsName(identity));
  assert.ok(ttl > 0 && ttl <= 3_600, `the hash expires after its day (ttl ${ttl} s)`);
  await takeAll([at(3_000, '2027-01-16')]);
  const keptTtl = await links[0]!.command.ttl(`orderflow:daily:2027-01-15:${identity}`);
  assert.ok(keptTtl > 0 && keptTtl <= 3_600, `kept an hour (ttl ${keptTtl} s)`);
  assert.equal(await fronts[0]!.usedOn(identity, ['2027-01-16', '2027-01-15']), [1, 2]);
});

step('a daily step (no window field) counts the day alone and leaves the windows', async () => {
  nextId++;
  const daily = (nowMs: number) => request(nowMs, { windowField: DAILY_ONLY, burstLimit: 0,
    dailyLimit: 3 });
  const [burst] = await takeAll([request(1_000, { dailyLimit: 3 })]);
  assert.equal([burst!.burstOk, burst!.burstCount, burst!.dailyUsed], [true, 1, 1]);
  const results = await takeAll([daily(1_001), daily(1_002), daily(1_003)]);
  assert.equal(results.map((r) => [r!.burstOk, r!.dailyOk, r!.dailyUsed]),
    [[true, true, 2], [true, true, 3], [true, false, 3]]);
  // The window still holds the one request the burst guard took.
  const [after] = await takeAll([request(1_004, { dailyLimit: -1 })]);
  assert.equal([after!.burstOk, after!.burstCount, after!.dailyUsed], [true, 2, 3]);
  const name = limitsName(`key:ofk_t${nextId}`);
  assert.equal((await links[0]!.command.hkeys(name)).sort(), ['d', 'v1|127.0.0.1']);
});

step('windows of addresses no longer used are dropped when the hash grows', async () => {
  nextId++;
  const name = limitsName(`key:ofk_t${nextId}`);
  await takeAll(Array.from({ length: 10 }, (_, i) =>
    request(1_000, { windowField: `v1|10.0.0.${i}` })));
  assert.is(await links[0]!.command.hlen(name), 11, 'ten windows and the day');
  // A minute later a new address: the ten windows are out of date.
  const [later] = await takeAll([request(61_000, { windowField: 'v1|10.0.1.1' })]);
  assert.ok(later!.burstOk);
  assert.is(later!.dailyUsed, 11);
  assert.equal((await links[0]!.command.hkeys(name)).sort(), ['d', 'v1|10.0.1.1']);
});

step.run();
