// Main-thread stall figures from Node's own perf_hooks monitors: the event-loop delay histogram
// and the GC pauses, per window. The bench reads them to show where the front's tail comes from;
// users never see them (opt-in with ORDERFLOW_LOOP_STATS_FILE, no endpoint).
import { appendFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry }
  from 'node:perf_hooks';

/** One window's figures, milliseconds. */
export interface LoopStats {
  readonly windowMs: number;
  /** Event-loop delay: how late a 1 ms timer fired, i.e. how long the loop was held. */
  readonly delay: { readonly p50Ms: number; readonly p99Ms: number; readonly p999Ms: number;
    readonly maxMs: number; readonly meanMs: number; readonly samples: number };
  /** GC pauses on this thread: scavenges (young) and the rest (mark-compact, incremental). */
  readonly gc: { readonly count: number; readonly totalMs: number; readonly maxMs: number;
    readonly scavenges: number; readonly scavengeMs: number; readonly majors: number;
    readonly majorMs: number };
}

export interface LoopStatsMonitor {
  /** The figures since the last take (or the start), and a new window from now. */
  take(): LoopStats;
  stop(): void;
}

/** The histogram's sampling period: finer would cost the loop it measures. */
const resolutionMs = 1;

export function startLoopStats(): LoopStatsMonitor {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  let gc = { count: 0, totalMs: 0, maxMs: 0, scavenges: 0, scavengeMs: 0, majors: 0,
    majorMs: 0 };
  const fold = (entries: readonly PerformanceEntry[]) => {
    for (const entry of entries) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      gc.count++;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        gc.scavenges++;
        gc.scavengeMs += entry.duration;
      } else {
        gc.majors++;
        gc.majorMs += entry.duration;
      }
    }
  };
  const observer = new PerformanceObserver((list) => fold(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  let startedMs = performance.now();
  // The histogram counts nanoseconds, minus nothing: the delay includes the resolution itself.
  const ms = (ns: number) => Math.max(0, ns / 1e6 - resolutionMs);
  return {
    take() {
      const nowMs = performance.now();
      // Entries are delivered in batches: the ones still queued belong to this window.
      fold(observer.takeRecords());
      const samples = histogram.count;
      const stats: LoopStats = {
        windowMs: nowMs - startedMs,
        delay: {
          p50Ms: samples ? ms(histogram.percentile(50)) : 0,
          p99Ms: samples ? ms(histogram.percentile(99)) : 0,
          p999Ms: samples ? ms(histogram.percentile(99.9)) : 0,
          maxMs: samples ? ms(histogram.max) : 0,
          meanMs: samples ? ms(histogram.mean) : 0,
          samples,
        },
        gc,
      };
      histogram.reset();
      gc = { count: 0, totalMs: 0, maxMs: 0, scavenges: 0, scavengeMs: 0, majors: 0,
        majorMs: 0 };
      startedMs = nowMs;
      return stats;
    },
    stop() {
      histogram.disable();
      observer.disconnect();
    },
  };
}

/**
 * Opt-in for benches: on each SIGUSR2 the service appends the window since the last signal to
 * `file` as one JSON line and starts a new one. (SIGUSR1 is Node's inspector.)
 */
export function writeLoopStatsOnSignal(file: string): () => void {
  const monitor = startLoopStats();
  const onSignal = () => appendFileSync(file, JSON.stringify(monitor.take()) + '\n');
  process.on('SIGUSR2', onSignal);
  return () => {
    process.removeListener('SIGUSR2', onSignal);
    monitor.stop();
  };
}
