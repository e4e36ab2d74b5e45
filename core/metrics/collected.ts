// A metric whose samples are read at scrape time from plain numbers kept by the code that owns
// them: registered on a prom-client registry, which writes its text (the service's registry,
// ScrapeRegistry, asks the metric for it directly). Nothing is made per request or per trade;
// the samples are built only when Prometheus scrapes.
import type { Registry } from 'prom-client';
import { familyText, headerText } from './exposition.js';
import type { Sample } from './sample.js';

export type { Labels, Sample } from './sample.js';

export interface CollectedSpec {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  /** Appends the samples of this scrape. */
  readonly read: (out: Sample[]) => void;
}

/** A metric that writes its own exposition text (ScrapeRegistry calls it without a promise). */
export interface Exposed {
  exposition(): string;
}

/** Registers a metric read by `spec.read` at each scrape. */
export function registerCollected(registry: Registry, spec: CollectedSpec): void {
  const header = headerText(spec.name, spec.help, spec.type);
  const metric = {
    name: spec.name,
    help: spec.help,
    type: spec.type,
    aggregator: 'sum',
    get: () => {
      const values: Sample[] = [];
      spec.read(values);
      return { name: spec.name, help: spec.help, type: spec.type, aggregator: 'sum', values };
    },
    exposition: () => {
      const values: Sample[] = [];
      spec.read(values);
      return familyText(header, spec.name, values);
    },
    reset: () => {},
  };
  // prom-client accepts any object with get(); its typings only name its own classes.
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
}

/** A gauge with one value and no labels. */
export function registerValue(registry: Registry, name: string, help: string,
  value: () => number, type: 'counter' | 'gauge' = 'gauge'): void {
  registerCollected(registry, { name, help, type, read: (out) => out.push({ value: value() }) });
}
