// The plan table: which plan reaches which endpoint, and the daily quota each plan gets, with
// the Whale grandfathering window (docs/decisions.md, "Plans and access").
import type { Plan } from '../core/messages.js';
import type { Endpoint } from './access-types.js';
import { romeMidnightMs } from '../core/rome-time.js';
import { planAtLeast } from '../core/plans.js';


/**
 * THE table: the lowest plan that reaches each endpoint; null means open (no key needed).
 * `usage` needs a key of any plan.
 */
export const minimumPlan: Readonly<Record<Endpoint, Plan | null>> = Object.freeze({
  'screener': null,
  'pair': null,
  'usage': 'Free',
  'signals': 'Trader',
  'smart-money': 'Pro',
  'deep-view': 'Whale',
  'cvd': 'Whale',
  'funding-arb': 'Whale',
  'liquidation-map': 'Whale',
  'wallets': 'Whale',
  'export': 'Whale',
  'history': 'Pro',
  'footprint': 'Whale',
  'volume-profile': 'Whale',
});

/** Whether a plan's surface includes the endpoint (open endpoints are reached by every plan). */
export function planReaches(plan: Plan, endpoint: Endpoint): boolean {
  const required = minimumPlan[endpoint];
  return required === null || planAtLeast(plan, required);
}

/** Requests per Rome day (docs/api.md, "Quotas and limits"). */
export const dailyLimitByPlan: Readonly<Record<Plan, number>> = Object.freeze({
  Free: 20, Trial: 500, Starter: 500, Trader: 2_000, Pro: 5_000, Whale: 2_000, API: 50_000,
});

/** Whale subscriptions started before this keep the old allowance until grandfatherEndMs. */
export const grandfatherCutoffMs = romeMidnightMs(2026, 9, 8);
export const grandfatherEndMs = romeMidnightMs(2026, 11, 7);
export const grandfatheredDailyLimit = 50_000;

export interface AppliedLimit {
  readonly limit: number;
  readonly grandfathered: boolean;
  /** Epoch ms when the grandfathered allowance ends, or null. */
  readonly grandfatheredUntilMs: number | null;
}

/** The daily limit a key gets at an instant, grandfathering included. */
export function appliedDailyLimit(
  plan: Plan, subscriptionStartMs: number | null, nowMs: number,
): AppliedLimit {
  const grandfathered = plan === 'Whale' && subscriptionStartMs !== null &&
    subscriptionStartMs < grandfatherCutoffMs && nowMs < grandfatherEndMs;
  if (grandfathered) {
    return {
      limit: grandfatheredDailyLimit, grandfathered, grandfatheredUntilMs: grandfatherEndMs,
    };
  }
  return { limit: dailyLimitByPlan[plan], grandfathered: false, grandfatheredUntilMs: null };
}
