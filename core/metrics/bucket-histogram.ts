// A histogram kept as plain numbers (counts per bucket, sum, count): observing is a loop over
// the bounds and three additions, so a request or a trade allocates nothing. Read at scrape time
// as Prometheus's cumulative buckets.
import type { Labels, Sample } from './collected.js';

/**
 * The cells a histogram of `bounds` keeps: one count per bucket (not cumulative; the last is
 * +Inf), then the sum, then the count.
 *
 *   [b0][b1]...[bn-1][+Inf][sum][count]
 */
export function histogramCells(bounds: readonly number[]): number {
  return bounds.length + 3;
}

export class BucketHistogram {
  private readonly sumAt: number;

  /**
   * `bounds`: upper bounds of the buckets, ascending, in the metric's unit. `cells`: where the
   * counts live (histogramCells(bounds) of them), e.g. a view of a SharedArrayBuffer that a
   * worker writes and the main thread reads; its own array when absent.
   */
  constructor(private readonly bounds: readonly number[],
    private readonly cells: Float64Array<ArrayBufferLike> =
      new Float64Array(histogramCells(bounds))) {
    const cellsWanted = histogramCells(bounds);
    if (cells.length !== cellsWanted) {
      throw new RangeError(`histogram cells must be ${cellsWanted} (was ${cells.length})`);
    }
    this.sumAt = bounds.length + 1;
  }

  observe(value: number): void {
    const { bounds, cells } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    cells[i]!++;
    cells[this.sumAt]! += value;
    cells[this.sumAt + 1]!++;
  }

  get observed(): number {
    return this.cells[this.sumAt + 1]!;
  }

  /** Appends the `_bucket`, `_sum` and `_count` samples of `name` with `labels`. */
  read(out: Sample[], name: string, labels: Labels = {}): void {
    const { bounds, cells } = this;
    let cumulative = 0;
    for (let i = 0; i < bounds.length; i++) {
      cumulative += cells[i]!;
      out.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bounds[i]! },
        value: cumulative });
    }
    const count = cells[this.sumAt + 1]!;
    out.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
    out.push({ metricName: `${name}_sum`, labels, value: cells[this.sumAt]! });
    out.push({ metricName: `${name}_count`, labels, value: count });
  }
}
