// The account tables an admin command works on (`orderflow users`): Redis when
// ORDERFLOW_REDIS_URL is set (a scale-out deployment, docs/scale-out.md: every front sees the
// change within a second), else the data directory's store.
import type { Clock } from '../core/clock.js';
import { openAccountStore } from '../persistence/account-store.js';
import type { AccountStore } from '../persistence/accounts.js';
import { adminClock, withAdminStore } from './admin.js';
import { withSharedState, type KeyAdmin } from './admin-keys.js';
import type { CommandIo } from './cli.js';

export interface AccountAdmin {
  readonly accounts: AccountStore;
  /** Where the accounts' keys are (sessions' keys are revoked when sessions end). */
  readonly keys: KeyAdmin;
  readonly clock: Clock;
}

export async function withAccountAdmin<T>(dataDirFlag: string | undefined, io: CommandIo,
  body: (admin: AccountAdmin) => Promise<T>, createStore = false): Promise<T> {
  const url = io.env.ORDERFLOW_REDIS_URL;
  if (url === undefined || url === '') {
    return withAdminStore(dataDirFlag, io, (store, clock) =>
      body({ accounts: openAccountStore(store.root), keys: store.keys, clock }), createStore);
  }
  return withSharedState(url, io, (shared) =>
    body({ accounts: shared.accounts, keys: shared.keys, clock: adminClock(io) }));
}
