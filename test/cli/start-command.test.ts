// The service started as users start it, `npm start` (README) or the `orderflow` command (the
// bin's shebang), runs with the V8 flags and glibc malloc settings of bin/node-flags.js, which
// hold its memory down (docs/architecture.md, "Node flags and malloc"): the process's own
// command line and environment are read from /proc.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceMallocTunables, serviceNodeFlags } from '../../bin/node-flags.js';
import { binPath } from '../helpers/service-process.js';
import { eventually, tempDir } from '../helpers/eventually.js';

const start = suite('how the service is started');
const root = new URL('../..', import.meta.url).pathname;

/** The node process that runs `serve` under `pid` (itself or a descendant). */
function servingNode(pid: number): number | null {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(ppid, [...children.get(ppid) ?? [], Number(entry)]);
    } catch { /* gone meanwhile */ }
  }
  const queue = [pid];
  while (queue.length > 0) {
    const at = queue.shift()!;
    const argv = readArgv(at);
    if (argv.some((arg) => arg.endsWith('orderflow.js')) && argv.includes('serve') &&
      /node/.test(readFileSync(`/proc/${at}/comm`, 'utf8'))) return at;
    queue.push(...children.get(at) ?? []);
  }
  return null;
}

function readArgv(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * The process's GLIBC_TUNABLES as it started. glibc 2.36 parses the variable in place, leaving a
 * NUL where each ':' was (a later glibc may not): both read back as the same value.
 */
function tunablesOf(pid: number): string | undefined {
  const raw = readFileSync(`/proc/${pid}/environ`, 'utf8');
  const at = raw.indexOf('GLIBC_TUNABLES=');
  if (at < 0) return undefined;
  const entries = raw.slice(at + 'GLIBC_TUNABLES='.length).split('\0');
  const parts = [entries[0]];
  // The NULs glibc wrote: what follows is a tunable (glibc.x.y=v), not another variable.
  for (const entry of entries.slice(1)) {
    if (!/^glibc\.[a-z_]+\.[a-z_]+=/.test(entry)) break;
    parts.push(entry);
  }
  return parts.join(':');
}

async function startedAs(command: string, args: readonly string[]): Promise<{ argv: string[];
  tunables: string | undefined }> {
  const dataDir = join(await tempDir(), 'data');
  const env: NodeJS.ProcessEnv = { ...process.env, ORDERFLOW_LOG_LEVEL: 'warn',
    ORDERFLOW_WARMUP_HOURS: '0' };
  delete env.GLIBC_TUNABLES;
  const child = spawn(command, [...args, '--port', '0', '--data-dir', dataDir, '--shards', '1'],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await eventually(() => /listening on http/.test(out),
      { timeoutMs: 60_000, message: `${command} never listened: ${out}` });
    const pid = servingNode(child.pid!);
    assert.ok(pid !== null, `no node process runs serve under ${child.pid}`);
    return { argv: readArgv(pid!), tunables: tunablesOf(pid!) };
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

function assertStartedRight(started: { argv: string[]; tunables: string | undefined }): void {
  for (const flag of serviceNodeFlags) {
    assert.ok(started.argv.includes(flag), `${flag} in ${started.argv.join(' ')}`);
  }
  assert.is(started.tunables, serviceMallocTunables);
}

start('npm start passes the V8 flags and the malloc settings', async () => {
  assertStartedRight(await startedAs('npm', ['start', '--silent', '--']));
});

start('the orderflow command (the bin run as a program) does too', async () => {
  assertStartedRight(await startedAs(binPath, ['serve']));
});

start.run();
