// The report of one `npm run bench`: a Markdown table and a JSON file under bench/results/, each
// with the machine, every figure, its same-run baseline and the ratio.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportRow } from '../harness.js';
import type { MachineInfo } from './machine.js';

export type BenchStatus = 'ok' | 'error' | 'skipped';

export interface BenchOutcome {
  readonly bench: string;
  readonly status: BenchStatus;
  readonly seconds: number;
  /** CPU steal while it ran (percent of all CPU time; null where unknown): see machine.ts. */
  readonly stealPercent: number | null;
  /** The 1-minute load average when it started. */
  readonly loadAverage1m: number;
  /** Why it failed or was skipped. */
  readonly note: string | null;
  readonly rows: readonly ReportRow[];
}

export interface Report {
  readonly startedAt: string;
  readonly mode: 'quick' | 'full';
  readonly totalSeconds: number;
  readonly machine: MachineInfo;
  readonly benches: readonly BenchOutcome[];
}

const fmt = (v: number | null) =>
  v === null || !Number.isFinite(v) ? '-' : Number(v.toPrecision(4)).toString();
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function rowsMarkdown(rows: readonly ReportRow[]): string {
  const lines = rows.map((r) =>
    `| ${cell(r.bench)} | ${cell(r.figure)} | ${fmt(r.value)} ${r.unit} | ${fmt(r.baseline)} | ` +
    `${fmt(r.ratio)} | ${cell(r.target)} | ${r.pass === null ? '-' : r.pass ? 'yes' : 'NO'} |`);
  return '| bench | figure | value | baseline | ratio | target | met |\n' +
    '|---|---|---|---|---|---|---|\n' + lines.join('\n') + '\n';
}

export function reportMarkdown(report: Report): string {
  const m = report.machine;
  const statusLines = report.benches.map((b) =>
    `| ${b.bench} | ${b.status} | ${b.seconds.toFixed(1)} | ${b.loadAverage1m.toFixed(2)} | ` +
    `${b.stealPercent === null ? '-' : b.stealPercent.toFixed(1)} | ${cell(b.note ?? '')} |`);
  return [
    `# Bench results (${report.mode})`,
    '',
    `Started ${report.startedAt}, ${report.totalSeconds.toFixed(0)} s in all.`,
    '',
    `Machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryTotalMiB} MiB memory ` +
      `(${m.memoryFreeMiB} MiB free), Node ${m.nodeVersion}, ${m.platform}, ` +
      `load average ${m.loadAverage1m} at start.`,
    '',
    'Load is the 1-minute load average when a bench started; steal is the share of all CPU time',
    'the hypervisor gave to other guests while it ran (latency and req/s move with both).',
    '',
    '| bench | status | seconds | load | steal % | note |',
    '|---|---|---|---|---|---|',
    ...statusLines,
    '',
    rowsMarkdown(report.benches.flatMap((b) => b.rows)),
  ].join('\n');
}

/** JSON has no NaN or Infinity: such figures are written as null. */
function finiteOrNull(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}

export async function writeReport(dir: string, report: Report): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const md = join(dir, 'latest.md');
  const json = join(dir, 'latest.json');
  await writeFile(md, reportMarkdown(report));
  await writeFile(json, JSON.stringify(report, finiteOrNull, 2) + '\n');
  return [md, json];
}

/** A row that records a bench that failed or was skipped, so the table shows it. */
export function statusRow(bench: string, status: BenchStatus, note: string): ReportRow {
  return { bench, figure: `${status}: ${note}`, value: NaN, unit: '', baseline: null,
    ratio: null, target: '-', pass: status === 'error' ? false : null };
}
