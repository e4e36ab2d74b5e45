// What every process of a scale-out deployment shares through Redis: the connection, the key
// table and the dashboard's accounts and sessions (mirrored in memory), the burst and daily
// limits and the failed sign-ins. Opened by `orderflow serve` for the
// ingest and front roles and by the admin commands (docs/scale-out.md).
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import {
  openRedisLink, type RedisLink, type RedisLinkOptions,
} from './redis-link.js';
import { RedisKeyStore } from './redis-keys.js';
import { RedisLimits } from './redis-limits.js';
import { RedisAccountStore } from './redis-accounts.js';
import { RedisSignInCounts } from './redis-sign-in.js';
import { SIGN_IN_FAILURES_MAX, SIGN_IN_WINDOW_MS } from '../http/dashboard/sign-in-throttle.js';

export interface SharedState {
  readonly link: RedisLink;
  readonly keys: RedisKeyStore;
  readonly limits: RedisLimits;
  /** The dashboard's accounts, sessions and key ownership (mirrored in memory). */
  readonly accounts: RedisAccountStore;
  /** Failed sign-ins, counted across every process. */
  readonly signIns: RedisSignInCounts;
  close(): Promise<void>;
}

/** Bound on the wait for Redis at start: a front starts (and serves stale) without it. */
const firstConnectWaitMs = 2_000;

export async function openSharedState(url: string, clock: Clock, logger: Logger,
  linkOptions: RedisLinkOptions = {}): Promise<SharedState> {
  const link = await openRedisLink(url, logger.child({ component: 'redis' }), linkOptions);
  const keys = new RedisKeyStore(link, clock, logger.child({ component: 'keys' }));
  keys.watch();
  const accounts = new RedisAccountStore(link, logger.child({ component: 'accounts' }));
  accounts.watch();
  // Wait (bounded) for the first connection and key load, so a key that exists is known
  // before the first request.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, firstConnectWaitMs);
    link.onReady(() => {
      void Promise.all([keys.reloadAll(), accounts.reloadAll()]).then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  });
  return {
    link, keys, limits: new RedisLimits(link), accounts,
    signIns: new RedisSignInCounts(link, SIGN_IN_FAILURES_MAX, SIGN_IN_WINDOW_MS),
    async close() {
      keys.close();
      accounts.close();
      await link.close();
    },
  };
}
