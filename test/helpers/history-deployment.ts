// A scale-out deployment for the history tests, with the real processes: Redis, one ingest with
// an hour of simulator warm-up recorded, a Whale key (history needs Pro or above), and fronts or
// more roles started on demand with limits off (the comparisons ask far more than the history
// burst scope allows).
import { spawnSync } from 'node:child_process';
import * as assert from 'uvu/assert';
import { eventually, tempDir } from './eventually.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { binPath, startServeProcess, type ServiceProcess } from './service-process.js';

/** History pages over a recorded range, in every interval kind and format. */
export function historyPaths(fromIso: string, toIso: string): string[] {
  const range = `start=${fromIso}&end=${toIso}`;
  return [
    `/api/v1/history/BTC?interval=1m&limit=5000&${range}` +
      '&metrics=candle,openInterest,fundingRate,cvd,vpin,obi,ofi,signalScore,regime',
    `/api/v1/history/ETH?interval=5m&limit=4&${range}&metrics=candle,cvd`,
    `/api/v1/history/BTC?interval=1m&limit=500&${range}&format=csv&metrics=candle,vpin`,
    `/api/v1/history/BTC?interval=1h&limit=10&${range}`,
    // The newest page and its "now": the same once the front holds the same newest minute.
    '/api/v1/history/SOL?interval=15m&limit=8',
  ];
}

export interface Answer {
  readonly status: number;
  readonly etag: string | null;
  readonly body: string;
  /** The body as sent (Arrow's stream is not text). */
  readonly bytes: Buffer;
}

export interface HistoryDeployment {
  readonly redis: RedisServer;
  /** ORDERFLOW_REDIS_URL and the simulator's wallet count, for every role and command. */
  readonly env: Record<string, string>;
  readonly ingest: ServiceProcess;
  /** A GET with the Whale key. */
  get(base: string, path: string): Promise<Answer>;
  /** A role started and listening; `ready` (default): its /readyz also answered 200. */
  startRole(args: string[], extra?: Record<string, string>, ready?: boolean):
    Promise<ServiceProcess>;
  /** Waits until every path answers the same status, ETag and bytes on ingest and `front`. */
  sameAnswers(front: ServiceProcess, paths: readonly string[], message: string): Promise<void>;
  /** The warm-up's recorded range on ingest: its first and newest minute of BTC. */
  recordedRange(pointsMin: number): Promise<{ fromIso: string; toIso: string }>;
  /** Kills every role and stops Redis. */
  stop(): Promise<void>;
}

/** `ingestEnv`: more of ingest's environment (its simulator's speed, say). */
export async function startHistoryDeployment(ingestEnv: Record<string, string> = {}):
  Promise<HistoryDeployment> {
  const redis = await startRedisServer();
  const env = { ORDERFLOW_REDIS_URL: redis.url, ORDERFLOW_SIM_WALLETS: '30' };
  const started: ServiceProcess[] = [];
  let auth: Record<string, string> = {};
  const get = async (base: string, path: string): Promise<Answer> => {
    const response = await fetch(`${base}${path}`, { headers: auth,
      signal: AbortSignal.timeout(10_000) });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, etag: response.headers.get('etag'),
      body: bytes.toString(), bytes };
  };
  const startRole = async (args: string[], extra: Record<string, string> = {}, ready = true) => {
    const service = await startServeProcess([...args, '--limits', 'off'], { ...env, ...extra });
    started.push(service);
    if (ready) {
      await eventually(async () => {
        if (service.child.exitCode !== null) throw new Error(service.stderr().slice(-800));
        return (await get(service.baseUrl, '/readyz')).status === 200;
      }, { timeoutMs: 60_000, message: `${args[1]} ready` });
    }
    return service;
  };
  const ingest = await startRole(['--role', 'ingest', '--data-dir', await tempDir(),
    '--shards', '1'], { ORDERFLOW_WARMUP_HOURS: '1', ...ingestEnv });
  const made = spawnSync(process.execPath, [binPath, 'keys', 'create', '--plan', 'Whale',
    '--json'], { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.is(made.status, 0, made.stderr);
  auth = { authorization: `Bearer ${JSON.parse(made.stdout).key as string}` };
  // The new key holds on ingest within a second (its mirror of the key table).
  await eventually(async () =>
    (await get(ingest.baseUrl, '/api/v1/history/BTC?limit=1')).status === 200,
  { timeoutMs: 10_000, message: 'the key holds on ingest' });
  const sameAnswers = async (front: ServiceProcess, paths: readonly string[], message: string) => {
    await eventually(async () => {
      // While the front copies from ingest its history ETags carry the chunk count
      // (history-copy.ts), so no page matches before the copy ends; a new front's copy starts
      // a moment after its ready (its first stream read) and on a busy machine outlasted a 30 s
      // comparison (asks to the lower-priority ingest time out and back off): the wait covers
      // the copy, and a failure says whether it was still under way.
      const copying = (JSON.parse((await get(front.baseUrl, '/readyz')).body) as
        { detail?: { history?: string } }).detail?.history;
      if (copying !== undefined) throw new Error(`the front's copy is under way: ${copying}`);
      for (const path of paths) {
        const [a, b] = await Promise.all([get(ingest.baseUrl, path), get(front.baseUrl, path)]);
        if (a.status !== b.status || a.etag !== b.etag || a.body !== b.body) {
          throw new Error(`${path}: ingest ${a.status} ${a.etag} ${a.body.slice(0, 160)} / ` +
            `front ${b.status} ${b.etag} ${b.body.slice(0, 160)}`);
        }
      }
      return true;
    }, { timeoutMs: 120_000, intervalMs: 250, message });
  };
  // The warm-up's past is written after /readyz (docs/scale-out.md), later still for an ingest at
  // its lower CPU priority on a busy machine: waited for, not assumed.
  const recordedRange = async (pointsMin: number) => {
    let points: { t: string }[] = [];
    await eventually(async () => {
      const r = await get(ingest.baseUrl, '/api/v1/history/BTC?interval=1m&limit=300');
      assert.is(r.status, 200, r.body);
      points = JSON.parse(r.body).points as { t: string }[];
      if (points.length < pointsMin) {
        throw new Error(`ingest recorded ${points.length} minutes of BTC (${pointsMin} wanted)`);
      }
      return true;
    }, { timeoutMs: 30_000, intervalMs: 250, message: 'ingest recorded the warm-up' });
    return { fromIso: points[0]!.t, toIso: points[points.length - 1]!.t };
  };
  return {
    redis, env, ingest, get, startRole, sameAnswers, recordedRange,
    async stop() {
      for (const service of started) service.child.kill('SIGKILL');
      await redis.stop();
    },
  };
}
