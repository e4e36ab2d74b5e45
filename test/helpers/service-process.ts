// Runs `orderflow serve` as a child process, as a user would, and finds its base URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { eventually } from './eventually.js';
import { serviceEnv, serviceNodeFlags } from '../../bin/node-flags.js';

export const binPath = new URL('../../bin/orderflow.js', import.meta.url).pathname;

export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

export async function startServeProcess(args: readonly string[],
  env: Record<string, string> = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath,
    [...serviceNodeFlags, binPath, 'serve', '--port', '0', ...args], {
    // No simulator warm-up unless a test asks for one: it is tested on its own (e2e/warmup).
    env: serviceEnv({ ...process.env, ORDERFLOW_LOG_LEVEL: 'warn', ORDERFLOW_WARMUP_HOURS: '0',
      ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { err += chunk.toString(); });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  let baseUrl = '';
  try {
    await eventually(() => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) baseUrl = match[1];
      if (child.exitCode !== null) throw new Error(`serve exited early: ${err}`);
      return match !== null;
    }, { timeoutMs: 30_000, message: 'serve printed its base URL' });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { child, baseUrl, stdout: () => out, stderr: () => err, exited };
}
