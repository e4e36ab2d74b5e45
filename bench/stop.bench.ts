// The stop (issue 34, "A stop that finishes"): `orderflow serve` on the simulator with the full
// 168 h warm-up is sent SIGTERM the moment /readyz turns ready, and timed from the signal to
// its exit, with five CPU hogs this bench starts (load about 5 on 2 cores) and without them,
// in the same run (the baseline). Also with the hog, the same stop 20 s after ready, once the
// warm-up's held past is written (actors/shard/past-queue.ts): what the stop itself costs.
import { spawn, type ChildProcess } from 'node:child_process';
import { printRows, quick, type ReportRow } from './harness.js';
import { track } from './lib/children.js';
import { sortedQuantile } from './lib/quantile.js';
import { removeDir, startService, tempDataDir, waitReady } from './lib/service.js';

const HOGS = 5;
const CLOCK_START = '2026-03-02T12:00:00Z';
/** The documented stop deadline; the target is half of it. */
const DEADLINE_MS = 5_000;
const SETTLED_WAIT_MS = 20_000;

interface Stop {
  readonly ms: number;
  readonly code: number | string;
}

/** One start with the full warm-up, stopped `afterReadyMs` after /readyz turned ready. */
async function timeStop(afterReadyMs: number): Promise<Stop> {
  const dataDir = await tempDataDir('stop');
  try {
    const service = await startService({ dataDir, args: ['--warmup', '168', '--shards', '2',
      '--clock-start', CLOCK_START, '--limits', 'off'] });
    await waitReady(service.baseUrl, 180_000);
    if (afterReadyMs > 0) await new Promise((resolve) => setTimeout(resolve, afterReadyMs));
    const exited = new Promise<number | string>((resolve) => service.child.once('exit',
      (code, signal) => resolve(code ?? signal ?? 'unknown')));
    const startMs = performance.now();
    service.child.kill('SIGTERM');
    const code = await exited;
    return { ms: performance.now() - startMs, code };
  } finally {
    await removeDir(dataDir);
  }
}

function startHogs(): ChildProcess[] {
  return Array.from({ length: HOGS }, () =>
    track(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' })));
}

async function series(runs: number, afterReadyMs: number, hog: boolean): Promise<Stop[]> {
  const hogs = hog ? startHogs() : [];
  try {
    const stops: Stop[] = [];
    for (let i = 0; i < runs; i++) stops.push(await timeStop(afterReadyMs));
    console.error(`stop: ${hog ? HOGS : 0} hogs, ${afterReadyMs / 1000} s after ready: ` +
      stops.map((s) => `${(s.ms / 1000).toFixed(2)} s exit ${s.code}`).join(', '));
    return stops;
  } finally {
    for (const h of hogs) h.kill('SIGKILL');
  }
}

function rows(label: string, stops: readonly Stop[], baseline: readonly Stop[] | null):
  ReportRow[] {
  const sorted = stops.map((s) => s.ms).sort((a, b) => a - b);
  const p50 = sortedQuantile(sorted, 0.5);
  const p99 = sortedQuantile(sorted, 0.99);
  const base = baseline && sortedQuantile(baseline.map((s) => s.ms).sort((a, b) => a - b), 0.5);
  const clean = stops.filter((s) => s.code === 0).length;
  return [
    { bench: 'stop', figure: `${label}: p50 (baseline: p50 without the hog)`, value: p50 / 1000,
      unit: 's', baseline: base === null ? null : base / 1000,
      ratio: base === null ? null : p50 / base, target: '-', pass: null },
    { bench: 'stop', figure: `${label}: p99 over ${stops.length} (baseline: the deadline)`,
      value: p99 / 1000, unit: 's', baseline: DEADLINE_MS / 1000, ratio: p99 / DEADLINE_MS,
      target: '< 2.5 s', pass: p99 < DEADLINE_MS / 2 },
    { bench: 'stop', figure: `${label}: clean stops (exit 0)`, value: clean, unit: 'stops',
      baseline: stops.length, ratio: clean / stops.length, target: 'all', pass:
      clean === stops.length },
  ];
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const runs = opts.quick ? 3 : 10;
  const quiet = await series(runs, 0, false);
  const loaded = await series(runs, 0, true);
  const settled = await series(opts.quick ? 1 : 3, SETTLED_WAIT_MS, true);
  return [
    ...rows(`stop at ready after the 168 h warm-up, ${HOGS} CPU hogs`, loaded, quiet),
    ...rows('the same without the hog', quiet, null),
    ...rows(`the same ${SETTLED_WAIT_MS / 1000} s after ready, ${HOGS} CPU hogs`, settled, quiet),
  ];
}

if (process.argv[1]?.endsWith('stop.bench.ts')) printRows(await run({ quick }));
