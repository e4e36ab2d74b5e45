// wrk as the load generator (autocannon runs out of CPU first on 2 cores): install, run with
// keep-alive for a bounded time, and parse its report. Loopback targets only. Also the server
// side of a load: its CPU time, which a busy machine disturbs less than requests per second.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { aptInstall } from '../../test/helpers/apt.js';

const execFile$ = promisify(execFile);

export interface WrkOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly threads?: number;
  readonly headers?: readonly string[];
  /** A Lua script (see pathRotationScript) that picks each request's path. */
  readonly scriptPath?: string;
  /** CPUs wrk may run on (taskset list, e.g. "0"): keeps it off the server's core. */
  readonly cpus?: string;
}

export interface WrkResult {
  readonly requests: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Responses outside 2xx/3xx. */
  readonly non2xx: number;
  /** Socket errors: connect, read, write, timeout. */
  readonly socketErrors: number;
}

/** wrk from Debian's packages when it is missing. */
export function ensureWrk(): void {
  if (spawnSync('which', ['wrk']).status === 0) return;
  aptInstall('wrk');
}

function toMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) throw new Error(`wrk latency must look like 1.23ms (was ${text})`);
  const scale: Record<string, number> = { us: 1e-3, ms: 1, s: 1e3, m: 60e3 };
  return Number(m[1]) * scale[m[2]];
}

/** Parses wrk's `--latency` report; throws on output it cannot read. */
export function parseWrk(stdout: string): WrkResult {
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const p50 = /\n\s+50(?:\.000)?%\s+(\S+)/.exec(stdout)?.[1];
  const p99 = /\n\s+99(?:\.000)?%\s+(\S+)/.exec(stdout)?.[1];
  if (!Number.isFinite(requests) || !Number.isFinite(rps) || !p50 || !p99) {
    throw new Error(`wrk output must hold requests, Requests/sec and percentiles (was ${stdout})`);
  }
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
    .exec(stdout);
  const socketErrors = errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return { requests, rps, p50Ms: toMs(p50), p99Ms: toMs(p99), non2xx, socketErrors };
}

export async function runWrk(url: string, options: WrkOptions): Promise<WrkResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) {
    throw new Error(`wrk targets must be loopback (was ${url})`);
  }
  const threads = Math.min(options.threads ?? 1, options.connections);
  const args = [`-t${threads}`, `-c${options.connections}`, `-d${options.seconds}s`, '--latency',
    '--timeout', '5s'];
  for (const header of options.headers ?? []) args.push('-H', header);
  if (options.scriptPath) args.push('-s', options.scriptPath);
  // wrk ends itself after -d; the timeout only guards against a hung wrk.
  const command = options.cpus === undefined ? ['wrk', ...args, url]
    : ['taskset', '-c', options.cpus, 'wrk', ...args, url];
  const { stdout } = await execFile$(command[0]!, command.slice(1),
    { timeout: (options.seconds + 30) * 1000, killSignal: 'SIGKILL' });
  return parseWrk(stdout);
}

/** Writes a wrk Lua script that cycles through `paths`, one per request. */
export async function pathRotationScript(file: string, paths: readonly string[]): Promise<string> {
  if (paths.length === 0) throw new Error('pathRotationScript needs at least one path');
  const list = paths.map((p) => JSON.stringify(p)).join(', ');
  await writeFile(file, `local paths = { ${list} }\nlocal i = 0\n` +
    'request = function()\n  i = (i % #paths) + 1\n  return wrk.format(nil, paths[i])\nend\n');
  return file;
}

/**
 * Writes a wrk Lua script that makes every connection wait `delayMs` before each request: a
 * fixed offered load (about connections / delay) instead of wrk's closed loop, where latency
 * only measures how long the queue in front of a saturated server is.
 */
export async function pacedScript(file: string, delayMs: number): Promise<string> {
  if (!(Number.isInteger(delayMs) && delayMs >= 1)) {
    throw new Error(`pacedScript needs a whole number of milliseconds >= 1 (was ${delayMs})`);
  }
  await writeFile(file, `delay = function()\n  return ${delayMs}\nend\n`);
  return file;
}

/**
 * CPU time (user + system, microseconds) used so far by a process, all threads, or by one of
 * its threads when `threadId` is given: read from /proc, so the process can be any child.
 */
export function procCpuUs(pid: number, threadId?: number): () => number {
  const path = threadId === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${threadId}/stat`;
  const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString() || 100);
  return () => {
    // Fields after the parenthesized name: utime and stime are the 12th and 13th.
    const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond;
  };
}

/**
 * Pins every thread of a process to `cpus` (a taskset list): with the load generator on the
 * other core, a server's req/s measures the server, not which of the two won the CPU.
 */
export function pinProcess(pid: number, cpus: string): void {
  const result = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`taskset could not pin process ${pid} to ${cpus}`);
}
