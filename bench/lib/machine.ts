// The machine a report was measured on: figures mean little without it.
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
