// The process's own metrics, from prom-client's default collectors: event-loop delay (p50, p99,
// max over the time since the last scrape), GC pauses by kind, heap and RSS, active handles, CPU
// time. Named under orderflow_ like the rest.
import { collectDefaultMetrics, type Registry } from 'prom-client';
import { registerEventLoopDelay } from './event-loop-delay.js';
import { sampleCollector } from './scrape-registry.js';

/** GC pauses: most scavenges take well under a millisecond, a mark-compact tens of them. */
const gcBoundsS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const prefix = 'orderflow_';
const loopResolutionMs = 10;
const loopGauges = ['', 'min_', 'max_', 'mean_', 'stddev_', 'p50_', 'p90_', 'p99_'];
/**
 * Collectors that read /proc (status, fd, stat through process.memoryUsage()) or ask the kernel
 * for the CPU time of every thread (getrusage, slow with the shards' threads): sampled by the
 * registry's timer, not at each scrape. Each one's collect also sets its siblings (virtual memory
 * and heap; heap used and external; system and total CPU).
 */
const sampledCollectors = ['process_resident_memory_bytes', 'process_open_fds',
  'nodejs_heap_size_total_bytes', 'process_cpu_user_seconds_total'];

export function registerRuntimeMetrics(registry: Registry): void {
  // prom-client's loop monitor cannot be left out; its gauges are replaced below, so it samples
  // once a second instead of every 10 ms.
  collectDefaultMetrics({ register: registry, prefix,
    eventLoopMonitoringPrecision: 1000, gcDurationBuckets: gcBoundsS });
  for (const what of loopGauges) {
    registry.removeSingleMetric(`${prefix}nodejs_eventloop_lag_${what}seconds`);
  }
  registerEventLoopDelay(registry, prefix, loopResolutionMs);
  // Gauges named like counters, which Prometheus's linter refuses; the same counts remain by
  // type (orderflow_nodejs_active_handles{type}).
  for (const name of ['active_handles_total', 'active_requests_total', 'active_resources_total']) {
    registry.removeSingleMetric(`${prefix}nodejs_${name}`);
  }
  for (const name of sampledCollectors) sampleCollector(registry, prefix + name);
}
