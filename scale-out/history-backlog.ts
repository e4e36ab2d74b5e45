// How much history the Redis stream keeps for fronts that start or come back
// (ORDERFLOW_HISTORY_BACKLOG_HOURS, docs/scale-out.md "History"): a front that was away longer
// than this has a gap in its history for the time beyond it.
import { UsageError } from '../core/usage-error.js';

export const HISTORY_BACKLOG_HOURS_DEFAULT = 24;
const hourMs = 3_600_000;

/** The backlog in ms from the environment (1..4320 hours, default 24). */
export function historyBacklogMs(env: Readonly<Record<string, string | undefined>>): number {
  const text = env.ORDERFLOW_HISTORY_BACKLOG_HOURS;
  if (text === undefined || text === '') return HISTORY_BACKLOG_HOURS_DEFAULT * hourMs;
  const hours = Number(text);
  if (!Number.isInteger(hours) || hours < 1 || hours > 4_320) {
    throw new UsageError('ORDERFLOW_HISTORY_BACKLOG_HOURS must be an integer from 1 to 4320 ' +
      `(was '${text}')`);
  }
  return hours * hourMs;
}
