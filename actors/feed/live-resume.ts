// The live feed's side of a restart (DECISIONS.md, Warm start): a pair restored from saved state
// needs the venue's market time since that state filled in. The hook below is where the live
// backfill (candleSnapshot, fundingHistory; actors/feed/home/) does it for [fromMs, toMs) of one
// symbol; until it does, the pair keeps its state and sees a feed gap (nothing is computed
// across the hole, everything closed before it stays).
import type { Clock } from '../../core/clock.js';
import type { PairFeed, ResumeAnswer } from './feed-types.js';

/**
 * Fills a restored symbol's missed market time from the venue: 'fill' when it will emit that
 * time's candles through the symbol's lane before live events, 'gap' when it cannot.
 */
export type LiveResumeFill = (symbol: string, fromMs: number, toMs: number) => ResumeAnswer;

/** No backfill yet: a restored live pair sees a gap between its state and the live feed. */
export const gapResumeFill: LiveResumeFill = () => 'gap';

/** Gives a live feed its resumeFrom: a state from the future is refused, else `fill` decides. */
export function withLiveResume(feed: PairFeed, clock: Clock, fill: LiveResumeFill): PairFeed {
  return Object.assign(feed, {
    resumeFrom(symbol: string, fromMs: number): ResumeAnswer {
      const nowMs = clock.nowMs();
      return fromMs > nowMs ? 'refuse' : fill(symbol, fromMs, nowMs);
    },
  });
}
