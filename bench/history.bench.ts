// History bench: the store size of 1-minute points (per pair and day, and 100 pairs x 7 days),
// a 500-point history query against /api/v1/pair/BTC on the same in-process front under wrk
// (repeated: the ETag-keyed answer; rotating ranges: a store read and serialization each), the
// p99 of 5,000-point CSV pages, and what recording adds to the pair engine's trade path.
import { statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { systemClock } from '../core/clock.js';
import type { HistoryPoint } from '../core/history-point.js';
import { resolveConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import type { MailboxReader } from '../actors/shard/mailbox.js';
import { createPairEngine } from '../actors/shard/pair-engine.js';
import type { PairAnalytics } from '../kernels/pair-analytics.js';
import { snapshotPairScalars, type PairAnalyticsSnapshot } from '../kernels/pair-snapshot.js';
import type { EntrySignal } from '../actors/signals/types.js';
import { openHistoryStore, type HistoryStore } from '../persistence/history.js';
import { openSignalStore } from '../persistence/signals.js';
import { ReopeningEnvironment } from '../persistence/reopening-environment.js';
import { storeLimits } from '../persistence/limits.js';
import { openTable } from '../persistence/table.js';
import { startHttpServer } from '../http/server.js';
import { keyFor, MemoryKeys, MemoryUsage, seededStore } from '../test/http/helpers/seed.js';
import { printRows, quick, type ReportRow } from './harness.js';
import { closeProbeSockets, getText } from './lib/http-get.js';
import { tempDataDir } from './lib/service.js';
import { ensureWrk, pathRotationScript, runWrk } from './lib/wrk.js';
import { sortedQuantile } from './lib/quantile.js';

const MIN = 60_000;
const DAY = 86_400_000;
export const END_MS = Date.parse('2026-11-21T00:00:00.000Z');

export function point(symbol: string, tMs: number, i: number, base: number): HistoryPoint {
  const mid = base * (1 + 0.01 * Math.sin(i / 97) + 0.001 * Math.sin(i * 1.7));
  return {
    symbol, tMs, open: mid, high: mid * 1.0007, low: mid * 0.9993, close: mid * 1.0002,
    volume: 1.5e6 * (1 + Math.sin(i / 13) ** 2), openInterest: 2.4e9 + i * 17.3,
    fundingRate: 0.0000125, fundingAnnualized: 10.95, cvd: 1e6 * Math.sin(i / 50),
    vpin: 0.3 + 0.2 * Math.sin(i / 300) ** 2, obi: Math.sin(i / 7) * 0.5, ofi: Math.cos(i / 11),
    kyleLambda: 2.1e-6 * (1 + Math.sin(i / 60) ** 2),
    signalScore: Math.round(50 * Math.sin(i / 40)), regime: i % 3 === 0 ? 'trending' : 'ranging',
  };
}

/** Writes `days` of 1-minute points for `pairs` pairs, minute by minute as the recorder does. */
export async function fill(history: HistoryStore, pairs: number, days: number): Promise<number> {
  const symbols = ['BTC', ...Array.from({ length: pairs - 1 }, (_, i) => `P${i}`)];
  const fromMs = END_MS - days * DAY;
  const startNs = process.hrtime.bigint();
  for (let i = 0, t = fromMs; t < END_MS; i++, t += MIN) {
    history.add(symbols.map((s, k) => point(s, t, i, 100 + k)));
    // One batch per simulated minute: let each commit as the service's turns would.
    if (i % 60 === 59) await history.flush();
  }
  await history.flush();
  return Number(process.hrtime.bigint() - startNs) / 1e6;
}

/** Bytes of the pages a table holds (branch, leaf and overflow pages x page size). */
function tableBytes(root: RootDatabase, name: string): { bytes: number } {
  const stats = openTable(root, name).getStats() as { pageSize: number;
    treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number };
  const pages = stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages;
  return { bytes: pages * stats.pageSize };
}

function percentile(values: number[], p: number): number {
  return sortedQuantile([...values].sort((a, b) => a - b), p);
}

/** Recording's cost on the trade path, measured so that load moves both sides alike. */
interface TradeCost {
  /** Median CPU ns per trade with recording, and with it stubbed out. */
  readonly withNs: number;
  readonly withoutNs: number;
  /** Pairs of chunks measured (each pair: both engines back to back, order alternating). */
  readonly pairs: number;
  /** Median of the per-pair ratios. */
  readonly ratio: number;
  /** The middle half of the per-pair ratios (their 25th and 75th percentiles). */
  readonly ratioLow: number;
  readonly ratioHigh: number;
  /** ns of one minute close (the kernels' scalars and the point), median, timed on its own. */
  readonly closeNs: number;
  /** The same with every scalar of the pair snapshotted (the close before this was trimmed). */
  readonly closeBeforeNs: number;
}

const median = (values: number[]) => percentile(values, 0.5);

/**
 * ns per trade through the engine, with recording and with it stubbed out (same stream), as
 * many pairs of back-to-back 4,096-trade chunks in alternating order (40 x `trades` in all);
 * the ratio is the median of the pairs' ratios (a disturbance hits a pair, not the figure).
 * The minute close is timed on its own too: its cost over a minute's trades is the figure
 * load moves least.
 */
function tradeCost(trades: number): TradeCost {
  const price = Array.from({ length: 4096 }, (_, i) => 100 + Math.sin(i / 50) + 0.01 * (i % 7));
  const engines = [true, false].map((recording) => {
    const engine = createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 0 });
    if (!recording) {
      // The baseline: the same engine with its minute recorder replaced by one never rolling.
      (engine as unknown as { minutes: unknown }).minutes = { endMs: Infinity, notional: 0,
        roll() {}, onCtx() {}, take: () => [] };
    }
    return { reader: engine as unknown as MailboxReader, engine, tMs: END_MS, n: 0 };
  });
  const run = (e: (typeof engines)[number]) => (ops: number) => {
    for (let i = 0; i < ops; i++) {
      // 20 trades a second of market time: a minute closes every 1,200 trades.
      e.tMs += 50;
      e.reader.trade(e.tMs, price[i & 4095], 0.5 + (i & 3), (i & 1) === 0 ? 1 : -1, null, null);
      if ((++e.n & 16383) === 0) e.engine.publish(0);
    }
  };
  for (const e of engines) run(e)(trades);
  // Short chunks, alternating: a load burst (tens of ms) falls on both sides of a pair alike.
  const chunk = 4_096;
  const pairs = Math.max(41, Math.round((trades * 40) / chunk));
  const withNs: number[] = [];
  const withoutNs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < pairs; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    const ns = [0, 0];
    for (const k of order) {
      // Wall time: CPU time is counted in scheduler ticks, coarser than a chunk.
      const before = process.hrtime.bigint();
      run(engines[k])(chunk);
      ns[k] = Number(process.hrtime.bigint() - before) / chunk;
    }
    withNs.push(ns[0]);
    withoutNs.push(ns[1]);
    ratios.push(ns[0] / ns[1]);
  }
  // The minute close alone, after a minute of trades (so the kernels' cached ratings are
  // redone, as at a real close): the recording engine's recorder rolled by hand, wall time.
  const e = engines[0];
  const minutes = (e.engine as unknown as { minutes: { roll(t: number, s: unknown): void } })
    .minutes;
  const engine = e.engine as unknown as { snapshotNow: unknown; state: PairAnalytics;
    snapshot: PairAnalyticsSnapshot };
  // Now: the recorded scalars only; before: every scalar (as the close took until this change).
  const snapshots = [engine.snapshotNow,
    () => snapshotPairScalars(engine.state, engine.snapshot)];
  const closes: number[][] = [[], []];
  for (let round = 0; round < 402; round++) {
    run(e)(1_199);
    const k = round & 1;
    const before = process.hrtime.bigint();
    minutes.roll(e.tMs, snapshots[k]);
    closes[k].push(Number(process.hrtime.bigint() - before));
    e.engine.publish(0);
  }
  return { pairs, withNs: median(withNs), withoutNs: median(withoutNs), ratio: median(ratios),
    ratioLow: percentile(ratios, 0.25), ratioHigh: percentile(ratios, 0.75),
    closeNs: median(closes[0]), closeBeforeNs: median(closes[1]) };
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  const pairs = opts.quick ? 20 : 100;
  const days = opts.quick ? 1 : 7;
  const dir = await tempDataDir('history');
  // Reopened after its writes, as the service's bulk environment holding history is.
  const bulk = new ReopeningEnvironment(() => open({ path: join(dir, 'history') }),
    { writesPerReopen: storeLimits.bulkWritesPerReopen });
  const root = bulk.root;
  try {
    const history = openHistoryStore(root);
    const writeMs = await fill(history, pairs, days);
    const minutes = tableBytes(root, 'history-1m');
    const perPairDay = minutes.bytes / pairs / days;
    const total100x7 = perPairDay * 100 * 7;
    const fileBytes = statSync(join(dir, 'history', 'data.mdb')).size;
    const mb = (b: number) => b / 1024 / 1024;
    rows.push(
      { bench: 'history', figure: `store, 1-minute points per pair per day (${pairs} pairs x ` +
        `${days} d written)`, value: perPairDay / 1024, unit: 'KiB',
      baseline: (1440 * 15 * 8) / 1024, ratio: perPairDay / (1440 * 15 * 8),
      target: '- (baseline: the raw float64 values)', pass: null },
      { bench: 'history', figure: '1-minute points, 100 pairs x 7 days', value: mb(total100x7),
        unit: 'MiB', baseline: null, ratio: null, target: '< 250 MiB', pass: mb(total100x7) < 250 },
      { bench: 'history', figure: `store file with the 1-hour rollups (${pairs} x ${days} d)`,
        value: mb(fileBytes), unit: 'MiB', baseline: null, ratio: null, target: '-', pass: null },
      { bench: 'history', figure: 'recording write rate (points committed per second)',
        value: ((pairs * days * 1440) / writeMs) * 1000, unit: 'points/s', baseline: null,
        ratio: null, target: '-', pass: null },
    );

    // The front with this store, limits off, a Whale key.
    const keys = new MemoryKeys();
    const key = keyFor(1);
    keys.add(key, 'Whale');
    const server = await startHttpServer({
      config: resolveConfig({ host: '127.0.0.1', port: 0, limitsEnabled: false }),
      clock: systemClock, logger: silentLogger, snapshots: seededStore(), keys,
      usage: new MemoryUsage(), readiness: () => ({ ready: true, checks: {} }),
      history: { store: history, signals: openSignalStore<EntrySignal>(root), clock: systemClock },
    });
    const base = `http://127.0.0.1:${server.port}`;
    const headers = [`Authorization: Bearer ${key}`];
    try {
      ensureWrk();
      const seconds = opts.quick ? 3 : 8;
      const wrk = (path: string, scriptPath?: string) => runWrk(base + path,
        { connections: 64, seconds, headers, scriptPath });
      const query = '/api/v1/history/BTC?interval=1m&limit=500';
      const pairRun = await wrk('/api/v1/pair/BTC');
      const cachedRun = await wrk(query);
      // Rotating ranges, more than the answer cache holds: every request reads and serializes.
      const starts = Array.from({ length: 4_000 }, (_, i) =>
        new Date(END_MS - days * DAY + (i * 997 % (days * 1440 - 500)) * MIN).toISOString());
      const script = await pathRotationScript(join(dir, 'rotate.lua'),
        starts.map((s) => `${query}&start=${s}`));
      const uncachedRun = await wrk(query, script);
      for (const r of [pairRun, cachedRun, uncachedRun]) {
        if (r.non2xx + r.socketErrors > 0) throw new Error('history bench: errors under load');
      }
      rows.push(
        { bench: 'history', figure: '500-point query req/s, repeated poll (ETag-keyed answer)',
          value: cachedRun.rps, unit: 'req/s', baseline: pairRun.rps,
          ratio: cachedRun.rps / pairRun.rps, target: '>= 0.25x /api/v1/pair/BTC',
          pass: cachedRun.rps / pairRun.rps >= 0.25 },
        { bench: 'history', figure: '500-point query req/s, 4,000 rotating ranges (store read)',
          value: uncachedRun.rps, unit: 'req/s', baseline: pairRun.rps,
          ratio: uncachedRun.rps / pairRun.rps, target: '- (context)', pass: null },
      );
      // 5,000-point CSV pages, one at a time, each a different range (no cached answer).
      const pages = opts.quick ? 200 : 500;
      const latencies: number[] = [];
      for (let i = 0; i < pages; i++) {
        const start = new Date(END_MS - days * DAY + ((i * 211) % (days * 1440 - 5000)) * MIN);
        const t0 = performance.now();
        const r = await getText(`${base}/api/v1/history/BTC?interval=1m&limit=5000&format=csv` +
          `&metrics=candle,openInterest,cvd,vpin&start=${start.toISOString()}`,
        { authorization: `Bearer ${key}` });
        latencies.push(performance.now() - t0);
        if (r.status !== 200) throw new Error(`CSV page answered ${r.status}`);
      }
      const p99 = percentile(latencies, 0.99);
      rows.push({ bench: 'history', figure: '5,000-point CSV page, p99 (sequential, uncached)',
        value: p99, unit: 'ms', baseline: percentile(latencies, 0.5),
        ratio: p99 / percentile(latencies, 0.5), target: '< 50 ms (baseline: p50)',
        pass: p99 < 50 });
    } finally {
      await server.close();
    }

    const cost = tradeCost(opts.quick ? 50_000 : 200_000);
    rows.push({ bench: 'history', figure: 'engine trade path with 1-minute recording (median ' +
      `of ${cost.pairs} paired 4,096-trade chunks; middle half ${cost.ratioLow.toFixed(3)}-` +
      `${cost.ratioHigh.toFixed(3)})`, value: cost.withNs, unit: 'ns/trade',
    baseline: cost.withoutNs, ratio: cost.ratio,
    target: '< 1.05x (baseline: recording stubbed out)', pass: cost.ratio < 1.05 },
    { bench: 'history', figure: 'one minute close (kernel scalars and the point; median)',
      value: cost.closeNs, unit: 'ns', baseline: cost.closeBeforeNs,
      ratio: cost.closeNs / cost.closeBeforeNs,
      target: '- (baseline: the close snapshotting every scalar)', pass: null },
    { bench: 'history', figure: 'the minute close per trade at 20 trades/s (close / 1,200)',
      value: cost.closeNs / 1_200, unit: 'ns/trade', baseline: cost.withoutNs,
      ratio: 1 + cost.closeNs / 1_200 / cost.withoutNs,
      target: '< 1.05x (baseline: the trade path without recording)',
      pass: 1 + cost.closeNs / 1_200 / cost.withoutNs < 1.05 });
  } finally {
    await bulk.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1]?.endsWith('history.bench.ts')) {
  printRows(await run({ quick }));
  closeProbeSockets();
}
