// `--nice` / ORDERFLOW_NICE (scale-out/cpu-priority.ts): the value and its defaults per role,
// and lowering a real process: every thread it had, and a worker thread started afterwards.
// `--realtime` / ORDERFLOW_REALTIME: a front's only, and in a real process every thread on
// SCHED_RR (a worker started afterwards too) where the process may, a clear refusal where not.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  cpuNice, INGEST_NICE_DEFAULT, realtimeWanted,
} from '../../scale-out/cpu-priority.js';
import { UsageError } from '../../bin/cli.js';

test('ingest is lowered by default; one box and fronts are not', () => {
  assert.is(cpuNice(undefined, {}, 'ingest'), INGEST_NICE_DEFAULT);
  assert.is(cpuNice(undefined, {}, 'all'), 0);
  assert.is(cpuNice(undefined, {}, 'front'), 0);
  assert.is(cpuNice(undefined, { ORDERFLOW_NICE: '' }, 'ingest'), INGEST_NICE_DEFAULT);
});

test('the flag wins over ORDERFLOW_NICE; 0 keeps ingest at normal priority', () => {
  assert.is(cpuNice(undefined, { ORDERFLOW_NICE: '0' }, 'ingest'), 0);
  assert.is(cpuNice('19', { ORDERFLOW_NICE: '3' }, 'all'), 19);
  assert.is(cpuNice(undefined, { ORDERFLOW_NICE: '5' }, 'front'), 5);
});

test('out of 0-19, negative (a raise) or not a whole number: a usage error', () => {
  for (const text of ['20', '-1', '1.5', 'low', ' 3']) {
    assert.throws(() => cpuNice(text, {}, 'ingest'),
      (error: Error) => error instanceof UsageError && error.message.includes(`'${text}'`));
  }
});

test('lowerCpuPriority lowers every thread, and a worker started later inherits it', () => {
  if (process.platform !== 'linux') return; // per-thread nice values are Linux's
  const script = `
    import { lowerCpuPriority } from './scale-out/cpu-priority.ts';
    import { threadNices } from './test/helpers/thread-nices.ts';
    import { Worker } from 'node:worker_threads';
    const nices = () => threadNices(process.pid);
    const before = nices();
    // Below wherever the test runs (CI may run it under nice itself).
    const target = Math.min(19, Math.max(...before) + 5);
    const lowered = lowerCpuPriority(target);
    const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((resolve) => worker.once('online', resolve));
    const after = nices();
    // Asked for a priority it already has: nothing to do, and never a raise.
    const again = lowerCpuPriority(target - 1);
    console.log(JSON.stringify({ before, target, lowered, after, again, last: nices() }));
    await worker.terminate();
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
    script], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname });
  assert.is(result.status, 0, result.stderr);
  const { before, target, lowered, after, again, last } = JSON.parse(result.stdout) as
    { before: number[]; target: number; lowered: number; after: number[]; again: number;
      last: number[] };
  assert.ok(target > Math.max(...before), `${target} over ${before}`);
  assert.is(lowered, before.length);
  // The worker brings threads of its own: more threads than before, all lowered.
  assert.ok(after.length > before.length, `${before.length} -> ${after.length}`);
  assert.equal([...new Set(after)], [target]);
  assert.is(again, 0);
  assert.equal([...new Set(last)], [target]);
});

test('--realtime is a front\'s only; ORDERFLOW_REALTIME is 1 or 0', () => {
  assert.is(realtimeWanted(undefined, {}, 'front'), false);
  assert.is(realtimeWanted(true, {}, 'front'), true);
  assert.is(realtimeWanted(undefined, { ORDERFLOW_REALTIME: '1' }, 'front'), true);
  assert.is(realtimeWanted(undefined, { ORDERFLOW_REALTIME: '0' }, 'ingest'), false);
  for (const role of ['ingest', 'all'] as const) {
    assert.throws(() => realtimeWanted(true, {}, role),
      (error: Error) => error instanceof UsageError && /--role front/.test(error.message));
  }
  assert.throws(() => realtimeWanted(undefined, { ORDERFLOW_REALTIME: 'yes' }, 'front'),
    (error: Error) => error instanceof UsageError && error.message.includes("'yes'"));
});

test('useRealtimeScheduling puts every thread on SCHED_RR, or says what it lacks', () => {
  if (process.platform !== 'linux') return; // per-thread policies are Linux's
  const script = `
    import { useRealtimeScheduling } from './scale-out/cpu-priority.ts';
    import { threadPolicies } from './test/helpers/thread-nices.ts';
    import { Worker } from 'node:worker_threads';
    // Dropped after the imports (the checkout may be unreadable to that user).
    const dropTo = Number(process.env.DROP_TO_UID ?? -1);
    if (dropTo >= 0) {
      process.setgid(dropTo);
      process.setuid(dropTo);
    }
    let refused = null;
    try {
      useRealtimeScheduling();
    } catch (error) {
      refused = { message: error.message, exitCode: error.exitCode };
    }
    const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((resolve) => worker.once('online', resolve));
    console.log(JSON.stringify({ refused, policies: threadPolicies(process.pid) }));
    await worker.terminate();
  `;
  const run = (dropToUid = -1) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
      script], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, DROP_TO_UID: String(dropToUid) } });
    assert.is(result.status, 0, result.stderr);
    return JSON.parse(result.stdout) as
      { refused: { message: string; exitCode: number } | null; policies: number[] };
  };
  const refusedCheck = (refused: { message: string; exitCode: number }, policies: number[]) => {
    // No CAP_SYS_NICE and no rtprio limit: refused, nothing changed.
    assert.is(refused.exitCode, 1);
    assert.match(refused.message, /--realtime: could not set SCHED_RR 1 .*CAP_SYS_NICE/);
    assert.equal([...new Set(policies)], [0]);
  };
  // Linux's SCHED_OTHER is 0, SCHED_RR 2.
  const root = process.getuid?.() === 0;
  const here = run();
  if (here.refused === null) {
    assert.equal([...new Set(here.policies)], [2], 'every thread, the later worker\'s too');
  } else {
    assert.not.ok(root, `root is refused: ${here.refused.message}`);
    refusedCheck(here.refused, here.policies);
  }
  // As root (CI): the refusal too, as the unprivileged user nobody.
  if (root) {
    const nobody = run(65534);
    assert.ok(nobody.refused !== null, 'an unprivileged process is refused');
    refusedCheck(nobody.refused, nobody.policies);
  }
});

test.run();
