// The chunks of a bulk history copy on real lmdb stores: read from one store with a cursor and
// recorded into another, they bring every 1-minute and rolled 1-hour point once (also hours
// older than any minute, and into a store that already holds newer minutes from the stream),
// and applying them all again changes nothing. And the copier with ingest's copy server through
// a real Redis, in process: it waits while nobody answers, says so, and completes once ingest
// answers; a stop while it waits returns.
import { rm } from 'node:fs/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Redis } from 'ioredis';
import { ManualClock } from '../../core/clock.js';
import type { HistoryPoint } from '../../core/history-point.js';
import { silentLogger } from '../../core/logger.js';
import { HistoryRecorder } from '../../actors/runtime/history-recorder.js';
import { openRedisLink, type RedisLink } from '../../scale-out/redis-link.js';
import { openTable } from '../../persistence/table.js';
import { copyToEndMs, HistoryCopier, mergeRanges } from '../../scale-out/history-copy.js';
import { serveHistoryCopies } from '../../scale-out/history-copy-server.js';
import { startHistoryFollower } from '../../scale-out/history-follower.js';
import { defaultConfig } from '../../core/config.js';
import { storeEncoder } from '../../persistence/table.js';
import type { HistoryStore } from '../../persistence/history.js';
import { openStore, type Store } from '../../persistence/store.js';
import {
  firstCursor, parseAsk, rangeStartMs, readCopyChunk, type CopyChunk,
} from '../../scale-out/history-copy-chunk.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 3_600_000;
const opened: { store: Store; dir: string; history: HistoryStore }[] = [];
const links: RedisLink[] = [];
let redis: RedisServer | null = null;

function point(symbol: string, tMs: number, i: number): HistoryPoint {
  const base = 100 + Math.sin(i / 7) * 5;
  return { symbol, tMs, open: base, high: base + 1, low: base - 1, close: base + 0.5,
    volume: 1000 + i, openInterest: 5e6 + i, fundingRate: 1e-5, fundingAnnualized: 1.1,
    cvd: i * 10, vpin: i % 4 === 0 ? null : 0.3, obi: 0.1, ofi: -i, kyleLambda: 1e-6 * i,
    signalScore: i % 100, regime: i % 2 === 0 ? 'trending' : null };
}

const minutes = (symbol: string, fromMin: number, count: number) =>
  Array.from({ length: count }, (_, i) => point(symbol, T0 + (fromMin + i) * MIN, fromMin + i));

async function openHistoryWith() {
  const dir = await tempDir();
  const store = await openStore({ dataDir: dir, clock: new ManualClock(T0), watchKeys: false });
  const recorder = new HistoryRecorder(store.bulk, { minuteRetentionDays: 7,
    hourRetentionDays: 180 }, new ManualClock(T0), silentLogger);
  opened.push({ store, dir, history: recorder.store });
  return { store, recorder };
}

const openHistory = async () => (await openHistoryWith()).recorder.store;

