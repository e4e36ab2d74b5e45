// The retry schedule (docs/decisions.md): 8 attempts, the waits between, jitter and Retry-After.

/**
 * Waits after attempt 1, 2, ... 7: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. Each wait counts
 * from the start of the previous attempt, so the last attempt falls about 27.5 h after the first.
 */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
]);
export const ATTEMPTS_MAX = RETRY_DELAYS_MS.length + 1;
/** Jitter only lengthens a wait (by up to 10 %), so no attempt is ever early. */
export const JITTER_FRACTION_MAX = 0.1;
/** A Retry-After beyond a day is capped there: a receiver cannot park a delivery forever. */
export const RETRY_AFTER_MS_MAX = 86_400_000;

/**
 * When the next attempt is due, or null when `attemptsMade` was the last one.
 * random: a uniform number in [0, 1); retryAfterMs: a honoured Retry-After, or null.
 */
export function nextAttemptAtMs(
  attemptsMade: number, attemptStartMs: number, random: number, retryAfterMs: number | null,
): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) {
    throw new RangeError(`attemptsMade must be an integer >= 1 (was ${attemptsMade})`);
  }
  if (!(random >= 0 && random < 1)) {
    throw new RangeError(`random must be in [0, 1) (was ${random})`);
  }
  if (attemptsMade >= ATTEMPTS_MAX) return null;
  const delayMs = RETRY_DELAYS_MS[attemptsMade - 1];
  const scheduledMs = attemptStartMs + Math.round(delayMs * (1 + JITTER_FRACTION_MAX * random));
  if (retryAfterMs === null) return scheduledMs;
  return Math.max(scheduledMs, attemptStartMs + Math.min(retryAfterMs, RETRY_AFTER_MS_MAX));
}

/**
 * Parses a Retry-After value (delta seconds or an HTTP date) into milliseconds from now. An HTTP
 * date is measured against the response's own Date header when there is one, so a receiver whose
 * clock differs from the delivery clock is still read correctly. Unreadable values give null.
 */
export function parseRetryAfterMs(
  value: string | null, responseDate: string | null, nowMs: number,
): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; bare numbers such as '-5' are not dates.
  if (!/^[A-Za-z]{3},/.test(text)) return null;
  const atMs = Date.parse(text);
  if (!Number.isFinite(atMs)) return null;
  const dateMs = responseDate === null ? NaN : Date.parse(responseDate);
  const fromMs = Number.isFinite(dateMs) ? dateMs : nowMs;
  return Math.max(0, atMs - fromMs);
}
