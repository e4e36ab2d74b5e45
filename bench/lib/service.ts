// Runs `orderflow serve` as a child, as an operator would: finds its URL, waits for /readyz,
// creates keys through the CLI, and always stops it (SIGTERM, then SIGKILL).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stopChild, tail, track } from './children.js';
import { getText } from './http-get.js';
import { serviceEnv, serviceNodeFlags } from '../../bin/node-flags.js';

const execFile$ = promisify(execFile);
export const binPath = new URL('../../bin/orderflow.js', import.meta.url).pathname;
/** Start-up that takes longer than this is a failure, not a figure. */
const listenTimeoutMs = 60_000;
const outputBytesMax = 64 * 1024;

export interface ServeOptions {
  readonly dataDir: string;
  /** Extra flags after `serve --port 0 --data-dir DIR`. */
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

export interface ServiceChild {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly baseUrl: string;
  readonly dataDir: string;
  /** Wall ms (Date.now) just before spawn, and when the URL was printed. */
  readonly spawnedAtMs: number;
  readonly listeningAtMs: number;
  stderr(): string;
  stop(): Promise<void>;
}

export async function tempDataDir(label: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `orderflow-bench-${label}-`));
}

export async function removeDir(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
}

/** A key of the plan, made with `orderflow keys create` (the server sees it within 1 s). */
export async function createKey(dataDir: string, plan: string): Promise<string> {
  const { stdout } = await execFile$(process.execPath, [binPath, 'keys', 'create', '--plan', plan,
    '--data-dir', dataDir, '--json'], { env: { ...process.env, ORDERFLOW_LOG_LEVEL: 'warn' } });
  const key = (JSON.parse(stdout) as { key?: unknown }).key;
  if (typeof key !== 'string') throw new Error(`keys create must print a key (was ${stdout})`);
  return key;
}

export async function startService(options: ServeOptions): Promise<ServiceChild> {
  const spawnedAtMs = Date.now();
  // Node flags as `npm start` passes them: the bench measures what users run.
  const child = track(spawn(process.execPath, [...serviceNodeFlags, binPath, 'serve', '--port',
    '0', '--data-dir', options.dataDir, ...(options.args ?? [])], {
    env: serviceEnv({ ...process.env, ORDERFLOW_LOG_LEVEL: 'warn', ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  const out = tail(outputBytesMax);
  const err = tail(outputBytesMax);
  child.stderr!.on('data', (chunk: Buffer) => err.add(chunk));
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve printed no URL within ` +
        `${listenTimeoutMs} ms: ${err.text()}`)), listenTimeoutMs);
      child.stdout!.on('data', (chunk: Buffer) => {
        out.add(chunk);
        const match = /listening on (http:\/\/\S+)/.exec(out.text());
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited early (code ${code}): ${err.text()}`));
      });
    });
    return {
      child, pid: child.pid!, baseUrl, dataDir: options.dataDir, spawnedAtMs,
      listeningAtMs: Date.now(),
      stderr: () => err.text(), stop: () => stopChild(child),
    };
  } catch (error) {
    await stopChild(child, 1_000);
    throw error;
  }
}

/** Polls `/readyz` until it answers 200 with ready:true; resolves with the wall ms it did. */
export async function waitReady(baseUrl: string, timeoutMs = 60_000): Promise<number> {
  return waitFor(`${baseUrl}/readyz`, {}, (status, body) =>
    status === 200 && /"ready":true/.test(body), timeoutMs);
}

/** Polls a URL every 10 ms until `accept` holds; resolves with the wall ms it first did. */
export async function waitFor(url: string, headers: Readonly<Record<string, string>>,
  accept: (status: number, body: string) => boolean, timeoutMs: number): Promise<number> {
  const deadlineMs = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadlineMs) {
    try {
      const { status, body } = await getText(url, headers);
      if (accept(status, body)) return Date.now();
      last = `${status} ${body.slice(0, 200)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${url} not as expected within ${timeoutMs} ms (last answer: ${last})`);
}
