// The key table an admin command works on: Redis when ORDERFLOW_REDIS_URL is set (a scale-out
// deployment, docs/scale-out.md; every front sees a change within a second), else the data
// directory's store.
import type { KeyDirectory, KeyRecord, Plan } from '../core/messages.js';
import { createLogger } from '../core/logger.js';
import type { CreatedKey, CreateKeyInput, KeyChange } from '../persistence/keys.js';
import type { RedisKeyStore } from '../scale-out/redis-keys.js';
import { adminClock, withAdminStore } from './admin.js';
import { UsageError, type CommandIo } from './cli.js';
import { openSharedState, type SharedState } from '../scale-out/shared-state.js';

/** What the keys command needs; the embedded KeyStore and RedisKeyStore both have it. */
export interface KeyAdmin {
  create(input: CreateKeyInput): Promise<CreatedKey>;
  list(): KeyRecord[] | Promise<KeyRecord[]>;
  revoke(prefix: string): Promise<KeyChange>;
  setPlan(prefix: string, plan: Plan): Promise<KeyChange>;
}

export async function withKeyAdmin<T>(dataDirFlag: string | undefined, io: CommandIo,
  body: (keys: KeyAdmin) => Promise<T>, createStore = false): Promise<T> {
  const url = io.env.ORDERFLOW_REDIS_URL;
  if (url === undefined || url === '') {
    return withAdminStore(dataDirFlag, io, (store) => body(store.keys), createStore);
  }
  return withRedisKeys(url, io, body);
}

function withRedisKeys<T>(url: string, io: CommandIo,
  body: (keys: RedisKeyStore) => Promise<T>): Promise<T> {
  return withSharedState(url, io, (shared) => body(shared.keys));
}

/** Runs `body` with the state shared in the Redis at `url`; exit 1 when it does not answer. */
export async function withSharedState<T>(url: string, io: CommandIo,
  body: (shared: SharedState) => Promise<T>): Promise<T> {
  const shared = await openSharedState(url, adminClock(io), createLogger({ level: 'silent' }));
  try {
    if (!shared.link.ready()) {
      throw new UsageError(`Redis at ORDERFLOW_REDIS_URL does not answer (${url})`, 1);
    }
    return await body(shared);
  } finally {
    await shared.close();
  }
}

/**
 * Runs `body` with the key directory that holds the keys: Redis's (mirrored) when
 * ORDERFLOW_REDIS_URL is set, else `local` (the data directory's). For admin commands that
 * check a key prefix (webhooks add, alerts add) on ingest's data directory.
 */
export async function withKeyDirectory<T>(io: CommandIo, local: KeyDirectory,
  body: (keys: KeyDirectory) => Promise<T>): Promise<T> {
  const url = io.env.ORDERFLOW_REDIS_URL;
  if (url === undefined || url === '') return body(local);
  return withRedisKeys(url, io, body);
}
