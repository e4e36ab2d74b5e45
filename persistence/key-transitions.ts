// The changes a key record goes through (creation, then revoke and change plan as pure
// record -> record steps): the lmdb key store and the Redis key table apply the same rules
// through their own writes.
import type { KeyRecord, Plan } from '../core/messages.js';
import { isPlan } from '../core/plans.js';
import { StoreError, storeErrors } from './errors.js';
import {
  assertKeyRecord, digestOf, generateApiKey, keyPrefixOf, type CreatedKey, type CreateKeyInput,
} from './keys.js';
import { storeLimits } from './limits.js';

export type KeyTransition = (record: KeyRecord) => KeyRecord | StoreError;

/** Revocation is idempotent: a revoked key keeps its first revocation time. */
export function revokeAt(nowMs: number): KeyTransition {
  return (record) => record.revokedAtMs !== null ? record : { ...record, revokedAtMs: nowMs };
}

/** Moves a live key to another plan; a revoked key cannot move. */
export function moveToPlan(prefix: string, plan: Plan): KeyTransition {
  if (!isPlan(plan)) throw new TypeError(`plan must be one of PLANS (was ${plan})`);
  return (record) => {
    if (record.revokedAtMs !== null) return storeErrors.keyRevoked(prefix, record.revokedAtMs);
    return record.plan === plan ? record : { ...record, plan };
  };
}

/** What one attempt to store a new key's record under its prefix came to. */
export type KeyWrite = 'written' | 'taken' | 'full';

/**
 * Creates a key: a fresh key per attempt until its record is stored under a free prefix
 * (`write` stores it only if the prefix is free and the table not full). The full key is in
 * the answer only: the store keeps its digest.
 */
export async function createKeyWith(input: CreateKeyInput, nowMs: number,
  write: (record: KeyRecord) => Promise<KeyWrite>): Promise<CreatedKey> {
  if (!isPlan(input.plan)) throw new TypeError(`plan must be one of PLANS (was ${input.plan})`);
  for (let attempt = 0; attempt < storeLimits.keyPrefixAttemptsMax; attempt++) {
    const key = generateApiKey();
    const record: KeyRecord = {
      prefix: keyPrefixOf(key), digest: digestOf(key), plan: input.plan,
      label: input.label ?? null, subscriptionStartMs: input.subscriptionStartMs ?? null,
      createdAtMs: nowMs, revokedAtMs: null,
      ...(input.sessionAccountId === undefined ? {} : { sessionAccountId: input.sessionAccountId }),
    };
    assertKeyRecord(record);
    const outcome = await write(record);
    if (outcome === 'full') throw storeErrors.keysFull(storeLimits.keysMax);
    if (outcome === 'written') return { key, record };
  }
  throw new Error(`no free key prefix in ${storeLimits.keyPrefixAttemptsMax} attempts`);
}
