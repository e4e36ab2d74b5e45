// Counters of the HTTP front in Prometheus text format; label values come from the route
// table and a fixed set of statuses, so the series are bounded.

export class HttpMetrics {
  private readonly answers = new Map<string, number>();
  private readonly startedAtMs: number;

  constructor(nowMs: number) {
    this.startedAtMs = nowMs;
  }

  /**
   * Counts one answer; `route` is a route name or one of the fixed names (mount, unknown), and
   * `status` a status code or 'delegated' (a mount answers for itself).
   */
  count(route: string, status: number | 'delegated'): void {
    const key = `${route}\u0000${status}`;
    this.answers.set(key, (this.answers.get(key) ?? 0) + 1);
  }

  /** The exposition text, with gauges from the caller (snapshot views, cached variants). */
  render(nowMs: number, gauges: Readonly<Record<string, number>>): string {
    const lines = [
      '# HELP orderflow_http_responses_total HTTP answers by route and status.',
      '# TYPE orderflow_http_responses_total counter',
    ];
    for (const [key, value] of [...this.answers].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const [route, status] = key.split('\u0000');
      lines.push(`orderflow_http_responses_total{route="${route}",status="${status}"} ${value}`);
    }
    lines.push('# HELP orderflow_http_uptime_seconds Seconds since the HTTP front started.',
      '# TYPE orderflow_http_uptime_seconds gauge',
      `orderflow_http_uptime_seconds ${Math.max(0, (nowMs - this.startedAtMs) / 1000)}`);
    for (const [name, value] of Object.entries(gauges)) {
      lines.push(`# TYPE orderflow_http_${name} gauge`, `orderflow_http_${name} ${value}`);
    }
    return lines.join('\n') + '\n';
  }
}
