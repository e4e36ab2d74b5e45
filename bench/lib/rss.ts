// Resident set size of a process (worker threads included: they share the process), from /proc.
import { readFileSync } from 'node:fs';

/** RSS in MB (10^6 bytes, as the targets are written); null when the process is gone. */
export function rssMB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return Number.isFinite(kib) ? kib * 1024 / 1e6 : null;
  } catch {
    return null;
  }
}

export interface RssSampler {
  /** Samples so far, oldest first (bounded: the oldest are dropped past samplesMax). */
  samples(): readonly number[];
  peakMB(): number;
  stop(): void;
}

/** Samples a process's RSS every intervalMs; keeps at most samplesMax values. */
export function sampleRss(pid: number, intervalMs: number, samplesMax = 4_096): RssSampler {
  const values: number[] = [];
  let peak = 0;
  const take = () => {
    const value = rssMB(pid);
    if (value === null) return;
    peak = Math.max(peak, value);
    values.push(value);
    if (values.length > samplesMax) values.shift();
  };
  take();
  const timer = setInterval(take, intervalMs);
  return { samples: () => values, peakMB: () => peak, stop: () => clearInterval(timer) };
}
