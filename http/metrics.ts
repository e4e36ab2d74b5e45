// The HTTP front's counts, kept as plain numbers (a request allocates nothing for them) and read
// by the registry at scrape time. Label values come from the route table, a fixed set of
// statuses and the plans, so the series are bounded.
import { performance } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import { PLANS, type Plan } from '../core/messages.js';
import { BucketHistogram } from '../core/metrics/bucket-histogram.js';
import { registerCollected, registerValue, type Sample } from '../core/metrics/collected.js';
import type { Payload } from './respond.js';

/** Upper bounds of the request duration buckets, seconds: most answers take well under 1 ms. */
const durationBoundsS: readonly number[] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
  0.01, 0.025, 0.05, 0.1, 0.25, 1];
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

type RefusalCode = 'rate_limited' | 'quota_exceeded';
const REFUSALS: readonly RefusalCode[] = ['rate_limited', 'quota_exceeded'];

class RouteCounts {
  readonly byStatus = new Map<number | 'delegated', number>();
  /** By status class (index = status / 100 - 1), made when first observed. */
  readonly durations: (BucketHistogram | undefined)[] = [];
}

export class HttpMetrics {
  /** Count by route, then by status: no key string is built per request. */
  private readonly answers = new Map<string, RouteCounts>();
  private readonly startedAtMs: number;
  /** The route and status counted for the request being answered, for its duration. */
  private pending: RouteCounts | undefined;
  private pendingStatus = 0;
  private startedAt = 0;
  private answering = 0;
  private bytesOut = 0;
  /** Refusals by kind (REFUSALS' order), then plan (PLANS' order, then keyless). */
  private readonly refusals = REFUSALS.map(() => new Float64Array(PLANS.length + 1));

  constructor(nowMs: number) {
    this.startedAtMs = nowMs;
  }

  /** A request begins (synchronous answers are timed from here to end()). */
  begin(): void {
    this.answering++;
    this.pending = undefined;
    this.startedAt = performance.now();
  }

  /** The request's synchronous part is over: times its answer if it was counted. */
  end(): void {
    this.answering--;
    const counts = this.pending;
    if (counts === undefined) return;
    this.pending = undefined;
    const index = Math.floor(this.pendingStatus / 100) - 1;
    if (index < 0 || index >= STATUS_CLASSES.length) return;
    const histogram = counts.durations[index] ??= new BucketHistogram(durationBoundsS);
    histogram.observe((performance.now() - this.startedAt) / 1000);
  }

  /**
   * Counts one answer; `route` is a route name or one of the fixed names (mount, unknown), and
   * `status` a status code or 'delegated' (a mount answers for itself).
   */
  count(route: string, status: number | 'delegated'): void {
    let counts = this.answers.get(route);
    if (counts === undefined) this.answers.set(route, counts = new RouteCounts());
    counts.byStatus.set(status, (counts.byStatus.get(status) ?? 0) + 1);
    if (status !== 'delegated') {
      this.pending = counts;
      this.pendingStatus = status;
    }
  }

  /** Bytes of a body sent (strings counted in UTF-16 units: near enough for ASCII JSON). */
  sent(payload: Payload): void {
    this.bytesOut += payload.body.length;
  }

  /** A burst or daily quota refusal of a key of `plan` (null: a keyless caller). */
  refused(code: string, plan: Plan | null): void {
    const kind = REFUSALS.indexOf(code as RefusalCode);
    if (kind < 0) return;
    const column = plan === null ? PLANS.length : PLANS.indexOf(plan);
    this.refusals[kind]![column]!++;
  }

  /**
   * Registers the front's metrics; `gauges` are read at each scrape (snapshot views, cached
   * variants), `mountsInFlight` adds requests the mounts are still answering.
   */
  register(registry: Registry, nowMs: () => number,
    gauges: Readonly<Record<string, { help: string; value: () => number }>>,
    mountsInFlight: () => number = () => 0): void {
    registerCollected(registry, {
      name: 'orderflow_http_responses_total', help: 'HTTP answers by route and status.',
      type: 'counter', read: (out) => this.readAnswers(out),
    });
    registerCollected(registry, {
      name: 'orderflow_http_request_duration_seconds', type: 'histogram',
      help: 'Time to answer a request on the main thread, by route and status class.',
      read: (out) => this.readDurations(out),
    });
    registerValue(registry, 'orderflow_http_requests_in_flight',
      'Requests begun and not yet answered.', () => this.answering + mountsInFlight());
    registerValue(registry, 'orderflow_http_response_bytes_total',
      'Bytes of response bodies sent.', () => this.bytesOut, 'counter');
    registerCollected(registry, {
      name: 'orderflow_http_refusals_total', type: 'counter',
      help: 'Requests refused by the burst guard (rate_limited) or the daily quota ' +
        '(quota_exceeded), by plan (none: keyless).',
      read: (out) => this.readRefusals(out),
    });
    registerValue(registry, 'orderflow_http_uptime_seconds',
      'Seconds since the HTTP front started.',
      () => Math.max(0, (nowMs() - this.startedAtMs) / 1000));
    for (const [name, gauge] of Object.entries(gauges)) {
      registerValue(registry, `orderflow_http_${name}`, gauge.help, gauge.value);
    }
  }

  private readAnswers(out: Sample[]): void {
    const series: [string, string, number][] = [];
    for (const [route, counts] of this.answers) {
      for (const [status, value] of counts.byStatus) series.push([route, String(status), value]);
    }
    // Sorted by route then status, as text: a stable exposition order.
    series.sort(([ra, sa], [rb, sb]) => (ra === rb ? (sa < sb ? -1 : 1) : ra < rb ? -1 : 1));
    for (const [route, status, value] of series) out.push({ labels: { route, status }, value });
  }

  private readDurations(out: Sample[]): void {
    for (const [route, counts] of this.answers) {
      counts.durations.forEach((histogram, i) => {
        histogram?.read(out, 'orderflow_http_request_duration_seconds',
          { route, status_class: STATUS_CLASSES[i]! });
      });
    }
  }

  private readRefusals(out: Sample[]): void {
    REFUSALS.forEach((code, kind) => {
      const row = this.refusals[kind]!;
      for (let column = 0; column <= PLANS.length; column++) {
        out.push({ labels: { code, plan: PLANS[column] ?? 'none' }, value: row[column]! });
      }
    });
  }
}
