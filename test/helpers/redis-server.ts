// A real Redis for the scale-out tests: Debian's redis-server (installed with apt-get when
// missing, so CI passes on a fresh machine) on a free loopback port, with no automatic
// persistence; stop() can save first, so a restart on the same port finds its data again.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { silentLogger } from '../../core/logger.js';
import { openRedisLink, type RedisLink } from '../../scale-out/redis-link.js';
import { aptInstall } from './apt.js';
import { eventually, tempDir } from './eventually.js';

const serverPaths = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];

function findServer(): string | undefined {
  return serverPaths.find((path) => existsSync(path));
}

/** The redis-server binary; installs Debian's package once when it is missing. */
export function ensureRedisServer(): string {
  const found = findServer();
  if (found !== undefined) return found;
  aptInstall('redis-server');
  const installed = findServer();
  if (installed === undefined) throw new Error('redis-server is missing after apt-get install');
  return installed;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server; with save, it writes its data first (as a persistent Redis would). */
  stop(options?: { save?: boolean }): Promise<void>;
  /** Starts it again on the same port (and the same data folder). */
  start(): Promise<void>;
}

/**
 * Every server started in this process, killed when it exits (a failed suite leaves none
 * behind): one exit listener for all of them, not one each (uvu runs every suite in one process).
 */
const killAtExit = new Set<() => void>();
process.once('exit', () => { for (const kill of killAtExit) kill(); });

export async function startRedisServer(): Promise<RedisServer> {
  const binary = ensureRedisServer();
  const port = await freePort();
  const dir = await tempDir('orderflow-redis-');
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const ping = async () => {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0,
      retryStrategy: () => null });
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } finally {
      client.disconnect();
    }
  };
  const start = async () => {
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '',
      '--appendonly', 'no', '--dir', dir, '--protected-mode', 'no'], { stdio: 'ignore' });
    await eventually(ping, { timeoutMs: 10_000, message: `redis-server on ${port} answers` });
  };
  const stop = async (options: { save?: boolean } = {}) => {
    const running = child;
    if (running === null || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    if (options.save) {
      const client = new Redis(url, { maxRetriesPerRequest: 0 });
      client.on('error', () => {});
      await client.call('SHUTDOWN', 'SAVE').catch(() => {});
      client.disconnect();
    } else {
      running.kill('SIGKILL');
    }
    await exited;
    child = null;
  };
  await start();
  killAtExit.add(() => { (child as ChildProcess | null)?.kill('SIGKILL'); });
  return { url, port, stop, start };
}

/** A link to the server once both its connections are up; kept in `links` to close at the end. */
export async function readyLink(url: string, links: RedisLink[]): Promise<RedisLink> {
  const made = await openRedisLink(url, silentLogger);
  links.push(made);
  await eventually(() => made.ready(), { message: 'redis link ready' });
  return made;
}
