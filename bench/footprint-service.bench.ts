// The footprint in the service (issue 39's targets): heap per pair of the engine's footprint
// (100 pairs), lmdb bytes per day of stored footprint bars (100 pairs, one day of a BTC-like
// tape), and `/api/v1/footprint/BTC?bars=50` polled against `/api/v1/pair/BTC` by wrk in the
// same run (the front alone, in process, limits off, alternating rounds).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { systemClock } from '../core/clock.js';
import { resolveConfig } from '../core/config.js';
import type { FootprintRecord } from '../core/footprint.js';
import { silentLogger } from '../core/logger.js';
import type { PairOutbound } from '../core/messages.js';
import { PairFootprint } from '../actors/shard/pair-footprint.js';
import { openFootprintStore } from '../persistence/footprints.js';
import { startHttpServer } from '../http/server.js';
import { keyFor, MemoryKeys, MemoryUsage, seededStore } from '../test/http/helpers/seed.js';
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

/** wrk on both paths in alternating rounds; median req/s of each. */
async function pollRatio(rounds: number, seconds: number):
  Promise<[number, number, number, number]> {
  ensureWrk();
  const dir = mkdtempSync(join(tmpdir(), 'orderflow-fp-poll-'));
  const root = open({ path: dir });
  const footprints = openFootprintStore(root);
  const fp = new PairFootprint('BTC');
  // A day and 6 hours: the answers' bars have the levels a day of bars set.
  for (const r of feed(fp, 30, 42)) footprints.add(r);
  await footprints.flush();
  const snapshots = seededStore();
  snapshots.put('footprint/BTC', Buffer.from(fp.view({ updatedAtMs: T0, cadenceMs: 1000,
    stale: false, asOfMs: T0 + 30 * 3_600_000 })), { version: 2, updatedAtMs: T0,
    cadenceMs: 1000 });
  const keys = new MemoryKeys();
  const key = keyFor(1);
  keys.add(key, 'API');
  const server = await startHttpServer({
    config: resolveConfig({ host: '127.0.0.1', port: 0, limitsEnabled: false }),
    clock: systemClock, logger: silentLogger, snapshots, keys, usage: new MemoryUsage(),
    readiness: () => ({ ready: true, checks: {} }), footprints,
  });
  const base = `http://127.0.0.1:${server.port}`;
  const headers = [`Authorization: Bearer ${key}`];
  const results: Record<string, number[]> = { footprint: [], pair: [] };
  const sizes: number[] = [];
  for (const path of ['/api/v1/footprint/BTC?bars=50', '/api/v1/pair/BTC']) {
    const r = await fetch(base + path, { headers: { authorization: `Bearer ${key}` } });
    sizes.push((await r.arrayBuffer()).byteLength);
  }
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ['footprint', 'pair'] : ['pair', 'footprint'];
      for (const name of order) {
        const path = name === 'pair' ? '/api/v1/pair/BTC' : '/api/v1/footprint/BTC?bars=50';
        const r = await runWrk(base + path, { connections: 64, seconds, headers });
        if (r.non2xx > 0) throw new Error(`${path} answered ${r.non2xx} non-2xx`);
        results[name].push(r.rps);
      }
    }
  } finally {
    await server.close();
    await root.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return [median(results.footprint), median(results.pair), sizes[0], sizes[1]];
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
  const [footprintRps, pairRps, bodyBytes, pairBytes] =
    await pollRatio(opts.quick ? 1 : 3, opts.quick ? 3 : 8);
  const mb = 1024 * 1024;
  return [
    row('heap and buffers per pair of the engine\'s footprint (100 pairs; NaN without ' +
      '--expose-gc)',
      perPairBytes / 1024, 'KB', null, '-', null),
    row('store per day, 5m + 15m + 1h bars of 100 pairs', dayBytes / mb, 'MB', null, '-', null),
    row('store for 7 days of 5m bars of 100 pairs', 7 * dayBytes5m / mb, 'MB', null, '< 500 MB',
      7 * dayBytes5m / mb < 500),
    row('/api/v1/footprint/BTC?bars=50 polled (wrk, 64 connections)', footprintRps, 'req/s',
      pairRps, '>= 0.5x /api/v1/pair/BTC', footprintRps >= 0.5 * pairRps),
    row('answer bytes of /api/v1/footprint/BTC?bars=50 (baseline: /api/v1/pair/BTC)',
      bodyBytes, 'B', pairBytes, '-', null),
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

