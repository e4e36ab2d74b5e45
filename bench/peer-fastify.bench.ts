// Our pair endpoint against a fastify peer that builds the same JSON per request from the same
// data (seeded from our own /api/v1/pair/* answers), both driven by the same wrk load in turn.
// Target: at least 3x the peer's requests/s at an equal or better p99.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { printRows, quick, type ReportRow } from './harness.js';
import { getText } from './lib/http-get.js';
import { useLiveService, type LiveService } from './lib/live-service.js';
import { startPeer } from './lib/peer-process.js';
import { ensureWrk, pinProcess, procCpuUs, runWrk, type WrkResult } from './lib/wrk.js';

const CONNECTIONS = 128;
const PATH = '/api/v1/pair/BTC';

/** Every screener symbol's pair body, keyed by symbol: the peer's in-memory data. */
async function seedFromService(live: LiveService): Promise<Record<string, unknown>> {
  const base = live.service.baseUrl;
  const screener = JSON.parse((await getText(`${base}/api/v1/screener`, live.auth)).body) as
    { pairs?: { symbol: string }[] };
  const seed: Record<string, unknown> = {};
  for (const { symbol } of screener.pairs ?? []) {
    const { status, body } = await getText(`${base}/api/v1/pair/${encodeURIComponent(symbol)}`,
      live.auth);
    if (status === 200) seed[symbol] = JSON.parse(body);
  }
  if (!seed.BTC) throw new Error('the service must serve /api/v1/pair/BTC to seed the peer');
  return seed;
}

/** A wrk run and the server's CPU time per request meanwhile (all its threads). */
interface Run extends WrkResult {
  readonly cpuUsPerRequest: number;
}

function mean(results: readonly Run[], pick: (r: Run) => number): number {
  return results.reduce((sum, r) => sum + pick(r), 0) / results.length;
}

function rowsOf(ours: readonly Run[], peer: readonly Run[], pairs: number, pinned: boolean):
  ReportRow[] {
  const oursRps = mean(ours, (r) => r.rps);
  const peerRps = mean(peer, (r) => r.rps);
  const oursP99 = mean(ours, (r) => r.p99Ms);
  const peerP99 = mean(peer, (r) => r.p99Ms);
  const errors = [...ours, ...peer].reduce((n, r) => n + r.non2xx + r.socketErrors, 0);
  const bench = 'peer-fastify';
  return [
    { bench, figure: `pair req/s, ours vs fastify peer (${pairs} pairs seeded, ` +
      `wrk ${CONNECTIONS} conns${pinned ? '; each server on core 1, wrk on core 0' : ''})`,
    value: oursRps, unit: 'req/s', baseline: peerRps,
    ratio: oursRps / peerRps, target: '>= 3 x peer', pass: oursRps / peerRps >= 3 },
    { bench, figure: 'pair p99, ours vs fastify peer', value: oursP99, unit: 'ms',
      baseline: peerP99, ratio: oursP99 / peerP99, target: '<= peer', pass: oursP99 <= peerP99 },
    // Steadier than req/s on a shared machine: what each answer costs its server.
    { bench, figure: 'pair server CPU/request, ours (all threads) vs fastify peer',
      value: mean(ours, (r) => r.cpuUsPerRequest), unit: 'us',
      baseline: mean(peer, (r) => r.cpuUsPerRequest),
      ratio: mean(ours, (r) => r.cpuUsPerRequest) / mean(peer, (r) => r.cpuUsPerRequest),
      target: '-', pass: null },
    { bench, figure: 'pair p50, ours vs fastify peer', value: mean(ours, (r) => r.p50Ms),
      unit: 'ms', baseline: mean(peer, (r) => r.p50Ms),
      ratio: mean(ours, (r) => r.p50Ms) / mean(peer, (r) => r.p50Ms), target: '-', pass: null },
    { bench, figure: 'non-2xx and socket errors, both servers', value: errors, unit: '',
      baseline: null, ratio: null, target: '0', pass: errors === 0 },
  ];
}

async function compare(live: LiveService, seconds: number, rounds: number):
  Promise<ReportRow[]> {
  const seed = await seedFromService(live);
  const seedFile = join(live.service.dataDir, 'peer-seed.json');
  await writeFile(seedFile, JSON.stringify(seed));
  const peer = await startPeer(seedFile, createHash('sha256').update(live.key).digest('hex'));
  try {
    const headers = [`Authorization: ${live.auth.authorization}`];
    // Each server (all its threads: our shards too) gets core 1, wrk core 0: on 2 cores the
    // three otherwise share both and req/s says more about the scheduler than the server.
    const pinned = cpus().length >= 2;
    if (pinned) for (const pid of [live.service.pid, peer.pid]) pinProcess(pid, '1');
    const wrkCpus = pinned ? '0' : undefined;
    // One unmeasured second each: JIT and connection set-up are not what is compared.
    for (const base of [peer.baseUrl, live.service.baseUrl]) {
      await runWrk(base + PATH, { connections: CONNECTIONS, seconds: 1, headers, cpus: wrkCpus });
    }
    const ours: Run[] = [];
    const theirs: Run[] = [];
    const cpuOf = { ours: procCpuUs(live.service.pid), peer: procCpuUs(peer.pid) };
    for (let round = 0; round < rounds; round++) {
      // Alternate who goes first, so a machine that gets busier favours neither.
      const order = round % 2 === 0 ? ['peer', 'ours'] as const : ['ours', 'peer'] as const;
      for (const who of order) {
        const base = who === 'ours' ? live.service.baseUrl : peer.baseUrl;
        const cpuBeforeUs = cpuOf[who]();
        const result = await runWrk(base + PATH,
          { connections: CONNECTIONS, seconds, headers, cpus: wrkCpus });
        const cpuUsPerRequest = (cpuOf[who]() - cpuBeforeUs) / result.requests;
        (who === 'ours' ? ours : theirs).push({ ...result, cpuUsPerRequest });
      }
    }
    return rowsOf(ours, theirs, Object.keys(seed).length, pinned);
  } finally {
    // The live service is shared with other benches: give it every core back.
    pinProcess(live.service.pid, `0-${cpus().length - 1}`);
    await peer.stop();
  }
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  ensureWrk();
  return useLiveService('peer', 'BTC', (live) =>
    compare(live, opts.quick ? 3 : 10, opts.quick ? 1 : 2));
}

if (process.argv[1]?.endsWith('peer-fastify.bench.ts')) printRows(await run({ quick }));
