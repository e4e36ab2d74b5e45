// What a pair that stopped trading shows (docs/decisions.md, Warm start: numbers from the first
// response): a builder market outside its session, or any pair with no trade for a window.
// Kyle's lambda (30 one-minute intervals) and the composite score (its CVD flow over the last
// minutes) are null once their window holds no trade; they keep the values of the pair's last
// trading instead, as a venue shows a closed market's last price. VPIN, its level and the
// regime need no carrying: volume buckets and 5-minute bars do not expire with time.
import type { PairAnalyticsSnapshot } from '../../kernels/pair-snapshot.js';

export class PairCarry {
  private kyleLambda: number | null = null;
  private score: number | null = null;
  private direction: PairAnalyticsSnapshot['direction'] = 'NEUTRAL';

  /** Notes the snapshot's numbers (taken at each closed bar: a warm-up publishes only once). */
  remember(s: PairAnalyticsSnapshot): void {
    if (s.kyleLambda !== null) this.kyleLambda = s.kyleLambda;
    if (s.score !== null) {
      this.score = s.score;
      this.direction = s.direction;
    }
  }

  /**
   * For what leaves the pair (views, history points): the snapshot's numbers, noted, or the
   * last ones where it has none. Entry signals read the kernels' own: no flow, no signal.
   */
  apply(s: PairAnalyticsSnapshot): PairAnalyticsSnapshot {
    this.remember(s);
    if (s.kyleLambda === null) s.kyleLambda = this.kyleLambda;
    if (s.score === null && this.score !== null) {
      s.score = this.score;
      s.direction = this.direction;
    }
    return s;
  }
}
