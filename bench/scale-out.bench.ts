// Scale-out bench (docs/scale-out.md), against a real redis-server on loopback:
// 1. A front with Redis-backed limits serving /api/v1/pair/BTC with keys, against the same front
//    with local limits, same run, same wrk load (the target: >= 0.8x). Two loads: keys
//    spread so every request is admitted (each one takes its Redis step), and one key polling
//    far past its burst limit (refused, as a real over-eager client is).
// 2. Snapshot propagation ingest -> front (bench/lib/propagation.ts): from ingest's publisher
//    having a view's bytes to the front (a process of its own) holding them, through Redis, one
//    view at a time and 300 in one turn, p50/p99 (target p99 < 5 ms; the cadence comes on top,
//    as the producer's own refresh period). `--propagation-only` runs these rounds alone,
//    `--throughput-only` the throughput rounds (1.) alone. In a whole run the propagation rounds
//    run in a child process of their own: there this process is ingest, and the throughput
//    rounds left ~45 MB of their own on its heap (two fronts, thousands of keys' identities),
//    which made its scavenges in the rounds 10-12 ms instead of 5-7 (bench/README.md).
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { systemClock } from '../core/clock.js';
import { resolveConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { createAccessControl } from '../http/access.js';
import { startHttpServer, type HttpServer } from '../http/server.js';
import { createSharedAccessControl } from '../scale-out/shared-access.js';
import { SnapshotStore } from '../http/snapshots.js';
import { openSharedState, type SharedState } from '../scale-out/shared-state.js';
import { MemoryKeys, MemoryUsage } from '../test/http/helpers/seed.js';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { printRows, quick, type ReportRow } from './harness.js';
import { ensureWrk, runWrk } from './lib/wrk.js';
import { pairBody, propagation } from './lib/propagation.js';
import { redisCpuUs } from './lib/redis-cpu.js';
import { track } from './lib/children.js';

const CONNECTIONS = 64;
const bench = 'scale-out';

/**
 * A wrk script sending each request with the next key of the list. The requests are formatted
 * once, in `init`: a `wrk.format` per request cost wrk about 29 us of CPU a request (21 us
 * prebuilt), on the same two cores as the fronts; a lighter load generator leaves more of them
 * to the fronts, which makes the ratio stricter, not looser (wrk's cost is added to both).
 */
async function keyRotationScript(keys: readonly string[]): Promise<string> {
  const file = join(tmpdir(), `orderflow-keys-${process.pid}.lua`);
  await writeFile(file, `local keys = { ${keys.map((k) => JSON.stringify(k)).join(', ')} }\n` +
    'local requests = {}\nlocal i = 0\ninit = function(args)\n' +
    '  for k, key in ipairs(keys) do\n' +
    '    requests[k] = wrk.format(nil, nil, { ["Authorization"] = "Bearer " .. key })\n' +
    '  end\nend\nrequest = function()\n  i = (i % #requests) + 1\n  return requests[i]\nend\n');
  return file;
}

/** redis-server's EVALSHA calls so far (INFO commandstats). */
async function scriptCalls(shared: SharedState): Promise<number> {
  const info = await shared.link.command.info('commandstats');
  return Number(/^cmdstat_evalsha:calls=(\d+)/m.exec(info)?.[1] ?? 0);
}

interface Front { readonly url: string; readonly server: HttpServer }

async function front(shared: SharedState | null, keys: MemoryKeys): Promise<Front> {
  const config = resolveConfig({ host: '127.0.0.1', port: 0 });
  const store = new SnapshotStore();
  const nowMs = Date.now();
  store.put('pair/BTC', pairBody('BTC', nowMs),
    { version: 1, updatedAtMs: nowMs, cadenceMs: 1000 });
  const usage = new MemoryUsage();
  const clock = systemClock;
  const access = shared === null
    ? createAccessControl({ config, clock, keys, usage })
    : createSharedAccessControl({ config, clock, keys: shared.keys, usage,
      limits: shared.limits, redisReady: shared.link.ready,
      fresh: () => true });
  const server = await startHttpServer({ config, clock, logger: silentLogger, snapshots: store,
    keys: shared?.keys ?? keys, usage, access, readiness: () => ({ ready: true, checks: {} }) });
  return { url: `http://127.0.0.1:${server.port}`, server };
}

async function throughput(shared: SharedState, seconds: number, rounds: number):
  Promise<ReportRow[]> {
  // Enough keys that no key reaches its burst limit (60 a minute) in the run, on either front:
  // the local front's windows fill too (1,500 keys let it refuse in its later rounds, 4,000
  // once wrk's requests were prebuilt and the local front reached 22,000 req/s, and 10,000 on
  // an Intel Xeon where it reached 63,000). Sized for every round of a front within one
  // minute at 100,000 req/s, at most 50 requests a key.
  const keyCount = Math.ceil((rounds * seconds * 100_000) / 50);
  const local = new MemoryKeys();
  const keys: string[] = [];
  for (let i = 0; i < keyCount; i++) {
    const { key, record } = await shared.keys.create({ plan: 'Whale' });
    local.add(key, 'Whale', { prefix: record.prefix, digest: record.digest });
    keys.push(key);
  }
  const rotation = await keyRotationScript(keys);
  const fronts = { local: await front(null, local), redis: await front(shared, local) };
  const rows: ReportRow[] = [];
  const scenarios = [
    { name: 'admitted (keys spread)', script: rotation, headers: [] as string[] },
    { name: 'one key past its burst', script: undefined,
      headers: [`Authorization: Bearer ${keys[0]}`] },
  ];
  for (const scenario of scenarios) {
    const rps: Record<'local' | 'redis', number[]> = { local: [], redis: [] };
    // This process's CPU per request (the front, with its Redis client; not redis-server).
    const cpu: Record<'local' | 'redis', number[]> = { local: [], redis: [] };
    // redis-server's own CPU per request of the Redis-backed front (its Lua step).
    const serverCpu: number[] = [];
    // Requests per EVALSHA (one call per front's event-loop turn): the batch size Redis sees.
    const batch: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ['local', 'redis'] as const : ['redis', 'local'] as const;
      for (const which of order) {
        const before = process.cpuUsage();
        const serverBeforeUs = await redisCpuUs(shared);
        const callsBefore = await scriptCalls(shared);
        const r = await runWrk(`${fronts[which].url}/api/v1/pair/BTC`, { connections: CONNECTIONS,
          seconds, scriptPath: scenario.script, headers: scenario.headers });
        const used = process.cpuUsage(before);
        if (scenario.script !== undefined && r.non2xx > 0) {
          throw new Error(`${which} front refused ${r.non2xx} requests meant to be admitted`);
        }
        rps[which].push(r.rps);
        cpu[which].push((used.user + used.system) / r.requests);
        if (which === 'redis') {
          serverCpu.push((await redisCpuUs(shared) - serverBeforeUs) / r.requests);
          batch.push(r.requests / Math.max(1, await scriptCalls(shared) - callsBefore));
        }
      }
    }
    const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
    const value = median(rps.redis);
    const baseline = median(rps.local);
    rows.push({ bench, figure: `pair/BTC with a key, ${scenario.name}: Redis limits vs local`,
      value, unit: 'req/s', baseline, ratio: value / baseline, target: '>= 0.8x',
      pass: value / baseline >= 0.8 });
    const cpuValue = median(cpu.redis);
    const cpuBaseline = median(cpu.local);
    rows.push({ bench, figure: `front CPU per request, ${scenario.name}: Redis limits vs local`,
      value: cpuValue, unit: 'us', baseline: cpuBaseline, ratio: cpuValue / cpuBaseline,
      target: '-', pass: null });
    rows.push({ bench, figure: `redis-server CPU per request, ${scenario.name}`,
      value: median(serverCpu), unit: 'us', baseline: null, ratio: null, target: '-',
      pass: null });
    rows.push({ bench, figure: `requests per Redis script call, ${scenario.name}`,
      value: median(batch), unit: 'requests', baseline: null, ratio: null, target: '-',
      pass: null });
  }
  for (const f of Object.values(fronts)) await f.server.close();
  return rows;
}

