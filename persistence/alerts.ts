// The alerts table: alert definitions keyed by id, plus a change counter so a running server
// sees what the admin command line added or removed within a second.
import { randomBytes } from 'node:crypto';
import type { RootDatabase } from 'lmdb';
import { openTable } from './table.js';

/** What the store needs of an alert; the full record is actors/signals/alert-types.ts. */
export interface StoredAlert {
  readonly id: string;
  readonly keyPrefix: string;
  readonly kind: string;
  readonly createdAtMs: number;
}

export interface AlertStoreOptions {
  /** Alerts per key; adding one more is refused. */
  readonly alertsPerKeyMax: number;
  /** Alerts in all; adding one more is refused. */
  readonly alertsMax: number;
}

export const defaultAlertStoreOptions: AlertStoreOptions = Object.freeze({
  alertsPerKeyMax: 100,
  alertsMax: 20_000,
});

export type AddResult = { ok: true } | { ok: false; error: string };

export interface AlertStore<A extends StoredAlert = StoredAlert> {
  add(alert: A): Promise<AddResult>;
  get(id: string): A | undefined;
  /** Every alert, or one key's, oldest first. */
  list(keyPrefix?: string): A[];
  /** true when it existed. */
  remove(id: string): Promise<boolean>;
  /** Increases on every add and remove, from any process. */
  version(): number;
}

/** `alr_` + 16 lower-case hex. */
export function newAlertId(): string {
  return `alr_${randomBytes(8).toString('hex')}`;
}

export const ALERT_ID = /^alr_[0-9a-f]{16}$/;

export function openAlertStore<A extends StoredAlert = StoredAlert>(root: RootDatabase,
  override: Partial<AlertStoreOptions> = {}): AlertStore<A> {
  const options = { ...defaultAlertStoreOptions, ...override };
  const table = openTable<A, string>(root, 'alerts');
  const meta = openTable<number, string>(root, 'alerts-meta');
  const bump = () => meta.put('version', (meta.get('version') ?? 0) + 1);
  const list = (keyPrefix?: string) => {
    // Another process (the admin command line) may have written since this read began.
    root.resetReadTxn();
    const out: A[] = [];
    for (const { value } of table.getRange({})) {
      if (keyPrefix === undefined || value.keyPrefix === keyPrefix) out.push(value);
    }
    return out.sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id));
  };
  return {
    async add(alert) {
      if (!ALERT_ID.test(alert.id)) throw new Error(`alert id ${alert.id} is malformed`);
      let result: AddResult = { ok: true };
      await root.transaction(() => {
        const all = [...table.getRange({})].map((entry) => entry.value);
        const own = all.filter((a) => a.keyPrefix === alert.keyPrefix).length;
        if (all.length >= options.alertsMax) {
          result = { ok: false, error: `the alert table is full (expected fewer than ` +
            `${options.alertsMax} alerts; was ${all.length})` };
        } else if (own >= options.alertsPerKeyMax) {
          result = { ok: false, error: `key ${alert.keyPrefix} has too many alerts (expected ` +
            `fewer than ${options.alertsPerKeyMax}; was ${own}); remove some first` };
        } else {
          table.put(alert.id, alert);
          bump();
        }
      });
      return result;
    },
    get: (id) => table.get(id),
    list,
    async remove(id) {
      let existed = false;
      await root.transaction(() => {
        existed = table.get(id) !== undefined;
        if (existed) {
          table.remove(id);
          bump();
        }
      });
      return existed;
    },
    version() {
      root.resetReadTxn();
      return meta.get('version') ?? 0;
    },
  };
}
