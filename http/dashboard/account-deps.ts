// What the account API reads and writes: accounts and sessions, the key table, access control
// (usage figures), the webhook supervisor, the alert table and the usage history. A scale-out
// front has no webhook supervisor or alert table (they live on ingest, docs/scale-out.md).
import type { AlertRecord } from '../../actors/signals/alerts.js';
import type { WebhookSupervisor } from '../../actors/webhooks/supervisor.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { KeyRecord } from '../../core/messages.js';
import type { AccountStore } from '../../persistence/accounts.js';
import type { AlertStore } from '../../persistence/alerts.js';
import type { KeyStore } from '../../persistence/key-store.js';
import type { AccessControl } from '../access-types.js';
import type { TrustCheck } from '../client-ip.js';
import type { SignInLimiter } from './sign-in-throttle.js';

/** The key operations the dashboard needs (the lmdb KeyStore, or a shared one later). */
export type AccountKeys = Pick<KeyStore, 'create' | 'revoke' | 'byPrefix'>;

export interface AccountApiDeps {
  readonly accounts: AccountStore;
  readonly keys: AccountKeys;
  readonly access: AccessControl;
  /** null on a scale-out front: endpoints, deliveries and alerts are ingest's. */
  readonly webhooks: WebhookSupervisor | null;
  readonly alerts: AlertStore<AlertRecord> | null;
  /** Failed sign-ins: in memory when absent, shared (Redis) in a scale-out deployment. */
  readonly throttle?: SignInLimiter;
  /**
   * Requests counted for `key:<prefix>` on each Europe/Rome day (YYYY-MM-DD) asked, 0 when none:
   * the store's own counters on one box, the shared ones in Redis on scale-out.
   */
  readonly usageOn: (identity: string, dayKeys: readonly string[]) => Promise<number[]>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly trusted: TrustCheck;
  /** `--signup open`: anyone may create an account at /signup. */
  readonly signupOpen: boolean;
  readonly allowPrivateWebhooks: boolean;
  /** How often expired sessions are ended and their keys revoked (default 60 s, wall time). */
  readonly sessionSweepMs?: number;
  /** How long Send test event waits for the receiver's answer (default 12 s). */
  readonly testWaitMs?: number;
}

/** The deps of the routes that run on ingest (or one box) only. */
export interface IngestAccountDeps extends AccountApiDeps {
  readonly webhooks: WebhookSupervisor;
  readonly alerts: AlertStore<AlertRecord>;
}

export function isLive(key: KeyRecord | undefined): key is KeyRecord {
  return key !== undefined && key.revokedAtMs === null;
}
