// History on a scale-out front (docs/scale-out.md, "History"), with the real processes: Redis,
// one ingest with an hour of simulator warm-up recorded, and a front started after it. The
// front answers /api/v1/history/*, /api/v1/signals/history and /performance with the same
// status, bytes and ETag as ingest (from its own store, filled from ingest's stream), also for
// CSV and the errors, and again after a restart from where it stopped.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, tempDir } from '../helpers/eventually.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { binPath, startServeProcess, type ServiceProcess } from '../helpers/service-process.js';

let redis: RedisServer;
let env: Record<string, string>;
let ingest: ServiceProcess;
let front: ServiceProcess;
let frontDir = '';
let auth: Record<string, string> = {};
const started: ServiceProcess[] = [];

async function get(base: string, path: string) {
  const response = await fetch(`${base}${path}`, { headers: auth });
  return { status: response.status, etag: response.headers.get('etag'),
    body: Buffer.from(await response.arrayBuffer()).toString() };
}

async function startRole(args: string[], extra: Record<string, string> = {}) {
  // Limits off: the comparisons ask far more than the history burst scope allows.
  const service = await startServeProcess([...args, '--limits', 'off'], { ...env, ...extra });
  started.push(service);
  await eventually(async () => {
    if (service.child.exitCode !== null) throw new Error(service.stderr().slice(-800));
    return (await get(service.baseUrl, '/readyz')).status === 200;
  }, { timeoutMs: 60_000, message: `${args[1]} ready` });
  return service;
}

const startFront = () => startRole(['--role', 'front', '--data-dir', frontDir]);

test.before(async () => {
  redis = await startRedisServer();
  env = { ORDERFLOW_REDIS_URL: redis.url, ORDERFLOW_SIM_WALLETS: '30' };
  ingest = await startRole(['--role', 'ingest', '--data-dir', await tempDir(), '--shards', '1'],
    { ORDERFLOW_WARMUP_HOURS: '1' });
  const made = spawnSync(process.execPath, [binPath, 'keys', 'create', '--plan', 'Whale',
    '--json'], { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.is(made.status, 0, made.stderr);
  auth = { authorization: `Bearer ${JSON.parse(made.stdout).key as string}` };
  frontDir = await tempDir();
  // Started after the warm-up was recorded: the front reads it from the stream's backlog.
  front = await startFront();
});

test.after(async () => {
  for (const service of started) service.child.kill('SIGKILL');
  await redis?.stop();
});

/** The warm-up's recorded range on ingest: its first and newest minute of BTC. */
async function recordedRange(): Promise<{ fromIso: string; toIso: string }> {
  const r = await get(ingest.baseUrl, '/api/v1/history/BTC?interval=1m&limit=300');
  assert.is(r.status, 200, r.body);
  const points = JSON.parse(r.body).points as { t: string }[];
  assert.ok(points.length >= 5, `ingest recorded ${points.length} minutes of BTC`);
  return { fromIso: points[0]!.t, toIso: points[points.length - 1]!.t };
}

/** Every path answers the same on ingest and the front (once the front has caught up). */
async function sameAnswers(paths: readonly string[], message: string): Promise<void> {
  await eventually(async () => {
    for (const path of paths) {
      const [a, b] = await Promise.all([get(ingest.baseUrl, path), get(front.baseUrl, path)]);
      if (a.status !== b.status || a.etag !== b.etag || a.body !== b.body) {
        throw new Error(`${path}: ingest ${a.status} ${a.body.slice(0, 160)} / front ` +
          `${b.status} ${b.body.slice(0, 160)}`);
      }
    }
    return true;
  }, { timeoutMs: 30_000, intervalMs: 250, message });
}

function historyPaths(fromIso: string, toIso: string): string[] {
  const range = `start=${fromIso}&end=${toIso}`;
  return [
    `/api/v1/history/BTC?interval=1m&limit=5000&${range}` +
      '&metrics=candle,openInterest,fundingRate,cvd,vpin,obi,ofi,signalScore,regime',
    `/api/v1/history/ETH?interval=5m&limit=4&${range}&metrics=candle,cvd`,
    `/api/v1/history/BTC?interval=1m&limit=500&${range}&format=csv&metrics=candle,vpin`,
    `/api/v1/history/BTC?interval=1h&limit=10&${range}`,
    // The newest page and its "now": the same once the front holds the same newest minute.
    '/api/v1/history/SOL?interval=15m&limit=8',
    '/api/v1/signals/history?limit=1000&start=0',
    '/api/v1/signals/performance?window=all&groupBy=timeframe',
    '/api/v1/signals/performance?window=7d',
  ];
}

test('a front answers history and the track record as ingest does', async () => {
  const { fromIso, toIso } = await recordedRange();
  await sameAnswers(historyPaths(fromIso, toIso), 'same history on ingest and front');
  const page = JSON.parse((await get(front.baseUrl,
    `/api/v1/history/BTC?interval=1m&limit=5000&start=${fromIso}&end=${toIso}`)).body);
  assert.ok(page.points.length >= 5, 'the front holds the warm-up minutes');
});

test('bad parameters and unknown symbols are the same 4xx on the front', async () => {
  const bad = ['/api/v1/history/BTC?interval=2m', '/api/v1/history/BTC?metrics=price',
    '/api/v1/history/NOPE_NOT_LISTED', '/api/v1/history/BTC?cursor=xyz',
    '/api/v1/signals/performance?window=1y', '/api/v1/signals/history?grade=Z'];
  for (const path of bad) {
    const r = await get(front.baseUrl, path);
    assert.ok(r.status >= 400 && r.status < 500, `${path}: ${r.status} ${r.body}`);
  }
  await sameAnswers(bad, 'same errors on ingest and front');
});

test('a restarted front resumes from its place in the stream', async () => {
  front.child.kill('SIGTERM');
  await front.exited;
  const { fromIso, toIso } = await recordedRange();
  front = await startFront();
  await sameAnswers(historyPaths(fromIso, toIso), 'same history after the front restarted');
});

test('a bad history backlog stops serve with a message and exit code 2', () => {
  const result = spawnSync(process.execPath, [binPath, 'serve', '--role', 'ingest'],
    { encoding: 'utf8', env: { ...process.env, ...env, ORDERFLOW_HISTORY_BACKLOG_HOURS: '0' } });
  assert.is(result.status, 2, result.stderr);
  assert.match(result.stderr, /ORDERFLOW_HISTORY_BACKLOG_HOURS must be an integer/);
});

test.run();
