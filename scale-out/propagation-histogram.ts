// How long snapshot views take from ingest to this front, as the front sees them: from the view's
// put on ingest (the frame's sentAtMs) to the moment this front's store holds it
// (`orderflow_snapshot_propagation_seconds`), and the part of it from the view's batch leaving
// ingest (`orderflow_snapshot_transit_seconds`: Redis and this front; the rest is ingest's turn).
// Prometheus histograms on the front's /metrics, so an operator sees the propagation of a real
// deployment, and the scale-out deploy bench reads the same. Across machines they include the
// difference of their clocks (NTP keeps it to about a ms).

/** Upper bounds of the buckets, ms: fine below 10 ms, where the target (5 ms) lies. */
export const propagationBucketsMs: readonly number[] = [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5,
  10, 15, 25, 50, 100, 250, 500, 1_000, 2_500];

export class PropagationHistogram {
  /** `name`: the metric's name; `help`: its HELP line. */
  constructor(private readonly name = 'orderflow_snapshot_propagation_seconds',
    private readonly help = 'Snapshot views from their put on ingest to this front holding them.',
  ) {}

  /** Per bucket (and the last for +Inf), not cumulative. */
  private readonly counts = new Float64Array(propagationBucketsMs.length + 1);
  private sumMs = 0;
  private count = 0;

  observe(delayMs: number): void {
    // A frame stamped by a clock a little ahead reads negative: it counts as no delay.
    const ms = Math.max(0, delayMs);
    let i = 0;
    while (i < propagationBucketsMs.length && ms > propagationBucketsMs[i]!) i++;
    this.counts[i]!++;
    this.sumMs += ms;
    this.count++;
  }

  get observed(): number {
    return this.count;
  }

  /** The exposition text (cumulative buckets in seconds, as Prometheus histograms are). */
  render(): string {
    const { name } = this;
    const lines = [
      `# HELP ${name} ${this.help}`,
      `# TYPE ${name} histogram`,
    ];
    let cumulative = 0;
    for (let i = 0; i < propagationBucketsMs.length; i++) {
      cumulative += this.counts[i]!;
      lines.push(`${name}_bucket{le="${propagationBucketsMs[i]! / 1000}"} ${cumulative}`);
    }
    lines.push(`${name}_bucket{le="+Inf"} ${this.count}`, `${name}_sum ${this.sumMs / 1000}`,
      `${name}_count ${this.count}`);
    return lines.join('\n') + '\n';
  }
}
