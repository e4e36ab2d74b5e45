// `npm run bench [-- --quick]`: runs every bench in turn, one at a time (2 shared cores), and
// writes bench/results/latest.md and latest.json. A bench that throws becomes an error row.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { printRows, quick, type ReportRow } from './harness.js';
import { closeProbeSockets } from './lib/http-get.js';
import { holdLiveService, releaseLiveService } from './lib/live-service.js';
import { cpuTicks, machineInfo, stealPercent } from './lib/machine.js';
import { statusRow, writeReport, type BenchOutcome } from './lib/report.js';

/** In order: the cheap in-process benches first, then the ones that start the service. */
const benches = ['kernels', 'footprint', 'footprint-service', 'ingest', 'store', 'http',
  'history', 'signal-performance', 'grading', 'metrics', 'webhooks', 'dashboard', 'backfill',
  'e2e-freshness', 'peer-fastify', 'startup', 'warmup', 'stop', 'restore', 'memory', 'soak',
  'scale-out', 'scale-out-deploy', 'history-copy', 'overload'] as const;

type BenchModule = { run?: (opts: { quick: boolean }) => Promise<ReportRow[]> };

type Outcome = Omit<BenchOutcome, 'stealPercent' | 'loadAverage1m'>;

/** One bench, with the machine's load when it started and the CPU steal while it ran. */
async function runOne(name: string, isQuick: boolean): Promise<BenchOutcome> {
  const loadAverage1m = loadavg()[0]!;
  const before = cpuTicks();
  const outcome = await runBench(name, isQuick);
  return { ...outcome, loadAverage1m, stealPercent: stealPercent(before, cpuTicks()) };
}

async function runBench(name: string, isQuick: boolean): Promise<Outcome> {
  const file = new URL(`./${name}.bench.ts`, import.meta.url);
  const startMs = Date.now();
  const seconds = () => (Date.now() - startMs) / 1000;
  if (!existsSync(file)) {
    const note = `bench/${name}.bench.ts does not exist yet`;
    return { bench: name, status: 'skipped', seconds: 0, note, rows: [statusRow(name, 'skipped',
      note)] };
  }
  try {
    const mod = (await import(file.href)) as BenchModule;
    if (typeof mod.run !== 'function') throw new Error('it exports no run(opts) function');
    const rows = await mod.run({ quick: isQuick });
    return { bench: name, status: 'ok', seconds: seconds(), note: null, rows };
  } catch (error) {
    const note = (error as Error).message.split('\n')[0].slice(0, 300);
    return { bench: name, status: 'error', seconds: seconds(), note,
      rows: [statusRow(name, 'error', note)] };
  }
}

function selected(): readonly string[] {
  const only = process.argv.indexOf('--only');
  if (only < 0) return benches;
  const names = (process.argv[only + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((n) => !(benches as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    process.stderr.write(`--only takes a comma-separated list of ${benches.join(', ')} ` +
      `(was '${process.argv[only + 1] ?? ''}')\n`);
    process.exit(2);
  }
  return names;
}

const names = selected();
const machine = machineInfo();
const startedAt = new Date().toISOString();
const startMs = Date.now();
const outcomes: BenchOutcome[] = [];
holdLiveService();
try {
  for (const name of names) {
    process.stderr.write(`bench ${name}${quick ? ' (quick)' : ''}...\n`);
    const outcome = await runOne(name, quick);
    process.stderr.write(`bench ${name}: ${outcome.status} in ${outcome.seconds.toFixed(1)} s` +
      `${outcome.note ? ` (${outcome.note})` : ''}\n`);
    outcomes.push(outcome);
    // The live service is shared by the freshness and peer benches only.
    if (name === 'peer-fastify') await releaseLiveService();
  }
} finally {
  await releaseLiveService();
  closeProbeSockets();
}
const report = { startedAt, mode: quick ? 'quick' as const : 'full' as const,
  totalSeconds: (Date.now() - startMs) / 1000, machine, benches: outcomes };
const files = await writeReport(new URL('./results/', import.meta.url).pathname, report);
printRows(outcomes.flatMap((o) => o.rows));
process.stderr.write(`wrote ${files.join(' and ')} (${report.totalSeconds.toFixed(0)} s)\n`);
// Benches close what they open; exiting here also ends anything a failed bench left behind.
process.exit(0);
