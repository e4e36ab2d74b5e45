// The live backfill's state per tracked pair, gathered from the shards' reports on the main
// thread: /readyz's `backfill` check (every tracked pair filled, given up on, or past its wait
// and still filling in the background) and the detail text naming the pairs not filled and why.
import type { BackfillReport } from '../feed/home/backfill-rounds.js';


/** Pairs named in the detail text at most (the rest are counted): every tracked pair. */
const namedPairsMax = 110;

export class BackfillStatus {
  /**
   * The newest settled outcome per pair (`late` included: past its wait, still filling); a
   * refill after a reconnect keeps the old one.
   */
  private readonly settled = new Map<string, BackfillReport>();

  /** `enabled` false (not live, or backfill off): the check always holds. */
  constructor(private readonly enabled: boolean) {}

  onReport(report: BackfillReport): void {
    if (report.state !== 'filling') this.settled.set(report.symbol, report);
  }

  /** Every tracked pair's start-up wait is over: filled, given up, or late (still filling). */
  check(tracked: readonly string[]): boolean {
    return !this.enabled || (tracked.length > 0 && tracked.every((s) => this.settled.has(s)));
  }

  /** Tracked pairs by backfill outcome (metrics); null when it is off. */
  counts(tracked: readonly string[]): { filled: number; pending: number; unfilled: number } |
    null {
    if (!this.enabled) return null;
    let filled = 0;
    let pending = 0;
    for (const symbol of tracked) {
      const state = this.settled.get(symbol)?.state;
      if (state === undefined) pending++;
      else if (state === 'filled') filled++;
    }
    return { filled, pending, unfilled: tracked.length - filled - pending };
  }

  /** What /readyz says of the backfill; null when it is off. */
  detail(tracked: readonly string[]): string | null {
    if (!this.enabled) return null;
    const byReason = new Map<string, string[]>();
    let filled = 0;
    let waiting = 0;
    for (const symbol of tracked) {
      const r = this.settled.get(symbol);
      if (!r) waiting++;
      else if (r.state === 'filled') filled++;
      else byReason.set(r.reason ?? 'unknown', [...(byReason.get(r.reason ?? 'unknown') ?? []),
        symbol]);
    }
    const parts = [`${filled} of ${tracked.length} pairs filled from candles`];
    // Still in the start-up wait; late pairs (past it) are named with their reason below.
    if (waiting > 0) parts.push(`${waiting} filling`);
    for (const [reason, pairs] of byReason) {
      const named = pairs.slice(0, namedPairsMax).join(', ');
      const more = pairs.length > namedPairsMax ? ` and ${pairs.length - namedPairsMax} more` : '';
      parts.push(`not filled: ${named}${more} (${reason})`);
    }
    return parts.join('; ');
  }
}
