// Wires the dashboard (static pages and the account API) to the store, access control and the
// webhook supervisor; its built files are <project>/web/dist (npm ci builds them).
import { join } from 'node:path';
import type { ServiceConfig } from '../core/config.js';
import type { AlertRecord } from '../actors/signals/alerts.js';
import type { WebhookSupervisor } from '../actors/webhooks/supervisor.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { projectRoot } from '../core/bundle-cache.js';
import { romeDayKey } from '../core/rome-time.js';
import type { AccessControl } from '../http/access-types.js';
import { createTrustCheck } from '../http/client-ip.js';
import { createDashboard, type Dashboard } from '../http/dashboard/index.js';
import type { AccountKeys } from '../http/dashboard/account-deps.js';
import {
  SignInThrottle, sharedSignInThrottle, type SharedSignInCounts,
} from '../http/dashboard/sign-in-throttle.js';
import type { AccountStore } from '../persistence/accounts.js';
import type { RedisLimits } from '../scale-out/redis-limits.js';
import { openAccountStore } from '../persistence/account-store.js';
import { openAlertStore } from '../persistence/alerts.js';
import type { Store } from '../persistence/store.js';
import { openTable } from '../persistence/table.js';

/** Found from the project root, not from this file: `npm start` runs a bundle of it kept under
 *  node_modules/.cache, from where a relative path would point elsewhere. */
export const DASHBOARD_DIST_DIR = join(projectRoot, 'web', 'dist');

export interface DashboardWiring {
  readonly config: ServiceConfig;
  readonly clock: Clock;
  readonly store: Store;
  /** Where the dashboard's keys are made: the shared key table when Redis is configured, so
   *  every front (and the access control in use) sees them; the store's own otherwise. */
  readonly keys?: AccountKeys;
  readonly access: AccessControl;
  /** null on a scale-out front: no webhook endpoints or alerts there (they are ingest's). */
  readonly webhooks: WebhookSupervisor | null;
  /** Accounts, sessions and failed sign-ins shared in Redis (scale-out); the store's own and
   *  this process's memory otherwise. */
  readonly shared?: { readonly accounts: AccountStore; readonly signIns: SharedSignInCounts;
    /** The shared daily counters: the dashboard's usage days are read from them. */
    readonly limits?: Pick<RedisLimits, 'usedOn'> };
  readonly logger: Logger;
  readonly distDir?: string;
  /** How often expired dashboard sessions are swept (tests sweep often; default 60 s). */
  readonly sessionSweepMs?: number;
}

export function createDashboardFor(w: DashboardWiring): Dashboard {
  const usageTable = openTable<number, [string, string]>(w.store.root, 'usage');
  // Today is counted in memory (written behind); earlier days are read from the table.
  const localUsage = (identity: string, dayKey: string) => (dayKey === romeDayKey(w.clock.nowMs())
    ? w.store.usage.get(identity, dayKey) : usageTable.get([dayKey, identity]) ?? 0);
  const dashboard = createDashboard({
    accounts: w.shared?.accounts ?? openAccountStore(w.store.root), keys: w.keys ?? w.store.keys,
    access: w.access, webhooks: w.webhooks,
    alerts: w.webhooks === null ? null : openAlertStore<AlertRecord>(w.store.root),
    throttle: w.shared === undefined ? undefined
      : sharedSignInThrottle(w.shared.signIns, new SignInThrottle(w.clock), w.clock),
    usageOn: (identity, dayKeys) => {
      const local = () => dayKeys.map((dayKey) => localUsage(identity, dayKey));
      // Shared: the counters every front counts in (Redis keeps a key's for 32 days); this
      // process's own while Redis does not answer (what it counted meanwhile).
      return w.shared?.limits === undefined ? Promise.resolve(local())
        : w.shared.limits.usedOn(identity, dayKeys).catch(local);
    },
    clock: w.clock, logger: w.logger, trusted: createTrustCheck(w.config.trustProxy),
    signupOpen: w.config.signupOpen, allowPrivateWebhooks: w.config.allowPrivateWebhooks,
    sessionSweepMs: w.sessionSweepMs,
  }, w.distDir ?? DASHBOARD_DIST_DIR);
  if (!dashboard.files.built) {
    w.logger.warn('the dashboard is not built (web/dist is missing): run npm run build:web');
  }
  return dashboard;
}
