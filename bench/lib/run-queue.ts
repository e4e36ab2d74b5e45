// How long a process's threads waited for a core: Linux's per-thread scheduler statistics
// (/proc/PID/task/TID/schedstat: time on a core, time runnable but waiting on a run queue, and
// the number of times it got a core; docs of the kernel, "scheduler statistics"). A thread that
// waits there is ready to work and nothing of its own holds it: on a box shared with ingest's
// bursts this is the share of a front's or Redis's tail that is the machine's, not the code's
// (bench/log/2026-11-27-propagation-front-waits.md).
import { readdirSync, readFileSync } from 'node:fs';

export interface RunQueueSample {
  /** Time on a core, ns. */
  readonly runNs: number;
  /** Time runnable and waiting for a core, ns. */
  readonly waitNs: number;
  /** How many times the thread got a core. */
  readonly slices: number;
}

const none: RunQueueSample = { runNs: 0, waitNs: 0, slices: 0 };

function readSample(path: string): RunQueueSample | null {
  try {
    const [run, wait, slices] = readFileSync(path, 'latin1').trim().split(' ').map(Number);
    if (!Number.isFinite(run) || !Number.isFinite(wait) || !Number.isFinite(slices)) return null;
    return { runNs: run!, waitNs: wait!, slices: slices! };
  } catch {
    return null;
  }
}

/** The main thread's figures so far (the thread whose id is the process's), or null where the
 *  system keeps none (not Linux, or the process is gone). */
export function mainThreadRunQueue(pid: number): RunQueueSample | null {
  return readSample(`/proc/${pid}/task/${pid}/schedstat`);
}

/** All of the process's live threads' figures so far, summed (a thread that ended meanwhile is
 *  not counted), or null where the system keeps none. */
export function processRunQueue(pid: number): RunQueueSample | null {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  let sum = none;
  for (const tid of tids) {
    const sample = readSample(`/proc/${pid}/task/${tid}/schedstat`);
    if (sample === null) continue;
    sum = { runNs: sum.runNs + sample.runNs, waitNs: sum.waitNs + sample.waitNs,
      slices: sum.slices + sample.slices };
  }
  return sum;
}

export interface RunQueueWindow {
  /** Waiting for a core, ms per second of the window. */
  readonly waitMsPerS: number;
  /** On a core, ms per second of the window. */
  readonly runMsPerS: number;
  /** The mean wait each time the thread got a core, µs. */
  readonly waitPerSliceUs: number;
}

/** The figures between two samples over `windowMs` (NaN when either is missing). */
export function runQueueWindow(before: RunQueueSample | null, after: RunQueueSample | null,
  windowMs: number): RunQueueWindow {
  if (before === null || after === null) {
    return { waitMsPerS: NaN, runMsPerS: NaN, waitPerSliceUs: NaN };
  }
  const seconds = windowMs / 1000;
  const waitNs = after.waitNs - before.waitNs;
  const slices = after.slices - before.slices;
  return {
    waitMsPerS: waitNs / 1e6 / seconds,
    runMsPerS: (after.runNs - before.runNs) / 1e6 / seconds,
    waitPerSliceUs: slices > 0 ? waitNs / 1e3 / slices : NaN,
  };
}
