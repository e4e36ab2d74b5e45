// A consistent, compacted copy of the store while it is in use (lmdb copies each environment
// from one read snapshot, so writers keep going). The copy is itself a data directory:
// `<out>/store` and `<out>/store-bulk`.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import { storeErrors } from './errors.js';
import { openStore, type Store } from './store.js';

export interface BackupResult {
  readonly path: string;
  readonly formatVersion: number;
  readonly keys: number;
}

/**
 * Copies the store into `<outDir>/store` and `<outDir>/store-bulk`; refuses a target that
 * already holds files there.
 */
export async function backupStore(store: Store, outDir: string, clock: Clock):
  Promise<BackupResult> {
  const path = join(outDir, 'store');
  const bulkPath = join(outDir, 'store-bulk');
  for (const target of [path, bulkPath]) {
    if (existsSync(target) && readdirSync(target).length > 0) {
      throw storeErrors.backupTargetExists(outDir);
    }
  }
  mkdirSync(path, { recursive: true });
  mkdirSync(bulkPath, { recursive: true });
  // Everything written so far (usage included) goes into the copy. The two environments are
  // copied one after the other: market data and accounts do not refer to each other.
  await store.flush();
  await store.root.backup(path, true);
  await store.bulk.backup(bulkPath, true);
  // Read the copy back: a backup that does not open is no backup.
  const copy = await openStore({ dataDir: outDir, clock, readOnly: true, watchKeys: false });
  try {
    return { path, formatVersion: copy.formatVersion, keys: copy.keys.list().length };
  } finally {
    await copy.close();
  }
}
