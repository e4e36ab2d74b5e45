// End-to-end freshness: a trade sent by the venue stub (stamped with the wall clock) until the
// HTTP front serves a snapshot that includes it; p50/p99/p999 in a t-digest, idle (baseline)
// and while wrk polls the front. Target: p99 <= the view's cadence + 5 ms. See bench/README.md.
import { join } from 'node:path';
import { printRows, quick, type ReportRow } from './harness.js';
import { startFreshnessProbe, type Percentiles, type ProbeSnapshot } from
  './lib/freshness-probe.js';
import { getText } from './lib/http-get.js';
import { useLiveService, type LiveService } from './lib/live-service.js';
import { ensureWrk, pathRotationScript, runWrk, type WrkResult } from './lib/wrk.js';

const COIN = 'BTC';
const LOAD_CONNECTIONS = 64;
const targets = [
  { name: 'deep-view', path: `/api/v1/deep-view/${COIN}` },
  { name: 'pair', path: `/api/v1/pair/${COIN}` },
];
const loadPaths = ['/api/v1/pair/BTC', '/api/v1/pair/ETH', '/api/v1/screener',
  '/api/v1/deep-view/ETH', '/api/v1/pair/SOL', '/api/v1/signals'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentileRows(name: string, loaded: Percentiles, idle: Percentiles, cadenceMs: number):
  ReportRow[] {
  const row = (figure: string, value: number, baseline: number, target: string,
    pass: boolean | null): ReportRow => ({ bench: 'e2e-freshness', figure: `${name} ${figure}`,
    value, unit: 'ms', baseline, ratio: value / baseline, target, pass });
  const budgetMs = cadenceMs + 5;
  return [
    row(`p50 under load (n=${loaded.samples}; baseline idle)`, loaded.p50Ms, idle.p50Ms, '-',
      null),
    row('p99 under load (baseline idle)', loaded.p99Ms, idle.p99Ms, `<= ${budgetMs} ms`,
      loaded.p99Ms <= budgetMs),
    row('p999 under load (baseline idle)', loaded.p999Ms, idle.p999Ms, '-', null),
    row('p99 idle (baseline cadence)', idle.p99Ms, cadenceMs, `<= ${budgetMs} ms`,
      idle.p99Ms <= budgetMs),
  ];
}

function rowsOf(idle: ProbeSnapshot, loaded: ProbeSnapshot, load: WrkResult, cadenceMs: number):
  ReportRow[] {
  const rows: ReportRow[] = [];
  for (const { name } of targets) {
    rows.push(...percentileRows(name, loaded.freshness[name], idle.freshness[name], cadenceMs));
    const trip = loaded.roundTrip[name];
    rows.push({ bench: 'e2e-freshness', figure: `${name} probe round trip p99 under load ` +
      '(error bar of the samples; baseline idle)', value: trip.p99Ms, unit: 'ms',
    baseline: idle.roundTrip[name].p99Ms, ratio: trip.p99Ms / idle.roundTrip[name].p99Ms,
    target: '-', pass: null });
  }
  rows.push({ bench: 'e2e-freshness', figure: `polling load meanwhile: wrk ${LOAD_CONNECTIONS} ` +
    `connections over 6 views, p99 ${load.p99Ms.toFixed(1)} ms`, value: load.rps,
  unit: 'req/s', baseline: null, ratio: null, target: 'no errors',
  pass: load.non2xx === 0 && load.socketErrors === 0 });
  return rows;
}

async function measure(live: LiveService, idleSeconds: number, loadSeconds: number):
  Promise<ReportRow[]> {
  const { body } = await getText(`${live.service.baseUrl}${targets[0].path}`, live.auth);
  const cadenceMs = Number(/"cadenceMs":(\d+)/.exec(body)?.[1]);
  if (!(cadenceMs > 0)) throw new Error(`the deep view must carry cadenceMs (was ${body})`);
  const probe = startFreshnessProbe({ venue: live.venue, coin: COIN,
    baseUrl: live.service.baseUrl, headers: live.auth, targets, gapMsMin: 2, gapMsMax: 10 });
  try {
    await probe.warmedUp(30_000);
    probe.reset();
    await sleep(idleSeconds * 1000);
    const idle = probe.snapshot();
    probe.reset();
    const script = await pathRotationScript(join(live.service.dataDir, 'paths.lua'), loadPaths);
    const load = await runWrk(`${live.service.baseUrl}/`, { connections: LOAD_CONNECTIONS,
      seconds: loadSeconds, headers: [`Authorization: ${live.auth.authorization}`],
      scriptPath: script });
    return rowsOf(idle, probe.snapshot(), load, cadenceMs);
  } finally {
    await probe.stop();
  }
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  ensureWrk();
  return useLiveService('freshness', COIN, (live) =>
    measure(live, opts.quick ? 3 : 30, opts.quick ? 5 : 60));
}

if (process.argv[1]?.endsWith('e2e-freshness.bench.ts')) printRows(await run({ quick }));