/** The propagation rounds in a fresh process (`--propagation-only --rows-json`), their rows. */
async function propagationInChild(quickRun: boolean): Promise<ReportRow[]> {
  const script = new URL(import.meta.url).pathname;
  const args = ['--import', 'tsx', script, '--propagation-only', '--rows-json'];
  if (quickRun) args.push('--quick');
  const pending = promisify(execFile)(process.execPath, args,
    { timeout: 10 * 60_000, maxBuffer: 1024 * 1024 });
  track(pending.child);
  const { stdout } = await pending;
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as ReportRow[];
}

export async function run(opts: { quick: boolean; propagationOnly?: boolean;
  throughputOnly?: boolean }): Promise<ReportRow[]> {
  if (opts.propagationOnly !== true && opts.throughputOnly !== true) {
    const rows = await run({ ...opts, throughputOnly: true });
    return [...rows, ...await propagationInChild(opts.quick)];
  }
  const redis = await startRedisServer();
  const shared = await openSharedState(redis.url, systemClock, silentLogger);
  try {
    const rows: ReportRow[] = [];
    if (opts.propagationOnly !== true) {
      ensureWrk();
      rows.push(...await throughput(shared, opts.quick ? 3 : 8, opts.quick ? 3 : 5));
    }
    if (opts.throughputOnly !== true) {
      rows.push(...await propagation(shared, redis.url, opts.quick ? 20 : 60));
    }
    return rows;
  } finally {
    await shared.close();
    await redis.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run({ quick, propagationOnly: process.argv.includes('--propagation-only'),
    throughputOnly: process.argv.includes('--throughput-only') }).then((rows) => {
    if (process.argv.includes('--rows-json')) process.stdout.write(`${JSON.stringify(rows)}\n`);
    else printRows(rows);
    process.exit(0);
  }, (error: Error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  });
}
