// The worker threads run at a lower CPU priority than the main thread, which answers the
// requests (core/thread-priority.ts): a worker lowers its own thread only, the main thread and
// other platforms are left alone, and a running service has its shards and views worker
// reniced by ORDERFLOW_WORKER_NICE (default 10) over its main thread.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ConfigError, defaultConfig, resolveConfig } from '../../core/config.js';
import { lowerWorkerPriority } from '../../core/thread-priority.js';
import { serveOverride } from '../../bin/serve-config.js';
import { startServeProcess } from '../helpers/service-process.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { threadNice } from '../helpers/thread-nices.js';


/**
 * In a child process (so the test runner keeps its priority), the call as a worker thread makes
 * it: its own thread's nice, and the others', before and after.
 */
function callAsWorker(increment: number, platform: string): { lowered: boolean;
  before: number[]; self: number; others: number[] } {
  const script = `
    import { lowerWorkerPriority } from './core/thread-priority.ts';
    import { threadNice, threadNices } from './test/helpers/thread-nices.ts';
    import { readdirSync, readlinkSync } from 'node:fs';
    const before = threadNices(process.pid);
    const lowered = lowerWorkerPriority(${increment}, ${JSON.stringify(platform)}, false);
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    const self = threadNice(process.pid, tid);
    const others = readdirSync('/proc/self/task').map(Number).filter((t) => t !== tid)
      .map((t) => threadNice(process.pid, t));
    console.log(JSON.stringify({ lowered, before, self, others }));
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
    script], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname });
  assert.is(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test('a worker lowers its own thread only; the main thread and other systems are left', () => {
  const base = Math.max(...callAsWorker(0, 'linux').before);
  const lowered = callAsWorker(7, 'linux');
  assert.is(lowered.lowered, true);
  assert.is(lowered.self, Math.min(19, base + 7));
  assert.ok(lowered.others.length > 0 && lowered.others.every((nice) => nice === base),
    `the process's other threads keep theirs: ${lowered.others}`);
  const elsewhere = callAsWorker(7, 'darwin');
  assert.equal([elsewhere.lowered, elsewhere.self], [false, base],
    'elsewhere setpriority would renice the whole process');
  assert.is(callAsWorker(0, 'linux').lowered, false);
  const mainNice = threadNice(process.pid, process.pid);
  assert.is(lowerWorkerPriority(7), false, 'not on the main thread');
  assert.is(threadNice(process.pid, process.pid), mainNice);
});

test('ORDERFLOW_WORKER_NICE: 10 by default, 0 to 19, refused otherwise', () => {
  assert.is(defaultConfig.workerNice, 10);
  assert.is(resolveConfig(serveOverride({}, { ORDERFLOW_WORKER_NICE: '0' })).workerNice, 0);
  for (const bad of [-1, 20, 2.5]) {
    assert.throws(() => resolveConfig({ workerNice: bad }), (e: Error) =>
      e instanceof ConfigError && /workerNice must be an integer from 0 to 19/.test(e.message));
  }
  assert.throws(() => serveOverride({}, { ORDERFLOW_WORKER_NICE: 'low' }),
    /ORDERFLOW_WORKER_NICE must be a whole number \(was 'low'\)/);
});

test('a running service: its shards and views worker below its main thread', async () => {
  const service = await startServeProcess(['--data-dir', join(await tempDir(), 'data'),
    '--shards', '2']);
  try {
    const pid = service.child.pid!;
    const mainNice = threadNice(pid, pid);
    const reniced = () => readdirSync(`/proc/${pid}/task`).map(Number)
      .filter((tid) => threadNice(pid, tid) === Math.min(19, mainNice + 10));
    // Two shards and the views worker, once each has started.
    await eventually(() => reniced().length === 3,
      { timeoutMs: 30_000, message: 'three worker threads reniced by 10' });
    assert.is(threadNice(pid, pid), mainNice);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
  }
});

test.run();
