// Sign-in throttling: five failed attempts per account or per client address within 15
// minutes refuse further attempts (429 with Retry-After) until the oldest failure ages out.
import type { Clock } from '../../core/clock.js';

export const SIGN_IN_FAILURES_MAX = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Bound on the subjects remembered (an address flood must not grow memory without end). */
const SUBJECTS_MAX = 100_000;

export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  /** Seconds until another attempt is allowed for this email and address; 0 when allowed. */
  retryAfterSeconds(email: string, ip: string): number {
    const nowMs = this.clock.nowMs();
    let untilMs = 0;
    for (const subject of [`email:${email}`, `ip:${ip}`]) {
      const times = this.recent(subject, nowMs);
      if (times.length >= SIGN_IN_FAILURES_MAX) {
        untilMs = Math.max(untilMs, times[times.length - SIGN_IN_FAILURES_MAX] + SIGN_IN_WINDOW_MS);
      }
    }
    return untilMs === 0 ? 0 : Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  }

  fail(email: string, ip: string): void {
    const nowMs = this.clock.nowMs();
    for (const subject of [`email:${email}`, `ip:${ip}`]) {
      const times = this.recent(subject, nowMs);
      times.push(nowMs);
      this.failures.delete(subject);
      this.failures.set(subject, times.slice(-SIGN_IN_FAILURES_MAX));
    }
    while (this.failures.size > SUBJECTS_MAX) {
      this.failures.delete(this.failures.keys().next().value as string);
    }
  }

  private recent(subject: string, nowMs: number): number[] {
    return (this.failures.get(subject) ?? []).filter((t) => nowMs - t < SIGN_IN_WINDOW_MS);
  }
}
