// Metrics bench (issue 37): what the Prometheus metrics cost. (1) /api/v1/pair/BTC req/s of the
// front with its per-request counts against the same front with them off (the dispatcher given
// counts that do nothing), wrk at 256 connections, alternating rounds. (2) The trade path (pair
// onTrade) before and after the runtime collectors start: no metric code runs per trade, and the
// shards that trade have no registry. (3) The real service in process (simulator, 100 tracked
// pairs, 2 shards, 10,000 keys): main-thread time of the registry's metrics() per scrape and the
// series a scrape holds.
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { us_listen_socket, us_socket } from 'uWebSockets.js';
import { Registry } from 'prom-client';
import { systemClock } from '../core/clock.js';
import { resolveConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { registerRuntimeMetrics } from '../core/metrics/runtime.js';
import { ScrapeRegistry } from '../core/metrics/scrape-registry.js';
import * as pair from '../kernels/index.js';
import { createAccessControl } from '../http/access.js';
import { apiRoutes } from '../http/api-routes.js';
import { createTrustCheck } from '../http/client-ip.js';
import { createCors } from '../http/cors.js';
import { createDispatcher } from '../http/dispatch.js';
import { FrontGuard } from '../http/front-guard.js';
import { HttpMetrics } from '../http/metrics.js';
import { openApiPayload } from '../http/openapi/payload.js';
import { createRouteTable } from '../http/routes.js';
import { SnapshotStore } from '../http/snapshots.js';
import { VariantCache } from '../http/variants.js';
import { openStore } from '../persistence/store.js';
import { startService } from '../bin/service.js';
import { MemoryKeys, MemoryUsage, seededStore } from '../test/http/helpers/seed.js';
import { openBenchFront } from './lib/open-front.js';
import { printRows, quick, type ReportRow } from './harness.js';
import { getText } from './lib/http-get.js';
import { tradeTape } from './lib/trade-tape.js';
import { sortedQuantile } from './lib/quantile.js';
import { mainThreadRunQueue } from './lib/run-queue.js';
import { removeDir, tempDataDir } from './lib/service.js';
import { ensureWrk, pinProcess, runWrk } from './lib/wrk.js';

const CONNECTIONS = 256;
const bench = 'metrics';
const pinned = cpus().length >= 2;

/** The front's counts turned off: every call does nothing. */
class NoCounts extends HttpMetrics {
  override begin(): void {}
  override end(): void {}
  override count(): void {}
  override sent(): void {}
  override refused(): void {}
}

interface Front { readonly baseUrl: string; close(): void }

/** The front as startHttpServer wires it, with `metrics` as its counts and no /metrics mount. */
async function frontWith(metrics: HttpMetrics, snapshots: SnapshotStore, keys: MemoryKeys):
  Promise<Front> {
  const config = resolveConfig({ host: '127.0.0.1', port: 0, limitsEnabled: false });
  const access = createAccessControl({ config, clock: systemClock, keys,
    usage: new MemoryUsage() });
  const table = createRouteTable(apiRoutes({ snapshots, variants: new VariantCache(), access,
    readiness: () => ({ ready: true, checks: {} }), openapi: openApiPayload() }));
  const dispatch = createDispatcher({ table, mounts: [], access, cors: createCors([]),
    guard: new FrontGuard(config), trusted: createTrustCheck(config.trustProxy), metrics,
    logger: silentLogger });
  const uWS = await import('uWebSockets.js');
  const app = uWS.App().any('/*', dispatch);
  const token = await new Promise<us_listen_socket>((resolve, reject) => app.listen('127.0.0.1',
    0, (t) => (t ? resolve(t) : reject(new Error('the front could not listen')))));
  const port = uWS.us_socket_local_port(token as unknown as us_socket);
  return { baseUrl: `http://127.0.0.1:${port}`,
    close: () => { uWS.us_listen_socket_close(token); app.close(); } };
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** (1) Pair req/s, counts on (the real server) and off, alternating who goes first. */
async function pairRows(rounds: number, seconds: number): Promise<ReportRow[]> {
  const snapshots = seededStore(Date.now());
  const { server, keys, key } = await openBenchFront(snapshots);

  const off = await frontWith(new NoCounts(0), snapshots, keys);
  const on = { baseUrl: `http://127.0.0.1:${server.port}` };
  const headers = [`Authorization: Bearer ${key}`];
  const path = '/api/v1/pair/BTC';
  try {
    const probe = await getText(on.baseUrl + path, { authorization: `Bearer ${key}` });
    if (probe.status !== 200) throw new Error(`${path} answered ${probe.status} (expected 200)`);
    // Both fronts run in this process: its CPU per request is steadier than req/s when busy.
    const cpuUs = () => {
      const used = process.cpuUsage();
      return used.user + used.system;
    };
    const rps = async (baseUrl: string, s: number) => {
      const cpuBeforeUs = cpuUs();
      const r = await runWrk(baseUrl + path, { connections: CONNECTIONS, seconds: s, headers,
        cpus: pinned ? '0' : undefined });
      if (r.non2xx + r.socketErrors > 0) {
        throw new Error(`${baseUrl}: ${r.non2xx} non-2xx and ${r.socketErrors} socket errors`);
      }
      return { rps: r.rps, cpuUs: (cpuUs() - cpuBeforeUs) / r.requests };
    };
    for (const t of [on, off]) await rps(t.baseUrl, 1);
    const ons: { rps: number; cpuUs: number }[] = [];
    const offs: { rps: number; cpuUs: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [off, on] : [on, off];
      for (const t of order) (t === on ? ons : offs).push(await rps(t.baseUrl, seconds));
    }
    const onRps = median(ons.map((o) => o.rps));
    const offRps = median(offs.map((o) => o.rps));
    const onCpu = median(ons.map((o) => o.cpuUs));
    const offCpu = median(offs.map((o) => o.cpuUs));
    return [{ bench, figure: `pair with key req/s, metrics on vs off (${rounds} rounds of ` +
      `${seconds} s, median)`, value: onRps, unit: 'req/s', baseline: offRps,
    ratio: onRps / offRps, target: '>= 0.97 x off', pass: onRps / offRps >= 0.97 },
    { bench, figure: 'pair with key CPU/request (front and wrk\'s loopback), metrics on vs off',
      value: onCpu, unit: 'us', baseline: offCpu, ratio: onCpu / offCpu,
      target: '<= 1.03 x off', pass: onCpu / offCpu <= 1.03 }];
  } finally {
    off.close();
    await server.close();
  }
}

/** ns per trade of pair onTrade over a seeded tape (the same as the grading bench's). */
function tradeNs(trades: number, runs: number): number {
  let seed = 42;
  const { price, size, side, gapMs } = tradeTape(trades,
    () => (seed = (seed * 16807) % 2147483647) / 2147483647);
  const state = pair.createPairAnalytics({ vpinBucketVolume: 50 });
  let t = 1_700_000_000_000;
  // CPU time, not wall time: on a loaded box the wall-clock medians of the same code move 20%.
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const before = process.cpuUsage();
    for (let i = 0; i < trades; i++) {
      t += gapMs[i];
      pair.onTrade(state, t, price[i], size[i], side[i]);
    }
    const used = process.cpuUsage(before);
    samples.push(((used.user + used.system) * 1000) / trades);
  }
  return median(samples);
}

/**
 * (2) The trade path without, then with, the registry's process collectors running (event-loop
 * delay monitor, GC observer): they cannot be stopped once started, so the order is fixed and a
 * first unmeasured pass takes the warm-up.
 */
function tradeRows(trades: number, runs: number): ReportRow[] {
  tradeNs(trades, runs);
  tradeNs(trades, runs);
  const without = tradeNs(trades, runs);
  registerRuntimeMetrics(new Registry());
  const withMetrics = tradeNs(trades, runs);
  const ratio = without / withMetrics;
  return [{ bench, figure: 'trade path (pair onTrade) trades/s of CPU time, metrics vs none (no ' +
    'metric code per trade; runtime collectors running)', value: 1e9 / withMetrics,
  unit: 'trades/s', baseline: 1e9 / without, ratio, target: '>= 0.99 x none',
  pass: ratio >= 0.99 }];
}

/**
 * The main thread's time on a core so far, ns (schedstat; NaN where the system keeps none).
 * getrusage (process.cpuUsage) first brings the running thread's count up to now: schedstat
 * alone lags by up to a scheduler tick, which a scrape's own CPU collector then flushed into it.
 */
const onCore = () => {
  process.cpuUsage();
  return mainThreadRunQueue(process.pid)?.runNs ?? NaN;
};

/**
 * Metrics read from the shards' shared buffer, the webhook runner, the signal pipeline, the
 * history store and the store's folder (the second part of issue 37): their share of a scrape.
 */
const partTwo = new RegExp('^orderflow_(feed_(connected|reconnects|messages|lag|requests)|' +
  'shard_(mailbox|events|slice|market)|webhooks_(deliveries|delivery|oldest|endpoints)|' +
  'signals_|history_|store_size)');

/**
 * The metric whose collection takes longest on a core, one by one (median of 20 rounds), and the
 * wall time the metrics `partTwo` names take together (the sum of their medians).
 */
async function slowestMetric(registry: Registry):
  Promise<{ name: string; ms: number; partTwoMs: number; partTwoCount: number }> {
  const times = new Map<string, number[]>();
  const wall = new Map<string, number[]>();
  for (let round = 0; round < 20; round++) {
    for (const metric of registry.getMetricsAsArray()) {
      const collected = metric as unknown as { name: string; get(): unknown;
        exposition?: () => string };
      const startNs = onCore();
      const startMs = performance.now();
      // Ours as the service's registry writes them: the text, in one call.
      if (collected.exposition) collected.exposition();
      else await collected.get();
      const name = collected.name;
      wall.set(name, [...wall.get(name) ?? [], performance.now() - startMs]);
      times.set(name, [...times.get(name) ?? [], (onCore() - startNs) / 1e6]);
    }
  }
  let slowest = { name: '-', ms: 0 };
  for (const [name, ms] of times) {
    if (median(ms) > slowest.ms) slowest = { name, ms: median(ms) };
  }
  const ours = [...wall].filter(([name]) => partTwo.test(name));
  return { ...slowest, partTwoMs: ours.reduce((sum, [, ms]) => sum + median(ms), 0),
    partTwoCount: ours.length };
}

/** (3) Scrapes of the whole service in process: main-thread time of metrics() and series. */
async function scrapeRows(scrapes: number): Promise<ReportRow[]> {
  const dataDir = await tempDataDir('metrics');
  const keyCount = 10_000;
  let captured: Registry | null = null;
  const metrics = ScrapeRegistry.prototype.metrics;
  ScrapeRegistry.prototype.metrics = function (this: ScrapeRegistry) {
    captured = this;
    return metrics.call(this);
  };
  const keyStore = await openStore({ dataDir, clock: systemClock, logger: silentLogger,
    watchKeys: false });
  let key = '';
  try {
    // In batches: lmdb commits the writes queued meanwhile together.
    for (let made = 0; made < keyCount; made += 500) {
      const batch = await Promise.all(Array.from({ length: Math.min(500, keyCount - made) },
        () => keyStore.keys.create({ plan: 'Whale' })));
      key = batch[0]!.key;
    }
  } finally {
    await keyStore.close();
  }
  const service = await startService(resolveConfig({ port: 0, dataDir, shards: 2,
    logLevel: 'silent', limitsEnabled: false, warmupHours: 1 }), { logger: silentLogger });
  try {
    const auth = { authorization: `Bearer ${key}` };
    const deadlineMs = Date.now() + 120_000;
    while ((await getText(`${service.baseUrl}/readyz`)).status !== 200) {
      if (Date.now() > deadlineMs) throw new Error('the service was not ready within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Answers on every kind of route, so the HTTP series a busy front has are all there.
    const tracked = (await getText(`${service.baseUrl}/api/v1/screener`, auth)).body;
    const symbols = (JSON.parse(tracked) as { pairs: { symbol: string }[] }).pairs
      .map((p) => p.symbol);
    for (const path of ['/api/v1/screener', '/api/v1/openapi.json', '/api/v1/nope', '/healthz',
      ...symbols.map((s) => `/api/v1/pair/${s}`)]) {
      await getText(service.baseUrl + path, auth);
    }
    const text = (await getText(`${service.baseUrl}/metrics`)).body;
    if (captured === null) throw new Error('the scrape did not go through the registry');
    const registry: Registry = captured;
    const series = text.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
    const pairs = Number(/^orderflow_pairs_tracked (\d+)/m.exec(text)?.[1] ?? NaN);
    const shards = (text.match(/^orderflow_shard_up\{/gm) ?? []).length;
    const wallMs: number[] = [];
    const cpuMs: number[] = [];
    for (let i = 0; i < scrapes; i++) {
      // The main thread's time on a core (schedstat) from the call to the text: the shards'
      // threads share the 2 cores, so wall time also holds the time it waited for one.
      const startMs = performance.now();
      const startNs = onCore();
      await registry.metrics();
      cpuMs.push((onCore() - startNs) / 1e6);
      wallMs.push(performance.now() - startMs);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    cpuMs.sort((a, b) => a - b);
    wallMs.sort((a, b) => a - b);
    const slowest = await slowestMetric(registry);
    const setup = `${pairs} tracked pairs, ${shards} shards, ${keyCount} keys`;
    const p99 = sortedQuantile(cpuMs, 0.99);
    const row = (figure: string, value: number, unit: string, target = '-',
      pass: boolean | null = null): ReportRow =>
      ({ bench, figure, value, unit, baseline: null, ratio: null, target, pass });
    return [
      row(`scrape main-thread time on a core p50 (registry.metrics(), ${setup})`,
        sortedQuantile(cpuMs, 0.5), 'ms'),
      row(`scrape main-thread time on a core p99 (${scrapes} scrapes)`, p99, 'ms', '< 5 ms',
        p99 < 5),
      row('scrape wall time p50 (waits for a core included)', sortedQuantile(wallMs, 0.5), 'ms'),
      row('scrape wall time p99 (waits for a core included)', sortedQuantile(wallMs, 0.99), 'ms'),
      row(`slowest metric to collect: ${slowest.name}`, slowest.ms, 'ms'),
      row(`feed, shard, webhook, signal, history and store-size metrics (${slowest.partTwoCount}` +
        '): wall time to collect, sum of medians', slowest.partTwoMs, 'ms'),
      row(`series in one scrape (${setup})`, series, 'series', '< 2000', series < 2000),
    ];
  } finally {
    ScrapeRegistry.prototype.metrics = metrics;
    await service.stop();
    await removeDir(dataDir);
  }
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  ensureWrk();
  const rounds = opts.quick ? 5 : 7;
  const seconds = opts.quick ? 2 : 5;
  const say = (what: string) => process.stderr.write(`metrics: ${what}\n`);
  say('trade path');
  const trade = tradeRows(opts.quick ? 1 << 17 : 1 << 19, opts.quick ? 9 : 15);
  if (pinned) pinProcess(process.pid, '1');
  let pairs: ReportRow[];
  try {
    say('pair req/s, metrics on and off');
    pairs = await pairRows(rounds, seconds);
  } finally {
    if (pinned) pinProcess(process.pid, `0-${cpus().length - 1}`);
  }
  say('scrapes of the service (10,000 keys, 100 pairs, 2 shards)');
  return [...pairs, ...trade, ...await scrapeRows(opts.quick ? 100 : 500)];
}

if (process.argv[1]?.endsWith('metrics.bench.ts')) printRows(await run({ quick }));
