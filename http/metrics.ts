// Counters of the HTTP front in Prometheus text format; label values come from the route
// table and a fixed set of statuses, so the series are bounded; and the process's faults.
import { renderProcessFaultMetrics } from '../core/process-faults.js';

export class HttpMetrics {
  /** Count by route, then by status: no key string is built per request. */
  private readonly answers = new Map<string, Map<number | 'delegated', number>>();
  private readonly startedAtMs: number;

  constructor(nowMs: number) {
    this.startedAtMs = nowMs;
  }

  /**
   * Counts one answer; `route` is a route name or one of the fixed names (mount, unknown), and
   * `status` a status code or 'delegated' (a mount answers for itself).
   */
  count(route: string, status: number | 'delegated'): void {
    let byStatus = this.answers.get(route);
    if (byStatus === undefined) this.answers.set(route, byStatus = new Map());
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }

  /** The exposition text, with gauges from the caller (snapshot views, cached variants). */
  render(nowMs: number, gauges: Readonly<Record<string, number>>): string {
    const lines = [
      '# HELP orderflow_http_responses_total HTTP answers by route and status.',
      '# TYPE orderflow_http_responses_total counter',
    ];
    const series: [string, string, number][] = [];
    for (const [route, byStatus] of this.answers) {
      for (const [status, value] of byStatus) series.push([route, String(status), value]);
    }
    // Sorted by route then status, as text: a stable exposition order.
    series.sort(([ra, sa], [rb, sb]) => (ra === rb ? (sa < sb ? -1 : 1) : ra < rb ? -1 : 1));
    for (const [route, status, value] of series) {
      lines.push(`orderflow_http_responses_total{route="${route}",status="${status}"} ${value}`);
    }
    lines.push('# HELP orderflow_http_uptime_seconds Seconds since the HTTP front started.',
      '# TYPE orderflow_http_uptime_seconds gauge',
      `orderflow_http_uptime_seconds ${Math.max(0, (nowMs - this.startedAtMs) / 1000)}`);
    for (const [name, value] of Object.entries(gauges)) {
      lines.push(`# TYPE orderflow_http_${name} gauge`, `orderflow_http_${name} ${value}`);
    }
    return lines.join('\n') + '\n' + renderProcessFaultMetrics();
  }
}
