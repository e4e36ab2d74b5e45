// One sample of a metric read at scrape time: its labels and value (histograms: its series).

export type Labels = Readonly<Record<string, string | number>>;

export interface Sample {
  readonly labels?: Labels;
  readonly value: number;
  /** For histograms: the series' full name (`_bucket`, `_sum`, `_count`). */
  readonly metricName?: string;
}
