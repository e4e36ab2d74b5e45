// The bulk history copy of a scale-out front (docs/scale-out.md, "History on the fronts"), with
// the real processes: Redis, one ingest with an hour of simulator warm-up recorded, its stream
// then trimmed as ingest trims it once the backlog has passed (XTRIM: the stream's ids are
// Redis' own wall time, so no service clock moves them), and fronts started after that. A front
// copies the older range from ingest and answers it byte for byte as ingest does; a copy cut by
// a Redis stop, or by the front's kill, goes on and completes; a front whose ingest never
// answers serves what it has and says on /readyz what it lacks.
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, tempDir } from '../helpers/eventually.js';
import {
  historyPaths as pathsOver, startHistoryDeployment, type HistoryDeployment,
} from '../helpers/history-deployment.js';
import { binPath, type ServiceProcess } from '../helpers/service-process.js';

let deployment: HistoryDeployment;
let ingest: ServiceProcess;
let recorded = { fromIso: '', toIso: '' };

const get = (base: string, path: string) => deployment.get(base, path);

interface Ready { ready: boolean; detail?: { history?: string } }
const readyz = async (service: ServiceProcess) =>
  JSON.parse((await get(service.baseUrl, '/readyz')).body) as Ready;

const startFront = async (extra: Record<string, string> = {}, ready = true) =>
  deployment.startRole(['--role', 'front', '--data-dir', await tempDir()], extra, ready);

test.before(async () => {
  deployment = await startHistoryDeployment();
  ingest = deployment.ingest;
  recorded = await deployment.recordedRange(30);
  // The backlog has passed: the warm-up's entries leave the stream, the last two stay.
  const client = new Redis(deployment.redis.url);
  await client.xtrim('orderflow:history', 'MAXLEN', 2);
  client.disconnect();
});

test.after(async () => {
  await deployment?.stop();
});

/** The recorded range's pages, and the days (from the copied hours). */
const historyPaths = () => [...pathsOver(recorded.fromIso, recorded.toIso),
  '/api/v1/history/BTC?interval=1d&limit=3'];

const sameAnswers = (front: ServiceProcess, message: string) =>
  deployment.sameAnswers(front, historyPaths(), message);

const pointsOn = async (service: ServiceProcess) => (JSON.parse((await get(service.baseUrl,
  historyPaths()[0]!)).body).points as unknown[]).length;

test('a front started after the backlog copies the older history from ingest', async () => {
  const front = await startFront();
  await eventually(async () => (await readyz(front)).detail?.history === undefined,
    { timeoutMs: 30_000, message: 'the copy is done' });
  await sameAnswers(front, 'same history on ingest and on the front that copied it');
  assert.ok(await pointsOn(front) >= 30, 'the front holds the warm-up minutes');
});

/** Points copied so far by a copy under way, as /readyz says; 0 when none is. */
async function copiedSoFar(front: ServiceProcess): Promise<number> {
  const detail = (await readyz(front).catch(() => ({} as Ready))).detail?.history ?? '';
  return Number(/\((\d+) points so far/.exec(detail)?.[1] ?? 0);
}

// Hundreds of chunks, so a stop lands in the middle of the copy: ten points a chunk for each
// hour ingest warmed up (a warm-up generates from the UTC midnight before its hour).
const warmedHours = 1 + (Date.now() % 86_400_000) / 3_600_000;
const smallChunks = { ORDERFLOW_HISTORY_COPY_CHUNK_POINTS: String(Math.ceil(10 * warmedHours)) };

const copyUnderWay = (front: ServiceProcess) => eventually(async () =>
  await copiedSoFar(front) > 0, { timeoutMs: 60_000, intervalMs: 5, message: 'a copy under way' });

test('a copy cut by a Redis stop goes on when Redis is back, and completes', async () => {
  const front = await startFront(smallChunks, false);
  await copyUnderWay(front);
  await deployment.redis.stop({ save: true });
  const during = await readyz(front);
  assert.match(during.detail?.history ?? '', /is being copied from ingest/);
  // Answers from what it holds meanwhile: no wait on Redis or on ingest.
  assert.is((await get(front.baseUrl, historyPaths()[0]!)).status, 200);
  await deployment.redis.start();
  await eventually(async () => (await readyz(front)).detail?.history === undefined,
    { timeoutMs: 60_000, message: 'the copy completes after Redis is back' });
  await sameAnswers(front, 'same history after the interrupted copy');
});

test('a front killed mid-copy goes on from its saved cursor after a restart', async () => {
  const args = ['--role', 'front', '--data-dir', await tempDir()];
  let front = await deployment.startRole(args, smallChunks, false);
  await copyUnderWay(front);
  // Ingest paused: the copy cannot end before the restarted front is asked where it stands.
  ingest.child.kill('SIGSTOP');
  try {
    front.child.kill('SIGKILL');
    await front.exited;
    front = await deployment.startRole(args, smallChunks, false);
    assert.ok(await copiedSoFar(front) > 0, 'the restarted front goes on from its cursor');
  } finally {
    ingest.child.kill('SIGCONT');
  }
  await eventually(async () => (await readyz(front)).detail?.history === undefined,
    { timeoutMs: 60_000, message: 'the resumed copy completes' });
  await sameAnswers(front, 'same history after the front was killed mid-copy');
});

test('a front whose ingest never answers serves what it has and says what it lacks', async () => {
  ingest.child.kill('SIGKILL');
  await ingest.exited;
  // Something listens for copy asks and never answers (an ingest stuck), so asks time out.
  const silent = new Redis(deployment.redis.url);
  await silent.subscribe('orderflow:history-copy:ask');
  try {
    const front = await startFront({}, false);
    await eventually(async () => /waiting: ingest did not answer/
      .test((await readyz(front)).detail?.history ?? ''),
    { timeoutMs: 30_000, message: '/readyz names the missing history' });
    const r = await get(front.baseUrl, historyPaths()[0]!);
    assert.ok(r.status === 200 || r.status === 404, `${r.status} ${r.body.slice(0, 200)}`);
    assert.is(front.child.exitCode, null, 'the front runs on');
  } finally {
    silent.disconnect();
  }
});

test('a bad copy chunk size stops serve with a message and exit code 2', () => {
  const result = spawnSync(process.execPath, [binPath, 'serve', '--role', 'front'],
    { encoding: 'utf8',
      env: { ...process.env, ...deployment.env, ORDERFLOW_HISTORY_COPY_CHUNK_POINTS: '0' } });
  assert.is(result.status, 2, result.stderr);
  assert.match(result.stderr, /ORDERFLOW_HISTORY_COPY_CHUNK_POINTS must be an integer/);
});

test.run();
