// Plans: their names (parsed case-insensitively, printed canonically) and their order of surface
// (docs/decisions.md: Free = Trial = Starter < Trader < Pro < Whale = API, cumulative).
import { PLANS, type Plan } from './messages.js';

const byLowerName = new Map<string, Plan>(PLANS.map((plan) => [plan.toLowerCase(), plan]));

/** The canonical plan for a name in any case, or undefined when it is not a plan. */
export function parsePlan(text: string): Plan | undefined {
  return byLowerName.get(text.trim().toLowerCase());
}

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

/** Surface rank: plans of equal rank reach the same endpoints and features. */
export const planRank: Readonly<Record<Plan, number>> = Object.freeze({
  Free: 0, Trial: 0, Starter: 0, Trader: 1, Pro: 2, Whale: 3, API: 3,
});

/** Whether a plan's surface includes everything of `minimum`'s. */
export function planAtLeast(plan: Plan, minimum: Plan): boolean {
  return planRank[plan] >= planRank[minimum];
}
