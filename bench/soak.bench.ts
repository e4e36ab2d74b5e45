// Soak: polling from many keep-alive connections (1,000 for 10 min; --quick: 200 for 32 s)
// over a mix of views, while the simulator ingests at 10x the live rate. wrk runs in segments
// (1 min each; 8 s in --quick, which keeps `npm run bench -- --quick` under 3 minutes) and RSS
// is sampled at the end of each. Pass: the last sample within 10 % of the second (the first
// still includes warm-up), no errors, still ready.
import { join } from 'node:path';
import { printRows, quick, type ReportRow } from './harness.js';
import { getText } from './lib/http-get.js';
import { rssMB } from './lib/rss.js';
import { createKey, removeDir, startService, tempDataDir, waitFor, waitReady } from
  './lib/service.js';
import { ensureWrk, pathRotationScript, runWrk, type WrkResult } from './lib/wrk.js';

const paths = ['/api/v1/pair/BTC', '/api/v1/screener', '/api/v1/pair/ETH', '/api/v1/signals',
  '/api/v1/deep-view/BTC', '/api/v1/pair/SOL', '/api/v1/funding-arb', '/api/v1/pair/HYPE'];

interface Segment { readonly wrk: WrkResult; readonly rssMB: number }

function rows(segments: readonly Segment[], connections: number, segmentSeconds: number,
  readyAtEnd: boolean): ReportRow[] {
  const first = segments[0];
  const second = segments[1] ?? first;
  const last = segments[segments.length - 1];
  const errors = segments.reduce((n, s) => n + s.wrk.non2xx + s.wrk.socketErrors, 0);
  const requests = segments.reduce((n, s) => n + s.wrk.requests, 0);
  const p99Max = Math.max(...segments.map((s) => s.wrk.p99Ms));
  const drift = last.rssMB / second.rssMB;
  const where = `${connections} conns, ${segments.length} x ${segmentSeconds} s, sim at 10x`;
  const bench = 'soak';
  return [
    { bench, figure: `RSS last sample (${where}; baseline: second sample)`, value: last.rssMB,
      unit: 'MB', baseline: second.rssMB, ratio: drift, target: 'within 10 % of the second',
      pass: Math.abs(drift - 1) <= 0.1 },
    { bench, figure: 'RSS first sample (baseline: second sample)', value: first.rssMB,
      unit: 'MB', baseline: second.rssMB, ratio: first.rssMB / second.rssMB, target: '-',
      pass: null },
    { bench, figure: 'req/s in the last segment (baseline: first segment)', value: last.wrk.rps,
      unit: 'req/s', baseline: first.wrk.rps, ratio: last.wrk.rps / first.wrk.rps,
      target: '-', pass: null },
    { bench, figure: 'worst segment p99 (baseline: first segment p99)', value: p99Max,
      unit: 'ms', baseline: first.wrk.p99Ms, ratio: p99Max / first.wrk.p99Ms, target: '-',
      pass: null },
    { bench, figure: `non-2xx and socket errors in ${requests} requests`, value: errors, unit: '',
      baseline: null, ratio: null, target: '0', pass: errors === 0 },
    { bench, figure: '/readyz ready after the soak', value: readyAtEnd ? 1 : 0, unit: '',
      baseline: null, ratio: null, target: '1', pass: readyAtEnd },
  ];
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  ensureWrk();
  const connections = opts.quick ? 200 : 1_000;
  const segmentSeconds = opts.quick ? 8 : 60;
  const segmentCount = opts.quick ? 4 : 10;
  const dataDir = await tempDataDir('soak');
  try {
    const service = await startService({ dataDir, args: ['--speed', '10', '--limits', 'off'] });
    try {
      await waitReady(service.baseUrl);
      // Made while the server runs, as an operator would: it sees the key within a second.
      const auth = { authorization: `Bearer ${await createKey(dataDir, 'Whale')}` };
      await waitFor(`${service.baseUrl}/api/v1/deep-view/BTC`, auth, (s) => s === 200, 60_000);
      const script = await pathRotationScript(join(dataDir, 'soak.lua'), paths);
      const segments: Segment[] = [];
      for (let i = 0; i < segmentCount; i++) {
        const wrk = await runWrk(`${service.baseUrl}/`, { connections, seconds: segmentSeconds,
          headers: [`Authorization: ${auth.authorization}`], scriptPath: script });
        const rss = rssMB(service.pid);
        if (rss === null) throw new Error(`the service died in soak segment ${i + 1}`);
        segments.push({ wrk, rssMB: rss });
      }
      const ready = await getText(`${service.baseUrl}/readyz`);
      return rows(segments, connections, segmentSeconds,
        ready.status === 200 && /"ready":true/.test(ready.body));
    } finally {
      await service.stop();
    }
  } finally {
    await removeDir(dataDir);
  }
}

if (process.argv[1]?.endsWith('soak.bench.ts')) printRows(await run({ quick }));
