// The store's format version and its forward migrations, run once at open, in order, each in
// the same write transaction as the version bump so a crash leaves a whole step or none.
import type { Database, RootDatabase } from 'lmdb';
import { moveTables } from './bulk-tables.js';
import { storeErrors } from './errors.js';

export type MetaTable = Database<unknown, string>;

export const formatVersionKey = 'format.version';

/** What a step may reach besides the main environment. */
export interface MigrationContext {
  /** The bulk environment (`<dataDir>/store-bulk`, persistence/bulk-tables.ts). */
  readonly bulk: RootDatabase;
}

/** One forward step: from `to - 1` to `to`. Runs inside a synchronous write transaction. */
export interface Migration {
  readonly to: number;
  readonly describe: string;
  run(root: RootDatabase, context: MigrationContext): void;
}

/**
 * Every format step, oldest first. Append only: a released step is never edited, since stores
 * out there have already run it. A table that is new in a step needs no migration of its own.
 */
export const migrations: readonly Migration[] = [
  { to: 1, describe: 'initial layout: meta, keys, usage', run: () => {} },
  { to: 2, describe: 'footprints, history, 5m bars, pair states, signals to the bulk environment',
    run: (root, { bulk }) => moveTables(root, bulk) },
];

export const currentFormatVersion = migrations[migrations.length - 1].to;

migrations.forEach((step, index) => {
  if (step.to !== index + 1) throw new Error(`migration ${index} must go to ${index + 1}`);
});

export function readFormatVersion(meta: MetaTable): number {
  const value = meta.get(formatVersionKey);
  return typeof value === 'number' ? value : 0;
}

/**
 * Brings the store to the current format. Refuses a newer format before touching anything.
 * Returns the versions it moved through (empty when already current).
 */
export function migrate(
  root: RootDatabase, meta: MetaTable, path: string, steps = migrations,
  context: MigrationContext = { bulk: root },
): number[] {
  const target = steps.length === 0 ? 0 : steps[steps.length - 1].to;
  const applied: number[] = [];
  for (;;) {
    const found = readFormatVersion(meta);
    if (found > target) throw storeErrors.formatTooNew(path, found, target);
    if (found === target) return applied;
    const step = steps[found];
    // The version is re-read inside the transaction: another process may have migrated first.
    root.transactionSync(() => {
      const inside = meta.get(formatVersionKey);
      if ((typeof inside === 'number' ? inside : 0) !== found) return;
      step.run(root, context);
      meta.putSync(formatVersionKey, step.to);
      applied.push(step.to);
    });
  }
}
