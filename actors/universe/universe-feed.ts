// The entry point the main thread calls: the universe, funding and wallet feed for a FeedSpec.
import type { FeedSpec } from '../feed/feed-types.js';
import { createSharedBudget, type SharedBudget } from '../feed/budget.js';
import { createInfoClient } from '../feed/home/info-client.js';
import type { WalletStateEvent } from '../../core/messages.js';
import { createLiveUniverseFeed } from './live-universe-feed.js';
import { createReplayUniverseFeed } from './replay-universe-feed.js';
import { createSimUniverseFeed } from './sim-universe-feed.js';
import type { UniverseFeed, UniverseFeedDeps } from './universe-types.js';

export interface UniverseFeedFactoryDeps extends UniverseFeedDeps {
  /** The process-wide venue budget (live); the same one the shards attach to. */
  readonly budget?: SharedBudget;
  /** Live: maps a clearinghouseState answer to a wallet event (positioning's parser). */
  readonly parseWallet?: (raw: unknown, address: string, tsMs: number) => WalletStateEvent | null;
  /** Replay: called once when the file is exhausted. */
  readonly onEnd?: () => void;
}

export type { UniverseFeed, UniverseFeedDeps, UniverseFeedEvent } from './universe-types.js';

export function createUniverseFeed(spec: FeedSpec, deps: UniverseFeedFactoryDeps): UniverseFeed {
  switch (spec.kind) {
    case 'sim':
      return createSimUniverseFeed({ ...deps, ...spec });
    case 'live': {
      const budget = deps.budget ?? createSharedBudget(deps.clock);
      const info = createInfoClient({ url: spec.infoUrl, budget, clock: deps.clock });
      return createLiveUniverseFeed({ ...deps, info });
    }
    case 'replay':
      return createReplayUniverseFeed({ ...deps, ...spec });
  }
}
