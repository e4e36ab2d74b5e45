// HTTP bench: the REST front (limits off) against a bare uWS server answering a fixed body of
// the same size, both driven by wrk with keep-alive at 256 connections, in the same run.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { TemplatedApp, us_listen_socket, us_socket } from 'uWebSockets.js';
import { systemClock } from '../actors/clock.js';
import { resolveConfig } from '../actors/config.js';
import { silentLogger } from '../actors/logger.js';
import { startHttpServer } from '../http/server.js';
import { SnapshotStore } from '../http/snapshots.js';
import { keyFor, MemoryKeys, MemoryUsage } from '../test/http/helpers/seed.js';
import { printRows, quick, type ReportRow } from './harness.js';

const run$ = promisify(execFile);
const CONNECTIONS = 256;

/** wrk from Debian's packages when it is missing (the bench needs a real load generator). */
function ensureWrk(): void {
  if (spawnSync('which', ['wrk']).status === 0) return;
  const install = () => spawnSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'ignore' });
  if (install().status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'ignore' });
    if (install().status !== 0) throw new Error('wrk is missing and apt-get install wrk failed');
  }
}

interface WrkResult {
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** CPU time this process (the server) spent per request: robust to a busy machine. */
  readonly cpuUsPerRequest: number;
}

function toMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!m) throw new Error(`wrk latency must look like 1.23ms (was ${text})`);
  return Number(m[1]) * (m[2] === 'us' ? 1e-3 : m[2] === 's' ? 1e3 : 1);
}

async function wrk(url: string, headers: readonly string[], seconds: number): Promise<WrkResult> {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency'];
  for (const h of headers) args.push('-H', h);
  const cpuBefore = process.cpuUsage();
  const { stdout } = await run$('wrk', [...args, url]);
  const cpu = process.cpuUsage(cpuBefore);
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const p50 = /\n\s+50%\s+(\S+)/.exec(stdout)?.[1];
  const p99 = /\n\s+99%\s+(\S+)/.exec(stdout)?.[1];
  if (!Number.isFinite(rps) || !p50 || !p99) throw new Error(`unreadable wrk output: ${stdout}`);
  if (/Non-2xx or 3xx responses/.test(stdout)) throw new Error(`errors under load: ${stdout}`);
  return { rps, p50Ms: toMs(p50), p99Ms: toMs(p99),
    cpuUsPerRequest: (cpu.user + cpu.system) / requests };
}

/** A bare uWS server answering the same bytes (or a bodiless 304) to every request. */
async function bare(body: Uint8Array | null): Promise<{ port: number; close(): void }> {
  const uWS = await import('uWebSockets.js');
  const app: TemplatedApp = uWS.App().any('/*', (res) => {
    if (body === null) res.writeStatus('304 Not Modified').endWithoutBody();
    else res.writeHeader('Content-Type', 'application/json').end(body);
  });
  const token = await new Promise<us_listen_socket>((resolve, reject) => app.listen('127.0.0.1',
    0, (t) => (t ? resolve(t) : reject(new Error('bare server could not listen')))));
  const port = uWS.us_socket_local_port(token as unknown as us_socket);
  return { port, close: () => { uWS.us_listen_socket_close(token); app.close(); } };
}

function seed(store: SnapshotStore): { pair: Buffer; screener: Buffer } {
  const nowMs = Date.now();
  const updatedAt = new Date(nowMs).toISOString();
  const row = (i: number) => ({ symbol: `SYM${i}`, dex: '', price: 100 + i, change24h: 1.5,
    volume24h: 1e8 + i, openInterest: 5e7, fundingRate: 0.0000125, fundingAnnualized: 10.95,
    delisted: false, tracked: i < 100, stale: false });
  const pairs = Array.from({ length: 180 }, (_, i) => row(i));
  const screener = Buffer.from(JSON.stringify({ pairs, count: pairs.length, updatedAt,
    cadenceMs: 5000 }));
  const pair = Buffer.from(JSON.stringify({ ...row(1), symbol: 'BTC', vpin: 0.4,
    vpinLevel: 'elevated', signalScore: 35, signalDirection: 'LONG', regime: 'trending',
    asOf: updatedAt, updatedAt, cadenceMs: 1000 }));
  store.put('screener', screener, { version: 1, updatedAtMs: nowMs, cadenceMs: 5000 });
  store.put('pair/BTC', pair, { version: 1, updatedAtMs: nowMs, cadenceMs: 1000 });
  return { pair, screener };
}

function rows(name: string, service: WrkResult, baseline: WrkResult, target: number):
  ReportRow[] {
  const ratio = service.rps / baseline.rps;
  return [
    { bench: 'http', figure: `${name} req/s`, value: service.rps, unit: 'req/s',
      baseline: baseline.rps, ratio, target: `>= ${target} x bare`, pass: ratio >= target },
    { bench: 'http', figure: `${name} server CPU/request`, value: service.cpuUsPerRequest,
      unit: 'us', baseline: baseline.cpuUsPerRequest,
      ratio: service.cpuUsPerRequest / baseline.cpuUsPerRequest,
      target: `<= ${(1 / target).toFixed(2)} x bare`,
      pass: service.cpuUsPerRequest / baseline.cpuUsPerRequest <= 1 / target },
    { bench: 'http', figure: `${name} p50`, value: service.p50Ms, unit: 'ms',
      baseline: baseline.p50Ms, ratio: service.p50Ms / baseline.p50Ms, target: '-', pass: null },
    { bench: 'http', figure: `${name} p99 @${CONNECTIONS}`, value: service.p99Ms, unit: 'ms',
      baseline: baseline.p99Ms, ratio: service.p99Ms / baseline.p99Ms, target: '< 5 ms',
      pass: service.p99Ms < 5 },
  ];
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  ensureWrk();
  const seconds = opts.quick ? 3 : 10;
  const store = new SnapshotStore();
  const bodies = seed(store);
  const keys = new MemoryKeys();
  const key = keyFor(1);
  keys.add(key, 'API');
  const server = await startHttpServer({
    config: resolveConfig({ host: '127.0.0.1', port: 0, limitsEnabled: false }),
    clock: systemClock, logger: silentLogger, snapshots: store, keys, usage: new MemoryUsage(),
    readiness: () => ({ ready: true, checks: {} }),
  });
  const auth = `Authorization: Bearer ${key}`;
  const etag = store.get('pair/BTC')!.etag;
  const scenarios = [
    { name: 'pair with key', path: '/api/v1/pair/BTC', headers: [auth], body: bodies.pair,
      target: 0.7 },
    { name: 'screener with key', path: '/api/v1/screener', headers: [auth],
      body: bodies.screener, target: 0.6 },
    { name: '304 revalidation', path: '/api/v1/pair/BTC', headers: [auth,
      `If-None-Match: ${etag}`], body: null, target: 0.7 },
  ];
  const report: ReportRow[] = [];
  try {
    for (const s of scenarios) {
      const baseline = await bare(s.body === null ? null : new Uint8Array(s.body));
      const bareResult = await wrk(`http://127.0.0.1:${baseline.port}${s.path}`, s.headers,
        seconds).finally(() => baseline.close());
      const serviceResult = await wrk(`http://127.0.0.1:${server.port}${s.path}`, s.headers,
        seconds);
      report.push(...rows(s.name, serviceResult, bareResult, s.target));
    }
  } finally {
    await server.close();
  }
  return report;
}

if (process.argv[1]?.endsWith('http.bench.ts')) printRows(await run({ quick }));
