// A histogram kept as plain numbers (counts per bucket, sum, count): observing is a loop over
// the bounds and three additions, so a request or a trade allocates nothing. Read at scrape time
// as Prometheus's cumulative buckets.
import type { Labels, Sample } from './collected.js';

export class BucketHistogram {
  /** Per bucket, not cumulative; the last is +Inf. */
  private readonly counts: Float64Array;
  private sum = 0;
  private count = 0;

  /** `bounds`: upper bounds of the buckets, ascending, in the metric's unit. */
  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }

  get observed(): number {
    return this.count;
  }

  /** Appends the `_bucket`, `_sum` and `_count` samples of `name` with `labels`. */
  read(out: Sample[], name: string, labels: Labels = {}): void {
    let cumulative = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      cumulative += this.counts[i]!;
      out.push({ metricName: `${name}_bucket`, labels: { ...labels, le: this.bounds[i]! },
        value: cumulative });
    }
    out.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' },
      value: this.count });
    out.push({ metricName: `${name}_sum`, labels, value: this.sum });
    out.push({ metricName: `${name}_count`, labels, value: this.count });
  }
}
