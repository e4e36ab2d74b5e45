// History on a scale-out front (docs/scale-out.md, "History"), with the real processes: Redis,
// one ingest with an hour of simulator warm-up recorded, and a front started after it. The
// front answers /api/v1/history/*, /api/v1/signals/history and /performance with the same
// status, bytes and ETag as ingest (from its own store, filled from ingest's stream), also for
// CSV and the errors, and again after a restart from where it stopped; a new front answers
// Arrow from its first request after /readyz turns ready.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tableFromIPC } from 'apache-arrow';
import { eventually, tempDir } from '../helpers/eventually.js';
import {
  historyPaths, startHistoryDeployment, type Answer, type HistoryDeployment,
} from '../helpers/history-deployment.js';
import { binPath, type ServiceProcess } from '../helpers/service-process.js';

let deployment: HistoryDeployment;
let front: ServiceProcess;
let frontDir = '';

const get = (base: string, path: string) => deployment.get(base, path);
const startFront = () => deployment.startRole(['--role', 'front', '--data-dir', frontDir]);

test.before(async () => {
  deployment = await startHistoryDeployment();
  frontDir = await tempDir();
  // Started after the warm-up was recorded: the front reads it from the stream's backlog.
  front = await startFront();
});

test.after(async () => {
  await deployment?.stop();
});

const recordedRange = () => deployment.recordedRange(5);
const sameAnswers = (paths: readonly string[], message: string) =>
  deployment.sameAnswers(front, paths, message);

function allPaths(fromIso: string, toIso: string): string[] {
  return [
    ...historyPaths(fromIso, toIso),
    '/api/v1/signals/history?limit=1000&start=0',
    '/api/v1/signals/performance?window=all&groupBy=timeframe',
    '/api/v1/signals/performance?window=7d',
  ];
}

test('a front answers history and the track record as ingest does', async () => {
  const { fromIso, toIso } = await recordedRange();
  await sameAnswers(allPaths(fromIso, toIso), 'same history on ingest and front');
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
  await sameAnswers(allPaths(fromIso, toIso), 'same history after the front restarted');
});

// What a user sees: a fresh front's Arrow library is loaded by the time its /readyz says 200,
// so the first Arrow request, sent in the same moment, is not 503 (the test does not warm it up).
test("a new front's first Arrow answer, right at its ready, is 200", async () => {
  const fresh = await deployment.startRole(['--role', 'front', '--data-dir', await tempDir()],
    {}, false);
  let first: Answer | null = null;
  await eventually(async () => {
    if (fresh.child.exitCode !== null) throw new Error(fresh.stderr().slice(-800));
    if ((await get(fresh.baseUrl, '/readyz')).status !== 200) return false;
    first = await get(fresh.baseUrl, '/api/v1/history/BTC?interval=1h&format=arrow');
    return true;
  }, { timeoutMs: 60_000, message: 'the new front ready' });
  fresh.child.kill('SIGTERM');
  await fresh.exited;
  const answer = first as Answer | null;
  assert.is(answer?.status, 200, answer?.body);
  assert.is(tableFromIPC(answer!.bytes).schema.fields[0]?.name, 't');
});

test('a bad history backlog stops serve with a message and exit code 2', () => {
  const result = spawnSync(process.execPath, [binPath, 'serve', '--role', 'ingest'],
    { encoding: 'utf8', env: { ...process.env, ...deployment.env,
      ORDERFLOW_HISTORY_BACKLOG_HOURS: '0' } });
  assert.is(result.status, 2, result.stderr);
  assert.match(result.stderr, /ORDERFLOW_HISTORY_BACKLOG_HOURS must be an integer/);
});

test.run();
