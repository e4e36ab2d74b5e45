// Bench harness: time a body for a fixed amount of work, report ops/s and ratios against a
// baseline measured in the same run (never absolute thresholds in tests).

export interface Measurement {
  readonly name: string;
  /** Operations per second (median of the runs). */
  readonly opsPerSec: number;
  /** Nanoseconds per operation (median). */
  readonly nsPerOp: number;
  readonly heapDeltaBytes: number;
}

/**
 * Runs `body(ops)` `runs` times after one warm-up and returns the median throughput.
 * `body` must perform exactly `ops` operations.
 */
export function measure(name: string, ops: number, body: (ops: number) => void, runs = 5):
  Measurement {
  body(Math.max(1, Math.floor(ops / 10)));
  const heapBefore = process.memoryUsage().heapUsed;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    body(ops);
    samples.push(Number(process.hrtime.bigint() - start));
  }
  samples.sort((a, b) => a - b);
  const medianNs = samples[Math.floor(samples.length / 2)];
  const heapDeltaBytes = process.memoryUsage().heapUsed - heapBefore;
  return { name, opsPerSec: (ops * 1e9) / medianNs, nsPerOp: medianNs / ops, heapDeltaBytes };
}

export async function measureAsync(name: string, ops: number, body: (ops: number) => Promise<void>,
  runs = 3): Promise<Measurement> {
  await body(Math.max(1, Math.floor(ops / 10)));
  const heapBefore = process.memoryUsage().heapUsed;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await body(ops);
    samples.push(Number(process.hrtime.bigint() - start));
  }
  samples.sort((a, b) => a - b);
  const medianNs = samples[Math.floor(samples.length / 2)];
  const heapDeltaBytes = process.memoryUsage().heapUsed - heapBefore;
  return { name, opsPerSec: (ops * 1e9) / medianNs, nsPerOp: medianNs / ops, heapDeltaBytes };
}

/** One row of a bench report: a figure, its same-run baseline, the ratio and the target. */
export interface ReportRow {
  readonly bench: string;
  readonly figure: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline: number | null;
  readonly ratio: number | null;
  readonly target: string;
  readonly pass: boolean | null;
}

export function printRows(rows: readonly ReportRow[]): void {
  const fmt = (v: number | null) => (v === null ? '-' : Number(v.toPrecision(4)).toString());
  const lines = rows.map((r) =>
    `| ${r.bench} | ${r.figure} | ${fmt(r.value)} ${r.unit} | ${fmt(r.baseline)} | ` +
    `${fmt(r.ratio)} | ${r.target} | ${r.pass === null ? '-' : r.pass ? 'yes' : 'NO'} |`);
  process.stdout.write(
    '| bench | figure | value | baseline | ratio | target | met |\n' +
    '|---|---|---|---|---|---|---|\n' +
    lines.join('\n') + '\n');
}

/** True when the bench was asked for its quick variant (`-- --quick` or BENCH_QUICK=1). */
export const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
