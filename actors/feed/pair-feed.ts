// The entry point a shard worker calls: one PairFeed for that shard's pairs, whatever the source.
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { SharedBudget } from './budget.js';
import type { FeedMeters } from './feed-meters.js';
import type { FeedSpec, PairFeed } from './feed-types.js';
import { createLivePairFeed, type LivePairFeedOptions } from './home/live-pair-feed.js';
import type { BackfillReport } from './home/backfill-rounds.js';
import { createReplayPairFeed } from './replay/replay-pair-feed.js';
import { createSimPairFeed } from './sim/sim-pair-feed.js';

export type { EventSink, FeedSpec, FeedStats, PairFeed } from './feed-types.js';

export interface PairFeedDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Wall interval between advances of a paced feed (sim, replay); default 50 ms. */
  readonly tickMs?: number;
  /** The process-wide venue budget (live): attachBudget(buffer, clock) in the worker. */
  readonly budget?: SharedBudget;
  /** Live heartbeat and silence timeouts, reconnect backoff: defaults suit the real venue. */
  readonly live?: Partial<Pick<LivePairFeedOptions, 'heartbeatMs' | 'silenceMs' | 'backoff'>>;
  /** Live backfill: each pair's state as it changes (filling, filled, unfilled). */
  readonly onBackfill?: (report: BackfillReport) => void;
  /** Replay: called once when the file is exhausted. */
  readonly onEnd?: () => void;
  /** Sim: called each time the last warming pair's warm-up reached the start. */
  readonly onWarmedUp?: () => void;
  /** Sim: called in a turn in which some pairs reached the start while others still warm. */
  readonly onPairsWarmed?: () => void;
  /** Sim: the slowest other shard's market time (NaN: none), and this one's after each step. */
  readonly groupMs?: () => number;
  readonly onPaced?: (reachedMs: number | null) => void;
  /** Live: frames per channel, arrival lag, budget waits (feed-meters.ts). */
  readonly meters?: FeedMeters;
}

export function createPairFeed(spec: FeedSpec, deps: PairFeedDeps): PairFeed {
  switch (spec.kind) {
    case 'sim':
      return createSimPairFeed({ ...spec, clock: deps.clock, logger: deps.logger,
        tickMs: deps.tickMs, onWarmedUp: deps.onWarmedUp, onPairsWarmed: deps.onPairsWarmed,
        groupMs: deps.groupMs, onPaced: deps.onPaced });
    case 'live':
      return createLivePairFeed({ ...deps.live, wsUrl: spec.wsUrl, clock: deps.clock,
        logger: deps.logger, budget: deps.budget, meters: deps.meters,
        backfill: spec.backfill && { ...spec.backfill, infoUrl: spec.infoUrl,
          onReport: deps.onBackfill } });
    case 'replay':
      return createReplayPairFeed({ ...spec, clock: deps.clock, logger: deps.logger,
        tickMs: deps.tickMs, onEnd: deps.onEnd });
  }
}
