// The footprint in the service (issue 39's targets): heap per pair of the engine's footprint
// (100 pairs), lmdb bytes per day of stored footprint bars (100 pairs, one day of a BTC-like
// tape), and `/api/v1/footprint/BTC?bars=50` polled against `/api/v1/pair/BTC` by wrk in the
// same run (the front alone, in process, limits off, alternating rounds), both with
// `Accept-Encoding: gzip` as browsers and HTTP libraries send it, and both without (identity),
// with the front's CPU time per request of each.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import type { FootprintRecord } from '../core/footprint.js';
import type { PairOutbound } from '../core/messages.js';
import { PairFootprint } from '../actors/shard/pair-footprint.js';
import { openFootprintStore } from '../persistence/footprints.js';
import { storeLimits } from '../persistence/limits.js';
import { ReopeningEnvironment } from '../persistence/reopening-environment.js';
import { seededStore } from '../test/http/helpers/seed.js';
import { openBenchFront } from './lib/open-front.js';
import { printRows, quick as quickFlag, type ReportRow } from './harness.js';
import { tradeTape } from './lib/trade-tape.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const PAIRS = 100;
const DAY_MS = 86_400_000;
const T0 = Date.parse('2026-11-20T00:00:00.000Z');

function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

/** Feeds `hours` of the tape (~25 trades a second) into a pair's footprint; its records. */
function feed(fp: PairFootprint, hours: number, seed: number): FootprintRecord[] {
  const t = tradeTape(Math.ceil(hours * 3600 * 25), seeded(seed));
  const out: PairOutbound[] = [];
  let ts = T0;
  const endMs = T0 + hours * 3_600_000;
  for (let i = 0; i < t.price.length && ts < endMs; i++) {
    ts += t.gapMs[i];
    fp.trade(ts, Math.round(t.price[i] * 10) / 10, Math.round(t.size[i] * 1000) / 1000 || 0.001,
      t.side[i], out);
  }
  fp.advance(endMs, out);
  return out.map((o) => o.data as unknown as FootprintRecord);
}

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return NaN;
  for (let i = 0; i < 3; i++) gc();
  // Typed arrays' buffers live outside the JS heap: counted too.
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Heap and buffers of 100 pairs' footprints (state, bars, view memo) after an hour each. */
function heapPerPair(): number {
  const before = heapUsed();
  const pairs: PairFootprint[] = [];
  for (let k = 0; k < PAIRS; k++) {
    const fp = new PairFootprint(`P${k}`);
    feed(fp, 1, 7 + k);
    fp.view({ updatedAtMs: T0, cadenceMs: 1000, stale: false, asOfMs: T0 });
    pairs.push(fp);
  }
  const after = heapUsed();
  if (pairs.length !== PAIRS) throw new Error('pairs lost');
  return (after - before) / PAIRS;
}

