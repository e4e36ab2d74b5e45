// The daily quota: per key prefix (or client IP without a key), per Europe/Rome calendar day;
// a dashboard session's key counts against its account's one quota, shared by all its sessions.
import type { KeyRecord, UsageCounters } from '../core/messages.js';
import type { Identity, UsageReport } from './access-types.js';
import { appliedDailyLimit, type AppliedLimit } from './plans.js';
import { createRomeDayCache, QUOTA_TIME_ZONE, type RomeDay } from '../core/rome-time.js';

/**
 * Who a key's requests are counted for: `key:<prefix>`, or `account:<id>` for a dashboard
 * session's key, so that signing in again buys no fresh quota or burst window.
 */
export function quotaHolder(key: KeyRecord): string {
  return key.sessionAccountId === undefined
    ? `key:${key.prefix}` : `account:${key.sessionAccountId}`;
}

/** The UsageCounters identity: quotaHolder of the key, or `ip:<address>`. */
export function usageIdentity(identity: Identity): string {
  return identity.kind === 'key' ? quotaHolder(identity.key) : `ip:${identity.ip}`;
}

export interface DailyState {
  readonly applied: AppliedLimit;
  readonly used: number;
  readonly day: RomeDay;
}

export class DailyQuota {
  private readonly dayOf = createRomeDayCache();

  constructor(
    private readonly usage: UsageCounters,
    private readonly keylessDailyLimit: number,
  ) {}

  limitFor(identity: Identity, nowMs: number): AppliedLimit {
    if (identity.kind === 'ip') {
      return { limit: this.keylessDailyLimit, grandfathered: false, grandfatheredUntilMs: null };
    }
    return appliedDailyLimit(identity.plan, identity.key.subscriptionStartMs, nowMs);
  }

  state(identity: Identity, nowMs: number): DailyState {
    const day = this.dayOf(nowMs);
    const used = this.usage.get(usageIdentity(identity), day.key);
    return { applied: this.limitFor(identity, nowMs), used, day };
  }

  /** Counts one request if the day still has room; returns the state before counting. */
  consume(identity: Identity, nowMs: number): { ok: boolean; state: DailyState } {
    const state = this.state(identity, nowMs);
    if (state.used >= state.applied.limit) return { ok: false, state };
    this.usage.increment(usageIdentity(identity), state.day.key);
    return { ok: true, state };
  }

  report(identity: Identity, nowMs: number): UsageReport {
    const { applied, used, day } = this.state(identity, nowMs);
    return {
      plan: identity.kind === 'key' ? identity.plan : null,
      limit: applied.limit,
      used,
      remaining: Math.max(0, applied.limit - used),
      resetsAt: new Date(day.endMs).toISOString(),
      timeZone: QUOTA_TIME_ZONE,
      grandfathered: applied.grandfathered,
      grandfatheredUntil: applied.grandfatheredUntilMs === null
        ? null : new Date(applied.grandfatheredUntilMs).toISOString(),
    };
  }
}

/** Whole seconds until an instant, rounded up so a client that waits is never early. */
export function secondsUntil(targetMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((targetMs - nowMs) / 1000));
}
