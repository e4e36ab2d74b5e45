// The embedded store: the main lmdb environment under <dataDir>/store, and the bulk one under
// <dataDir>/store-bulk for the large write-heavy tables (persistence/bulk-tables.ts), reopened
// after its writes. Opening it checks the format version and runs forward migrations.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import type { Clock } from '../core/clock.js';
import type { KeyRecord } from '../core/messages.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { storeErrors, StoreError } from './errors.js';
import { currentFormatVersion, migrate, readFormatVersion, type MetaTable } from './format.js';
import { ReopeningEnvironment } from './reopening-environment.js';
import { KeyStore } from './key-store.js';
import { storeLimits } from './limits.js';
import { prepareStoreDirectory } from './store-files.js';
import { openTable, storeEncoder } from './table.js';
import { WriteBehindUsage, type UsageTable } from './usage.js';

export interface StoreOptions {
  readonly dataDir: string;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** No writes at all: no migrations, no usage write-behind. */
  readonly readOnly?: boolean;
  /** Create a missing data directory (serve); admin commands pass false and get an error. */
  readonly createDataDir?: boolean;
  /** Create `<dataDir>/store` when missing (default true); false gives a clear error. */
  readonly createStore?: boolean;
  /** Re-read the key table when another process changes it (default true). */
  readonly watchKeys?: boolean;
  readonly keyPollMs?: number;
  readonly usageFlushMs?: number;
}

export interface Store {
  readonly dataDir: string;
  /** The lmdb environment's directory, `<dataDir>/store`. */
  readonly path: string;
  /** Open your own tables with `openTable(store.root, name)` (persistence/table.ts). */
  readonly root: RootDatabase;
  /** The bulk environment's directory, `<dataDir>/store-bulk`. */
  readonly bulkPath: string;
  /**
   * The bulk environment, reopened after every so many writes (persistence/bulk-tables.ts names
   * its tables): open them with `openTable(store.bulk, name)` and keep no other handle on it.
   */
  readonly bulk: RootDatabase;
  /** Times the bulk environment was closed and opened again since this store opened. */
  bulkReopens(): number;
  readonly formatVersion: number;
  readonly keys: KeyStore;
  readonly usage: WriteBehindUsage;
  /**
   * Writes the usage held behind and resolves once every write queued so far (keys, usage,
   * outbox, alerts, signals...) is committed and on disk: what a stop does first.
   */
  flush(): Promise<void>;
  /** Stops the pollers, flushes usage and closes the environment. Idempotent. */
  close(): Promise<void>;
}

/** The environment options, the same in every process that opens the store. */
export function openEnvironment(path: string, readOnly: boolean): RootDatabase {
  // lmdb's typings do not list an encoder instance; its runtime accepts one.
  const options = {
    path, maxDbs: storeLimits.tablesMax, readOnly, encoder: storeEncoder(),
    mapSize: storeLimits.mapBytes,
  } as unknown as { path: string };
  return open(options);
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const logger = (options.logger ?? silentLogger).child({ component: 'store' });
  const path = join(options.dataDir, 'store');
  const readOnly = options.readOnly ?? false;
  prepareStoreDirectory(options, path);
  let root: RootDatabase;
  try {
    root = openEnvironment(path, readOnly);
  } catch (error) {
    throw storeErrors.openFailed(path, error);
  }
  let bulk: ReopeningEnvironment | null = null;
  try {
    const found = checkFormat(root, options, path);
    bulk = openBulk(options, logger, found);
    if (!readOnly) {
      const applied = migrate(root, openTable(root, 'meta'), path, undefined, { bulk: bulk.root });
      if (applied.length > 0) {
        logger.info('store format migrated', { to: applied });
        // A migration that moved tables read them through the main map: closing unmaps them.
        await root.close();
        root = openEnvironment(path, readOnly);
      }
    }
    return assemble(root, bulk, options, path, logger);
  } catch (error) {
    await bulk?.close();
    await root.close();
    if (error instanceof StoreError) throw error;
    throw storeErrors.openFailed(path, error);
  }
}

/**
 * Refuses a newer format (before the bulk environment is touched), and an older read-only;
 * returns the format found.
 */
function checkFormat(root: RootDatabase, options: StoreOptions, path: string): number {
  const found = readFormatVersion(openTable(root, 'meta'));
  const supported = currentFormatVersion;
  if (found > supported) throw storeErrors.formatTooNew(path, found, supported);
  if (options.readOnly && found < supported) {
    throw storeErrors.formatTooOld(path, found, supported);
  }
  return found;
}

/** `formatFound`: the main environment's format, from which on it should be there. */
function openBulk(options: StoreOptions, logger: Logger, formatFound: number):
  ReopeningEnvironment {
  const path = join(options.dataDir, 'store-bulk');
  if (formatFound >= 2 && !existsSync(path)) {
    // Copied or restored without it: the service runs, but its past starts over.
    logger.warn('the bulk store is missing: bars, footprints, history and signals start empty',
      { path });
  }
  const readOnly = options.readOnly ?? false;
  // Created with the store (a store from before format 2 gets it at its migration).
  prepareStoreDirectory({ ...options, createStore: !readOnly }, path);
  try {
    return new ReopeningEnvironment(() => openEnvironment(path, readOnly),
      { writesPerReopen: storeLimits.bulkWritesPerReopen },
      (error) => logger.error('reopening the bulk store failed', { error: error.message }));
  } catch (error) {
    throw storeErrors.openFailed(path, error);
  }
}

function assemble(root: RootDatabase, bulk: ReopeningEnvironment, options: StoreOptions,
  path: string, logger: Logger): Store {
  const readOnly = options.readOnly ?? false;
  const meta: MetaTable = openTable(root, 'meta');
  const keyTable = openTable<KeyRecord, string>(root, 'keys');
  const keys = new KeyStore({ root, keys: keyTable, meta }, options.clock, logger);
  if (options.watchKeys ?? true) keys.watch(options.keyPollMs);
  const usage = new WriteBehindUsage(openTable(root, 'usage') as UsageTable, options.clock, logger);
  usage.load();
  if (!readOnly) usage.start(options.usageFlushMs);
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      keys.close();
      if (!readOnly) await usage.close();
      await bulk.close();
      await root.close();
    })();
    return closing;
  };
  const flush = async () => {
    if (!readOnly) await usage.flush();
    await bulk.settled();
    await Promise.all([root.flushed, bulk.root.flushed]);
  };
  return { dataDir: options.dataDir, path, root, bulkPath: join(options.dataDir, 'store-bulk'),
    bulk: bulk.root, bulkReopens: () => bulk.reopens, formatVersion: readFormatVersion(meta),
    keys, usage, flush, close };
}
