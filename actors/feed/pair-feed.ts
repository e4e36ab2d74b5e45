// The entry point a shard worker calls: one PairFeed for that shard's pairs, whatever the source.
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { SharedBudget } from './budget.js';
import type { FeedSpec, PairFeed } from './feed-types.js';
import { createLivePairFeed, type LivePairFeedOptions } from './home/live-pair-feed.js';
import { createReplayPairFeed } from './replay/replay-pair-feed.js';
import { createSimPairFeed } from './sim/sim-pair-feed.js';
import { gapResumeFill, withLiveResume, type LiveResumeFill } from './live-resume.js';

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
  /** Replay: called once when the file is exhausted. */
  readonly onEnd?: () => void;
  /** Live: fills a restored pair's missed market time (live-resume.ts); default: a gap. */
  readonly liveResumeFill?: LiveResumeFill;
}

export function createPairFeed(spec: FeedSpec, deps: PairFeedDeps): PairFeed {
  switch (spec.kind) {
    case 'sim':
      return createSimPairFeed({ ...spec, clock: deps.clock, logger: deps.logger,
        tickMs: deps.tickMs });
    case 'live':
      return withLiveResume(createLivePairFeed({ ...deps.live, wsUrl: spec.wsUrl,
        clock: deps.clock, logger: deps.logger, budget: deps.budget }), deps.clock,
      deps.liveResumeFill ?? gapResumeFill);
    case 'replay':
      return createReplayPairFeed({ ...spec, clock: deps.clock, logger: deps.logger,
        tickMs: deps.tickMs, onEnd: deps.onEnd });
  }
}
