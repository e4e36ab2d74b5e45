// Plan names: parsed case-insensitively, printed in their canonical spelling (PLANS order).
import { PLANS, type Plan } from '../actors/messages.js';

const byLowerName = new Map<string, Plan>(PLANS.map((plan) => [plan.toLowerCase(), plan]));

/** The canonical plan for a name in any case, or undefined when it is not a plan. */
export function parsePlan(text: string): Plan | undefined {
  return byLowerName.get(text.trim().toLowerCase());
}

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}
