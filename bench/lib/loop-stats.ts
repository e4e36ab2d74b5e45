// Reads a service child's main-thread stall figures (bin/loop-stats.ts): the child runs with
// ORDERFLOW_LOOP_STATS_FILE set, and each SIGUSR2 makes it append the window since the last one.
import { readFile } from 'node:fs/promises';
import type { LoopStats } from '../../bin/loop-stats.js';
import type { ReportRow } from '../harness.js';

export type { LoopStats } from '../../bin/loop-stats.js';

const answerTimeoutMs = 10_000;

export interface LoopStatsReader {
  /** The env the child needs. */
  readonly env: Readonly<Record<string, string>>;
  /** Ends the current window: resolves with its figures once the child has written them. */
  take(pid: number): Promise<LoopStats>;
}

export function loopStatsReader(file: string): LoopStatsReader {
  let linesSeen = 0;
  const lines = async () => (await readFile(file, 'utf8').catch(() => ''))
    .split('\n').filter((line) => line.length > 0);
  return {
    env: { ORDERFLOW_LOOP_STATS_FILE: file },
    async take(pid) {
      process.kill(pid, 'SIGUSR2');
      const deadlineMs = Date.now() + answerTimeoutMs;
      while (Date.now() < deadlineMs) {
        const all = await lines();
        if (all.length > linesSeen) {
          linesSeen = all.length;
          return JSON.parse(all[all.length - 1]!) as LoopStats;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`service ${pid} wrote no loop stats to ${file} within ${answerTimeoutMs} ms`);
    },
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Each figure's median over several windows (rounds of the same scenario). */
export function medianLoopStats(windows: readonly LoopStats[]): LoopStats {
  const of = (pick: (s: LoopStats) => number) => median(windows.map(pick));
  return {
    windowMs: of((s) => s.windowMs),
    delay: { p50Ms: of((s) => s.delay.p50Ms), p99Ms: of((s) => s.delay.p99Ms),
      p999Ms: of((s) => s.delay.p999Ms), maxMs: of((s) => s.delay.maxMs),
      meanMs: of((s) => s.delay.meanMs), samples: of((s) => s.delay.samples) },
    gc: { count: of((s) => s.gc.count), totalMs: of((s) => s.gc.totalMs),
      maxMs: of((s) => s.gc.maxMs), scavenges: of((s) => s.gc.scavenges),
      scavengeMs: of((s) => s.gc.scavengeMs), majors: of((s) => s.gc.majors),
      majorMs: of((s) => s.gc.majorMs) },
  };
}

/**
 * The diagnosis rows of one scenario: event-loop delay percentiles and GC pauses of the
 * server's main thread during the load, against the bare server's in the same run. With
 * `p999TargetMs`, the p99.9 delay row carries that target.
 */
export function loopRows(name: string, ours: LoopStats, bare: LoopStats,
  p999TargetMs?: number, requestsPerSecond?: { ours: number; bare: number }): ReportRow[] {
  const bench = 'http';
  const row = (figure: string, value: number, baseline: number, unit = 'ms',
    target = '-', pass: boolean | null = null): ReportRow => ({
    bench, figure: `${name} ${figure}`, value, unit, baseline,
    ratio: baseline > 0 ? value / baseline : null, target, pass });
  const perSecond = (n: number, s: LoopStats) => (n * 1000) / Math.max(1, s.windowMs);
  return [
    row('event-loop delay p99', ours.delay.p99Ms, bare.delay.p99Ms),
    p999TargetMs === undefined
      ? row('event-loop delay p99.9', ours.delay.p999Ms, bare.delay.p999Ms)
      : row('event-loop delay p99.9', ours.delay.p999Ms, bare.delay.p999Ms, 'ms',
        `< ${p999TargetMs} ms`, ours.delay.p999Ms < p999TargetMs),
    row('event-loop delay max', ours.delay.maxMs, bare.delay.maxMs),
    row('GC pauses per second', perSecond(ours.gc.count, ours), perSecond(bare.gc.count, bare),
      '/s'),
    row('GC pause time per second', perSecond(ours.gc.totalMs, ours),
      perSecond(bare.gc.totalMs, bare), 'ms/s'),
    row('longest GC pause', ours.gc.maxMs, bare.gc.maxMs),
    // Per request: what the handler path allocates, whatever the machine's load did to req/s.
    ...(requestsPerSecond === undefined ? [] : [row('GC pauses per 1,000 requests',
      (perSecond(ours.gc.count, ours) * 1000) / requestsPerSecond.ours,
      (perSecond(bare.gc.count, bare) * 1000) / requestsPerSecond.bare, '')]),
  ];
}
