// Operating errors of the store: each names what was expected and what was found.

export type StoreErrorCode =
  | 'data_dir_missing' | 'store_missing' | 'open_failed' | 'format_too_new' | 'format_too_old'
  | 'unknown_prefix' | 'key_revoked' | 'keys_full' | 'backup_target_exists';

/** An operating error (bad input, missing directory, newer format): reported, never a crash. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
}

export const storeErrors = {
  dataDirMissing: (dir: string) => new StoreError('data_dir_missing',
    `data directory ${dir} does not exist (expected an existing directory; set --data-dir ` +
    'or ORDERFLOW_DATA_DIR, or run orderflow serve once to create it)'),
  storeMissing: (dir: string, path: string) => new StoreError('store_missing',
    `data directory ${dir} has no store yet (expected ${path}; create a key or run ` +
    'orderflow serve first)'),
  openFailed: (path: string, cause: unknown) => new StoreError('open_failed',
    `cannot open the store at ${path}: ${(cause as Error)?.message ?? String(cause)}`, { cause }),
  formatTooNew: (path: string, found: number, supported: number) => new StoreError(
    'format_too_new', `the store at ${path} has format version ${found}, newer than this ` +
    `orderflow supports (expected at most ${supported}); run a newer orderflow or restore a ` +
    'backup made by this version'),
  formatTooOld: (path: string, found: number, supported: number) => new StoreError(
    'format_too_old', `the store at ${path} has format version ${found} and needs migrating ` +
    `to ${supported}, which a read-only open cannot do; open it once read-write`),
  unknownPrefix: (prefix: string) => new StoreError('unknown_prefix',
    `no key has the prefix ${prefix} (expected a prefix shown by 'orderflow keys list')`),
  keyRevoked: (prefix: string, revokedAtMs: number) => new StoreError('key_revoked',
    `key ${prefix} was revoked at ${new Date(revokedAtMs).toISOString()}`),
  keysFull: (max: number) => new StoreError('keys_full',
    `the key table is full (expected fewer than ${max} keys); revoke and prune keys first`),
  backupTargetExists: (dir: string) => new StoreError('backup_target_exists',
    `backup target ${dir} already holds a store (expected a new or empty directory)`),
};
