// Entry Signal alerts: which of them an entry signal goes to (pairs, timeframe, minimum grade),
// for accounts on Pro or above.
import type { KeyDirectory, Plan } from '../../core/messages.js';
import { planAtLeast } from '../../core/plans.js';
import type { AlertOf, AlertRecord } from './alert-types.js';
import { gradeMeets } from './grade.js';
import type { EntrySignal } from './types.js';

/** Entry signals are a Pro feature (docs/webhooks.md); Whale and API include it. */
export const ENTRY_SIGNAL_PLAN_MIN: Plan = 'Pro';

export { planAtLeast };

/**
 * The Entry Signal alerts a signal matches. With `keys`, alerts whose key is unknown,
 * revoked or below Pro are left out (a plan can be lowered after the alert was added).
 * The grade compared is the one sent (after any session lowering).
 */
export function matchEntrySignalAlerts(alerts: readonly AlertRecord[], signal: EntrySignal,
  keys?: KeyDirectory): AlertOf<'entry_signal'>[] {
  const out: AlertOf<'entry_signal'>[] = [];
  for (const alert of alerts) {
    if (alert.kind !== 'entry_signal') continue;
    if (alert.symbols !== 'all' && !alert.symbols.includes(signal.symbol)) continue;
    if (!alert.timeframes.includes(signal.timeframe)) continue;
    if (!gradeMeets(signal.grade, alert.minGrade)) continue;
    if (keys !== undefined) {
      const key = keys.byPrefix(alert.keyPrefix);
      if (!key || key.revokedAtMs !== null) continue;
      if (!planAtLeast(key.plan, ENTRY_SIGNAL_PLAN_MIN)) continue;
    }
    out.push(alert);
  }
  return out;
}
