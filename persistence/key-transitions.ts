// The changes a key record goes through (revoke, change plan), as pure record -> record steps:
// the lmdb key store and the Redis key table apply the same rules through their own writes.
import type { KeyRecord, Plan } from '../core/messages.js';
import { isPlan } from '../core/plans.js';
import { StoreError, storeErrors } from './errors.js';

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
