// A consistent, compacted copy of the store while it is in use (lmdb copies from one read
// snapshot, so writers keep going). The copy is itself a data directory: `<out>/store`.
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

/** Copies the store into `<outDir>/store`; refuses a target that already holds files there. */
export async function backupStore(store: Store, outDir: string, clock: Clock):
  Promise<BackupResult> {
  const path = join(outDir, 'store');
  if (existsSync(path) && readdirSync(path).length > 0) {
    throw storeErrors.backupTargetExists(outDir);
  }
  mkdirSync(path, { recursive: true });
  // Everything written so far (usage included) goes into the copy.
  await store.usage.flush();
  await store.root.backup(path, true);
  // Read the copy back: a backup that does not open is no backup.
  const copy = await openStore({ dataDir: outDir, clock, readOnly: true, watchKeys: false });
  try {
    return { path, formatVersion: copy.formatVersion, keys: copy.keys.list().length };
  } finally {
    await copy.close();
  }
}
