// API keys: the key material, and the key table with the in-memory directory the server reads.
// Accounts are one per key; the account id is the key prefix (docs/store.md).
import { createHash, randomBytes } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import type { KeyRecord, Plan } from '../core/messages.js';
import type { StoreError } from './errors.js';
import { isPlan } from '../core/plans.js';

const keyPattern = /^ofk_[0-9a-f]{32}$/;
const prefixPattern = /^ofk_[0-9a-f]{8}$/;
/** Meta-table entry bumped by every key change: other processes poll it. */
export const keysChangeCountKey = 'keys.changeCount';

/** A fresh key: `ofk_` + 32 lower-case hex from the crypto random source. */
export function generateApiKey(): string {
  return 'ofk_' + randomBytes(16).toString('hex');
}

export function isApiKey(text: string): boolean {
  return keyPattern.test(text);
}

export function isKeyPrefix(text: string): boolean {
  return prefixPattern.test(text);
}

/** The public prefix: `ofk_` + the first 8 hex characters. */
export function keyPrefixOf(key: string): string {
  return key.slice(0, 12);
}

/** SHA-256 of the whole key as lower-case hex: the only form of a key that is stored. */
export function digestOf(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export interface CreateKeyInput {
  readonly plan: Plan;
  readonly label?: string | null;
  readonly subscriptionStartMs?: number | null;
  /** A dashboard session's key: the account whose quota it shares (KeyRecord). */
  readonly sessionAccountId?: string;
}

/** The full key is returned here once and never again. */
export interface CreatedKey {
  readonly key: string;
  readonly record: KeyRecord;
}

/** A key change: the record after it (changed false when it already was so), or why not. */
export type KeyChange =
  | { readonly ok: true; readonly record: KeyRecord; readonly changed: boolean }
  | { readonly ok: false; readonly error: StoreError };

export interface KeyTables {
  readonly root: RootDatabase;
  readonly keys: Database<KeyRecord, string>;
  readonly meta: Database<unknown, string>;
}

/** Pair assertion on a record before a write and after a read: corruption never spreads. */
export function assertKeyRecord(record: KeyRecord): void {
  const ok = isKeyPrefix(record.prefix) && /^[0-9a-f]{64}$/.test(record.digest) &&
    isPlan(record.plan) && Number.isFinite(record.createdAtMs) &&
    (record.revokedAtMs === null || Number.isFinite(record.revokedAtMs)) &&
    (record.subscriptionStartMs === null || Number.isFinite(record.subscriptionStartMs)) &&
    (record.label === null || typeof record.label === 'string') &&
    (record.sessionAccountId === undefined || /^acc_[0-9a-f]{16}$/.test(record.sessionAccountId));
  if (!ok) throw new Error(`corrupt key record ${JSON.stringify(record)}`);
}
