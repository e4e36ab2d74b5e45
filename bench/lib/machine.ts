// The machine a report was measured on: figures mean little without it.
import { readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, release, totalmem } from 'node:os';

export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryTotalMiB: number;
  readonly memoryFreeMiB: number;
  readonly nodeVersion: string;
  readonly platform: string;
  /** 1-minute load average when the run started: a busy shared machine shows here. */
  readonly loadAverage1m: number;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryTotalMiB: Math.round(totalmem() / 1048576),
    memoryFreeMiB: Math.round(freemem() / 1048576),
    nodeVersion: process.version,
    platform: `${process.platform} ${release()} ${process.arch}`,
    loadAverage1m: Number(loadavg()[0].toFixed(2)),
  };
}

/** The machine's CPU ticks so far, all cores: their sum and the hypervisor's share (steal). */
export interface CpuTicks {
  readonly total: number;
  readonly steal: number;
}

/** From /proc/stat's first line; null where there is none (not Linux). */
export function cpuTicks(): CpuTicks | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/)
      .slice(1, 9).map(Number);
    // user nice system idle iowait irq softirq steal
    return { total: fields.reduce((sum, n) => sum + n, 0), steal: fields[7] ?? 0 };
  } catch {
    return null;
  }
}

/**
 * Percent of the CPU time between two readings that the hypervisor gave to other guests: on a
 * shared VM, tail latency and throughput move with it, whatever the code does.
 */
export function stealPercent(before: CpuTicks | null, after: CpuTicks | null): number | null {
  if (before === null || after === null || after.total <= before.total) return null;
  return (100 * (after.steal - before.steal)) / (after.total - before.total);
}
