// The service's registry: prom-client's, with a scrape that writes our collected metrics' text
// synchronously (no promise per metric) and collectors that read /proc or the file system
// sampled by one timer instead of at each scrape, so a scrape does no I/O.
import { Registry } from 'prom-client';
import type { Exposed } from './collected.js';

const isExposed = (metric: object): metric is Exposed =>
  typeof (metric as Partial<Exposed>).exposition === 'function';

export class ScrapeRegistry extends Registry {
  private readonly refreshers: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private labelled = false;

  /** `samplePeriodMs`: how often sampled collectors are read (their values' age at most). */
  constructor(private readonly samplePeriodMs = 1000) {
    super();
    if (!(samplePeriodMs > 0)) throw new RangeError('samplePeriodMs must be > 0');
  }

  override setDefaultLabels(labels: object): void {
    this.labelled = Object.keys(labels).length > 0;
    super.setDefaultLabels(labels);
  }

  /** The same text as prom-client's metrics(), ours written without a promise each. */
  override async metrics(): Promise<string> {
    // Default labels and OpenMetrics change every line: prom-client's own writer handles them.
    if (this.labelled || this.contentType !== Registry.PROMETHEUS_CONTENT_TYPE) {
      return super.metrics();
    }
    const parts: (string | Promise<string>)[] = [];
    for (const metric of this.getMetricsAsArray()) {
      parts.push(isExposed(metric) ? metric.exposition()
        : this.getSingleMetricAsString(metric.name));
    }
    return `${(await Promise.all(parts)).join('\n\n')}\n`;
  }

  /**
   * `read` taken off the scrape: the getter returns the value the timer read last, once every
   * sample period. The first call reads at once, and so does the call after a failed read, so a
   * failure still reaches the scrape as before.
   */
  sample<T>(read: () => T): () => T {
    let last: { value: T } | null = null;
    this.refreshers.push(() => {
      if (last === null) return;
      try {
        last = { value: read() };
      } catch {
        last = null;
      }
    });
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.refreshSamples(), this.samplePeriodMs);
      this.timer.unref();
    }
    return () => (last ??= { value: read() }).value;
  }

  /** Reads every sampled collector now (the timer's work; tests call it directly). */
  refreshSamples(): void {
    for (const refresh of this.refreshers) refresh();
  }

  /** Stops sampling (the service is closing). */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** `read` sampled by `registry`'s timer when it is a ScrapeRegistry, else read at each call. */
export function sampled<T>(registry: Registry, read: () => T): () => T {
  return registry instanceof ScrapeRegistry ? registry.sample(read) : read;
}

/** prom-client's collector `name` (when registered) sampled like `sampled`'s. */
export function sampleCollector(registry: Registry, name: string): void {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined || !(registry instanceof ScrapeRegistry)) return;
  const get = metric.get.bind(metric);
  const last = registry.sample(get);
  metric.get = () => last();
}