test.after(async () => {
  for (const link of links) await link.close();
  await redis?.stop();
  for (const { store, dir, history } of opened) {
    await history.flush();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

/** Every chunk of [fromMs, toMs) in order, as a front asks for them. */
function chunksOf(source: HistoryStore, fromMs: number, toMs: number, pointsMax: number) {
  const out: CopyChunk[] = [];
  let cursor = firstCursor(fromMs);
  for (let n = 0; n < 10_000; n++) {
    const chunk = readCopyChunk(source, { key: 'orderflow:history-copy:t', fromMs, toMs, cursor,
      pointsMax });
    assert.ok(chunk.minutes.length + chunk.hours.length <= pointsMax, 'a chunk is bounded');
    out.push(chunk);
    if (chunk.next === null) return out;
    cursor = chunk.next;
  }
  throw new Error('the copy did not end');
}

async function apply(target: HistoryStore, chunks: readonly CopyChunk[]): Promise<void> {
  for (const chunk of chunks) {
    target.add(chunk.minutes);
    await target.putHours(chunk.hours);
    await target.flush();
  }
}

function sameHistory(a: HistoryStore, b: HistoryStore, message: string): void {
  for (const symbol of a.symbols()) {
    assert.equal(b.minutes(symbol, 0, Infinity), a.minutes(symbol, 0, Infinity),
      `${message}: ${symbol} minutes`);
    assert.equal(b.hours(symbol, 0, Infinity), a.hours(symbol, 0, Infinity),
      `${message}: ${symbol} hours`);
  }
  assert.equal(b.symbols(), a.symbols());
}

test('a copy in chunks brings every minute and rolled hour once, and again changes nothing',
  async () => {
    const ingest = await openHistory();
    // SOL: hours only (older than any minute: the 1-hour retention beyond the 1-minute one).
    await ingest.putHours(Array.from({ length: 10 }, (_, i) => point('SOL', T0 - (20 - i) * HOUR,
      i)));
    ingest.add([...minutes('BTC', 0, 140), ...minutes('BTC', 150, 150), ...minutes('ETH', 0, 130)]);
    await ingest.flush();
    assert.ok(ingest.rolledHours('BTC', 0, Infinity).length >= 4, 'BTC hours rolled');

    // The front already holds the newest half hour of BTC from the stream.
    const front = await openHistory();
    front.add(minutes('BTC', 270, 30));
    await front.flush();
    const chunks = chunksOf(ingest, 0, T0 + 270 * MIN + MIN, 7);
    const copied = chunks.reduce((n, c) => n + c.minutes.length + c.hours.length, 0);
    const expected = ['BTC', 'ETH', 'SOL'].reduce((n, s) =>
      n + ingest.minutes(s, 0, T0 + 271 * MIN).length + ingest.rolledHours(s, 0, Infinity)
        .length, 0);
    assert.is(copied, expected, 'each point once');
    await apply(front, chunks);
    sameHistory(ingest, front, 'after the copy');
    await apply(front, chunks);
    sameHistory(ingest, front, 'after the copy applied twice');
  });

/** Ingest's store: BTC and ETH minutes rolled to hours, SOL hours older than any minute. */
async function ingestHistory(): Promise<HistoryStore> {
  const ingest = await openHistory();
  await ingest.putHours(Array.from({ length: 10 }, (_, i) => point('SOL', T0 - (20 - i) * HOUR,
    i)));
  ingest.add([...minutes('BTC', 0, 140), ...minutes('ETH', 0, 130)]);
  await ingest.flush();
  return ingest;
}

async function copier(options: { askTimeoutMs: number }) {
  redis ??= await startRedisServer();
  const link = await openRedisLink(redis.url, silentLogger);
  links.push(link);
  const front = await openHistoryWith();
  const copy = new HistoryCopier(front.recorder, openTable(front.store.root, 'history-copy'),
    link, silentLogger, { pointsMax: 7, retryMs: 20, retryMsMax: 50, ...options });
  return { copy, link, history: front.recorder.store };
}

test('the copier waits while nobody answers, then copies everything ingest holds', async () => {
  const ingest = await ingestHistory();
  const front = await copier({ askTimeoutMs: 200 });
  front.copy.start();
  front.copy.want({ fromMs: 0, toMs: copyToEndMs });
  await eventually(() => /to its newest point .*waiting: no ingest listens/
    .test(front.copy.status() ?? ''), { message: 'the status says why the copy waits' });
  const ingestLink = await openRedisLink(redis!.url, silentLogger);
  links.push(ingestLink);
  const stopServing = serveHistoryCopies(ingestLink, ingest, silentLogger);
  await eventually(() => front.copy.status() === null, { timeoutMs: 10_000,
    message: 'the copy completes once ingest answers' });
  stopServing();
  await front.copy.stop();
  sameHistory(ingest, front.history, 'after the copy through Redis');
});

test('a stop while the copier waits for an answer returns', async () => {
  const front = await copier({ askTimeoutMs: 600_000 });
  // Listens for asks and never answers (an ingest stuck).
  const silent = new Redis(redis!.url);
  let asked = false;
  silent.on('message', () => { asked = true; });
  await silent.subscribe('orderflow:history-copy:ask');
  try {
    front.copy.start();
    front.copy.want({ fromMs: 0, toMs: T0 });
    await eventually(() => asked, { message: 'the copier asked' });
    await front.copy.stop();
    assert.ok(front.copy.status() !== null, 'the range is still wanted after the stop');
  } finally {
    silent.disconnect();
  }
});

test('a new front copies what trimmed entries held, also minutes newer than the first left',
  async () => {
    // Stream entries are not in market-time order (a warm-up's past comes after live minutes,
    // in chunks of a few pairs): the newest minutes went with a trimmed entry, and the one left
    // holds older ones.
    const ingest = await ingestHistory();
    redis ??= await startRedisServer();
    const client = new Redis(redis.url);
    const packr = storeEncoder();
    try {
      await client.del('orderflow:history');
      await client.xadd('orderflow:history', '*', 'p', packr.pack(minutes('BTC', 130, 10)));
      await client.xadd('orderflow:history', '*', 'p', packr.pack(minutes('BTC', 0, 10)));
      await client.xtrim('orderflow:history', 'MAXLEN', 1);
    } finally {
      client.disconnect();
    }
    const ingestLink = await openRedisLink(redis.url, silentLogger);
    const frontLink = await openRedisLink(redis.url, silentLogger);
    links.push(ingestLink, frontLink);
    const stopServing = serveHistoryCopies(ingestLink, ingest, silentLogger);
    const front = await openHistoryWith();
    const follower = startHistoryFollower(defaultConfig, front.store, frontLink,
      new ManualClock(T0), silentLogger);
    try {
      await eventually(() => follower.applied() === 1 && follower.missing() === null,
        { timeoutMs: 10_000, message: 'the entry left is applied and the copy is done' });
      sameHistory(ingest, follower.source.store, 'after the copy and the stream');
    } finally {
      stopServing();
      await follower.stop();
    }
  });

test('a front back after a trim copies each pair from its own newest minute', async () => {
  // Pairs close their minutes at their own events: ETH's minute 140 reached the front in one
  // entry, BTC's minute 140 came in the next, trimmed away before the front read it. A copy
  // from the newest minute of all (ETH's) would skip BTC's 140 for good.
  redis ??= await startRedisServer();
  const client = new Redis(redis.url);
  const packr = storeEncoder();
  const ingest = await openHistory();
  ingest.add([...minutes('BTC', 0, 140), ...minutes('ETH', 0, 141)]);
  await ingest.flush();
  const ingestLink = await openRedisLink(redis.url, silentLogger);
  const frontLink = await openRedisLink(redis.url, silentLogger);
  links.push(ingestLink, frontLink);
  const stopServing = serveHistoryCopies(ingestLink, ingest, silentLogger);
  const front = await openHistoryWith();
  const follow = () => startHistoryFollower(defaultConfig, front.store, frontLink,
    new ManualClock(T0), silentLogger);
  try {
    await client.del('orderflow:history');
    await client.xadd('orderflow:history', '*', 'p', packr.pack(minutes('ETH', 140, 1)));
    let follower = follow();
    await eventually(() => follower.applied() === 1 && follower.missing() === null,
      { timeoutMs: 10_000, message: 'the first copy and the entry are in' });
    await follower.stop();
    assert.is(follower.source.store.updatedAtMs('BTC'), T0 + 140 * MIN, 'BTC held to 139');

    // Away: BTC closes 140, then ETH 141; the stream is trimmed to the last entry.
    const later = [minutes('BTC', 140, 1), minutes('ETH', 141, 1)];
    for (const points of later) {
      ingest.add(points);
      await client.xadd('orderflow:history', '*', 'p', packr.pack(points));
    }
    await ingest.flush();
    await client.xtrim('orderflow:history', 'MAXLEN', 1);
    follower = follow();
    try {
      await eventually(() => follower.applied() === 1 && follower.missing() === null,
        { timeoutMs: 10_000, message: 'the entry left is applied and the gap copied' });
      await follower.source.store.flush();
      sameHistory(ingest, follower.source.store, 'after the gap');
    } finally {
      await follower.stop();
    }
  } finally {
    stopServing();
    client.disconnect();
  }
});

test('merged ranges start every pair at the earlier of its starts', () => {
  const a = { fromMs: 0, toMs: 10, startsMs: { BTC: 5, ETH: 7 } };
  const b = { fromMs: 2, toMs: 20, startsMs: { BTC: 6, SOL: 9 } };
  const merged = mergeRanges(a, b);
  assert.equal(merged, { fromMs: 0, toMs: 20, startsMs: { BTC: 5 } });
  // ETH and SOL start at a's and b's fromMs in the other range: from 0 merged.
  assert.is(rangeStartMs(merged, 'ETH'), 0);
  assert.is(rangeStartMs(merged, 'SOL'), 0);
  assert.equal(mergeRanges(a, { fromMs: 1, toMs: 3 }), { fromMs: 0, toMs: 10 });
});

test('an ask from elsewhere is no ask', () => {
  assert.is(parseAsk('not json'), null);
  assert.is(parseAsk(JSON.stringify({ key: 'orderflow:keys', fromMs: 0, toMs: 1, pointsMax: 1,
    cursor: firstCursor(0) })), null);
  assert.ok(parseAsk(JSON.stringify({ key: 'orderflow:history-copy:x', fromMs: 0, toMs: 1,
    pointsMax: 1, cursor: firstCursor(0) })));
  assert.is(parseAsk(JSON.stringify({ key: 'orderflow:history-copy:x', fromMs: 0, toMs: 1,
    pointsMax: 1, cursor: firstCursor(0), startsMs: { BTC: 'soon' } })), null);
  assert.ok(parseAsk(JSON.stringify({ key: 'orderflow:history-copy:x', fromMs: 0, toMs: 1,
    pointsMax: 1, cursor: firstCursor(0), startsMs: { BTC: 5 } })));
});

test.run();