/** Bytes the store's pages take for one day of 5m, 15m and 1h bars of 100 pairs. */
async function storeBytesPerDay(day: readonly FootprintRecord[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'orderflow-fp-bench-'));
  const root = open({ path: dir });
  try {
    const store = openFootprintStore(root);
    for (let k = 0; k < PAIRS; k++) {
      for (const r of day) store.add({ ...r, symbol: `P${k}` });
      await store.flush();
    }
    const stats = root.openDB({ name: 'footprints' }).getStats() as {
      pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number;
      overflowPages: number };
    return stats.pageSize *
      (stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages);
  } finally {
    await root.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface PollFigures {
  /** Median req/s by path and encoding: footprint and pair, each `gzip` or `identity`. */
  readonly rps: Readonly<Record<string, number>>;
  /** Answer bytes on the wire by the same keys. */
  readonly bytes: Readonly<Record<string, number>>;
  /**
   * Median CPU time of this process (the front's thread and its idle helpers) per answered
   * request, microseconds, by the same keys: other engineers' load moves it less than req/s.
   */
  readonly cpuUs: Readonly<Record<string, number>>;
}

const POLLS = ['footprint gzip', 'pair gzip', 'footprint identity', 'pair identity'];
const FOOTPRINT_PATH = '/api/v1/footprint/BTC?bars=50';
const PAIR_PATH = '/api/v1/pair/BTC';

/** Bytes of the answer as sent: undici's fetch would inflate it, so node:http reads it raw. */
function wireBytes(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let n = 0;
      res.on('data', (chunk: Buffer) => { n += chunk.byteLength; });
      res.on('end', () => resolve(n));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

/** wrk on both paths, with and without gzip, in alternating rounds; median req/s of each. */
async function pollRatio(rounds: number, seconds: number): Promise<PollFigures> {
  ensureWrk();
  const dir = mkdtempSync(join(tmpdir(), 'orderflow-fp-poll-'));
  // Reopened after its writes, as the service's bulk environment holding footprints is.
  const bulk = new ReopeningEnvironment(() => open({ path: dir }),
    { writesPerReopen: storeLimits.bulkWritesPerReopen });
  const footprints = openFootprintStore(bulk.root);
  const fp = new PairFootprint('BTC');
  // A day and 6 hours: the answers' bars have the levels a day of bars set.
  for (const r of feed(fp, 30, 42)) footprints.add(r);
  await footprints.flush();
  const snapshots = seededStore();
  snapshots.put('footprint/BTC', Buffer.from(fp.view({ updatedAtMs: T0, cadenceMs: 1000,
    stale: false, asOfMs: T0 + 30 * 3_600_000 })), { version: 2, updatedAtMs: T0,
    cadenceMs: 1000 });
  const { server, key } = await openBenchFront(snapshots, { footprints });

  const base = `http://127.0.0.1:${server.port}`;
  const results: Record<string, number[]> = Object.fromEntries(POLLS.map((p) => [p, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(POLLS.map((p) => [p, []]));
  const bytes: Record<string, number> = {};
  const pathOf = (poll: string) => poll.startsWith('pair') ? PAIR_PATH : FOOTPRINT_PATH;
  const gzipOf = (poll: string) => poll.endsWith('gzip');
  for (const poll of POLLS) {
    bytes[poll] = await wireBytes(base + pathOf(poll), { authorization: `Bearer ${key}`,
      ...(gzipOf(poll) ? { 'accept-encoding': 'gzip' } : {}) });
  }
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? POLLS : [...POLLS].reverse();
      for (const poll of order) {
        const headers = [`Authorization: Bearer ${key}`,
          ...(gzipOf(poll) ? ['Accept-Encoding: gzip'] : [])];
        const before = process.cpuUsage();
        const r = await runWrk(base + pathOf(poll), { connections: 64, seconds, headers });
        const used = process.cpuUsage(before);
        if (r.non2xx > 0) throw new Error(`${poll} answered ${r.non2xx} non-2xx`);
        results[poll].push(r.rps);
        cpu[poll].push((used.user + used.system) / r.requests);
      }
    }
  } finally {
    await server.close();
    await bulk.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const medians = (by: Record<string, number[]>) =>
    Object.fromEntries(POLLS.map((p) => [p, median(by[p])]));
  return { rps: medians(results), bytes, cpuUs: medians(cpu) };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const row = (figure: string, value: number, unit: string, baseline: number | null,
    target: string, pass: boolean | null): ReportRow => ({
    bench: 'footprint-service', figure, value, unit, baseline,
    ratio: baseline === null ? null : value / baseline, target, pass,
  });
  const perPairBytes = heapPerPair();
  // The second day: the first day's levels come from the fallback range (no day before it).
  const day = feed(new PairFootprint('D'), 48, 42).filter((r) => r.openMs >= T0 + DAY_MS);
  const dayBytes = await storeBytesPerDay(day);
  const dayBytes5m = await storeBytesPerDay(day.filter((r) => r.timeframe === '5m'));
  const { rps, bytes, cpuUs } = await pollRatio(opts.quick ? 1 : 3, opts.quick ? 3 : 8);
  const mb = 1024 * 1024;
  return [
    row('heap and buffers per pair of the engine\'s footprint (100 pairs; NaN without ' +
      '--expose-gc)',
      perPairBytes / 1024, 'KB', null, '-', null),
    row('store per day, 5m + 15m + 1h bars of 100 pairs', dayBytes / mb, 'MB', null, '-', null),
    row('store for 7 days of 5m bars of 100 pairs', 7 * dayBytes5m / mb, 'MB', null, '< 500 MB',
      7 * dayBytes5m / mb < 500),
    row('/api/v1/footprint/BTC?bars=50 polled with Accept-Encoding: gzip (wrk, 64 ' +
      'connections; baseline: /api/v1/pair/BTC, the same header)', rps['footprint gzip']!,
      'req/s', rps['pair gzip']!, '>= 0.5x /api/v1/pair/BTC',
      rps['footprint gzip']! >= 0.5 * rps['pair gzip']!),
    row('the same without Accept-Encoding (identity bytes)', rps['footprint identity']!,
      'req/s', rps['pair identity']!, '-', null),
    row('front CPU per footprint request, gzip (baseline: per pair request, the same header)',
      cpuUs['footprint gzip']!, 'us', cpuUs['pair gzip']!, '-', null),
    row('the same without Accept-Encoding', cpuUs['footprint identity']!, 'us',
      cpuUs['pair identity']!, '-', null),
    row('answer bytes of /api/v1/footprint/BTC?bars=50, gzip (baseline: identity)',
      bytes['footprint gzip']!, 'B', bytes['footprint identity']!, '-', null),
    row('answer bytes of /api/v1/pair/BTC, gzip asked (under the minimum: identity)',
      bytes['pair gzip']!, 'B', bytes['pair identity']!, '-', null),
    row(`bars in a day of the tape (levels a 5m bar: ${levelsOf(day)})`, day.length, 'bars',
      null, '-', null),
  ];
}

function levelsOf(day: readonly FootprintRecord[]): string {
  const levels = day.filter((r) => r.timeframe === '5m').map((r) => r.buy.length);
  return `median ${median(levels)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printRows(await run({ quick: quickFlag }));
}

