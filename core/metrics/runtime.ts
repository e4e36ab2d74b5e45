// The process's own metrics, from prom-client's default collectors: event-loop delay (p50, p99,
// max over the time since the last scrape, from perf_hooks' monitorEventLoopDelay), GC pauses by
// kind, heap and RSS, active handles, CPU time. Named under orderflow_ like the rest.
import { collectDefaultMetrics, type Registry } from 'prom-client';

/** GC pauses: most scavenges take well under a millisecond, a mark-compact tens of them. */
const gcBoundsS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export function registerRuntimeMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry, prefix: 'orderflow_',
    eventLoopMonitoringPrecision: 10, gcDurationBuckets: gcBoundsS });
  // Gauges named like counters, which Prometheus's linter refuses; the same counts remain by
  // type (orderflow_nodejs_active_handles{type}).
  for (const name of ['active_handles_total', 'active_requests_total', 'active_resources_total']) {
    registry.removeSingleMetric(`orderflow_nodejs_${name}`);
  }
}
