// The garbage collector's pauses of this process's main thread since the last take (perf_hooks
// 'gc' entries): a pause holds every view waiting on this thread, so it shows in propagation's
// tail figures on their own.
import { PerformanceObserver } from 'node:perf_hooks';

export interface GcPauses {
  readonly count: number;
  readonly totalMs: number;
  readonly maxMs: number;
}

export function watchGcPauses(): { take(): GcPauses; stop(): void } {
  let pauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    take() {
      const taken = pauses;
      pauses = [];
      return { count: taken.length, totalMs: taken.reduce((sum, ms) => sum + ms, 0),
        maxMs: Math.max(0, ...taken) };
    },
    stop: () => observer.disconnect(),
  };
}
