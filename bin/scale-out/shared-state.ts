// What every process of a scale-out deployment shares through Redis: the connection, the key
// table (mirrored in memory) and the burst and daily limits. Opened by `orderflow serve` for the
// ingest and front roles and by the admin commands (docs/scale-out.md).
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { openRedisLink, type RedisLink } from '../../persistence/redis-link.js';
import { RedisKeyStore } from '../../persistence/redis-keys.js';
import { RedisLimits } from '../../persistence/redis-limits.js';

export interface SharedState {
  readonly link: RedisLink;
  readonly keys: RedisKeyStore;
  readonly limits: RedisLimits;
  close(): Promise<void>;
}

/** Bound on the wait for Redis at start: a front starts (and serves stale) without it. */
const firstConnectWaitMs = 2_000;

export async function openSharedState(url: string, clock: Clock, logger: Logger):
  Promise<SharedState> {
  const link = openRedisLink(url, logger.child({ component: 'redis' }));
  const keys = new RedisKeyStore(link, clock, logger.child({ component: 'keys' }));
  keys.watch();
  // Wait (bounded) for the first connection and key load, so a key that exists is known
  // before the first request.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, firstConnectWaitMs);
    link.onReady(() => {
      void keys.reloadAll().then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  });
  return {
    link, keys, limits: new RedisLimits(link),
    async close() {
      keys.close();
      await link.close();
    },
  };
}
