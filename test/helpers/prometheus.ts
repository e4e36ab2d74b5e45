// A real Prometheus for the metrics tests: Debian's prometheus package (installed with apt-get
// when missing; promtool comes with it), a server on a free loopback port scraping given
// targets every second and evaluating a rule file every second.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { aptInstall } from './apt.js';
import { eventually, tempDir } from './eventually.js';
import { freePort } from './redis-server.js';

const binaries = { prometheus: '/usr/bin/prometheus', promtool: '/usr/bin/promtool' };

/** The prometheus and promtool binaries; installs Debian's package once when missing. */
export function ensurePrometheus(): typeof binaries {
  if (existsSync(binaries.prometheus) && existsSync(binaries.promtool)) return binaries;
  aptInstall('prometheus');
  if (!existsSync(binaries.promtool)) throw new Error('promtool is missing after apt-get install');
  return binaries;
}

/** Runs promtool; `input` goes to its standard input. */
export function promtool(args: readonly string[], input?: string):
  { status: number | null; output: string } {
  const run = spawnSync(ensurePrometheus().promtool, args, { input, encoding: 'utf8',
    timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

export interface PrometheusServer {
  readonly url: string;
  /** The instant query's series (each its labels and [time, value]). */
  query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}

/** `targets`: host:port to scrape at /metrics; `ruleFile`: a rule file to evaluate. */
export async function startPrometheus(targets: readonly string[], ruleFile?: string):
  Promise<PrometheusServer> {
  const { prometheus } = ensurePrometheus();
  const dir = await tempDir('orderflow-prometheus-');
  const config = [
    'global: { scrape_interval: 1s, evaluation_interval: 1s, scrape_timeout: 1s }',
    ...(ruleFile === undefined ? [] : [`rule_files: [${JSON.stringify(ruleFile)}]`]),
    'scrape_configs:',
    '  - job_name: orderflow',
    `    static_configs: [{ targets: ${JSON.stringify(targets)} }]`,
  ].join('\n');
  writeFileSync(join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const child: ChildProcess = spawn(prometheus, [`--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
  { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => { log = (log + chunk.toString()).slice(-4_000); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const server: PrometheusServer = {
    url,
    async query(expr) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      const body = await response.json() as { status: string; error?: string;
        data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      if (body.status !== 'success') throw new Error(`query ${expr} failed: ${body.error}`);
      return body.data.result;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`prometheus exited: ${log}`);
    return (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok === true;
  }, { timeoutMs: 30_000, message: 'prometheus is ready' });
  return server;
}
