// The process's CPU priority (`--nice N`, ORDERFLOW_NICE; docs/scale-out.md, "One box, several
// roles"). Ingest's bursts (its shards, its main thread's cadence work, V8's GC helper threads)
// can hold every core of a box for milliseconds at a time; Redis and the fronts, woken by a
// snapshot message, then wait for a core behind them
// (bench/log/2026-11-26-propagation-ingest-priority.md). At a lower priority ingest still gets
// every core nobody else wants, but a woken Redis or front runs first. So `--role ingest`
// lowers itself by default; one box (`all`) and fronts do not.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { UsageError } from '../core/usage-error.js';
import type { Role } from './options.js';

/** Ingest's default: fronts and Redis weigh ~9x as much when they contend for a core. */
export const INGEST_NICE_DEFAULT = 10;
const niceMax = 19;

/** The nice value from the flag or environment (the flag wins), 0 (normal) to 19 (lowest). */
export function cpuNice(flag: string | undefined, env: Readonly<Record<string, string | undefined>>,
  role: Role): number {
  const text = flag ?? (env.ORDERFLOW_NICE === '' ? undefined : env.ORDERFLOW_NICE);
  if (text === undefined) return role === 'ingest' ? INGEST_NICE_DEFAULT : 0;
  const nice = Number(text);
  // Only lowering: raising a priority (a negative nice) needs privileges a service should not.
  if (!/^\d+$/.test(text) || nice > niceMax) {
    throw new UsageError(`--nice must be an integer from 0 (normal) to ${niceMax} (lowest) ` +
      `(was '${text}')`);
  }
  return nice;
}

/**
 * Lowers the priority of every thread of this process to `nice`, and so of every thread started
 * later (a new thread inherits its creator's). Linux keeps a nice value per thread: the threads
 * running before this call (V8's platform workers, libuv's pool) are set one by one through
 * /proc/self/task. Elsewhere the process's priority is set, which covers its threads. A thread
 * already lower (the service started under `nice`) is left as it is: raising it back would need
 * privileges. Returns how many threads were lowered.
 */
export function lowerCpuPriority(nice: number): number {
  const lower = (id: number): number => {
    if (getPriority(id) >= nice) return 0;
    setPriority(id, nice);
    return 1;
  };
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    return lower(0);
  }
  let lowered = 0;
  for (const tid of threads) {
    try {
      lowered += lower(Number(tid));
    } catch {
      // A thread that ended between the listing and the call.
    }
  }
  return lowered;
}

/** The real-time priority `--realtime` asks for: the lowest, above every normal thread. */
export const REALTIME_PRIORITY = 1;

/**
 * Whether a front runs at the real-time round-robin policy (`--realtime`, ORDERFLOW_REALTIME=1;
 * docs/scale-out.md, "Latency profile"). Linux lets a woken normal thread take a busy core only
 * at the running thread's next scheduler tick (milliseconds at the usual tick rates); a woken
 * real-time thread takes it at once. Only a front: its one main thread sleeps between messages
 * and requests, where ingest's shards and the one box's would hold the cores they take.
 */
export function realtimeWanted(flag: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>, role: Role): boolean {
  const text = env.ORDERFLOW_REALTIME;
  if (text !== undefined && text !== '' && text !== '0' && text !== '1') {
    throw new UsageError(`ORDERFLOW_REALTIME must be 1 or 0 (was '${text}')`);
  }
  const wanted = flag === true || text === '1';
  if (wanted && role !== 'front') {
    throw new UsageError('--realtime is for --role front: ingest\'s shards (and a one-box ' +
      'service\'s) would hold the cores at a real-time priority');
  }
  return wanted;
}

/**
 * Puts every thread of this process (and so every thread it starts later) on SCHED_RR at
 * REALTIME_PRIORITY, through util-linux's `chrt` (Node has no call for it). Needs CAP_SYS_NICE
 * or an RLIMIT_RTPRIO of at least 1; without them, or without `chrt`, a UsageError with exit
 * code 1 says what is missing: the flag was asked for, so the front does not start without it.
 */
export function useRealtimeScheduling(pid = process.pid): void {
  const args = ['-a', '-r', '-p', String(REALTIME_PRIORITY), String(pid)];
  const result = spawnSync('chrt', args, { encoding: 'utf8' });
  if (result.error !== undefined || result.status !== 0) {
    const why = result.error?.message ?? result.stderr.trim();
    throw new UsageError(`--realtime: could not set SCHED_RR ${REALTIME_PRIORITY} (chrt ` +
      `${args.join(' ')}: ${why}); it needs CAP_SYS_NICE or an rtprio limit of 1 ` +
      '(docs/scale-out.md, "Latency profile")', 1);
  }
}
