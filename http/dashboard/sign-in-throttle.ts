// Sign-in throttling: five failed attempts per account or per client address within 15
// minutes refuse further attempts (429 with Retry-After) until the oldest failure ages out.
// One box counts in memory; a scale-out deployment counts in Redis, so the limit holds across
// every front together, and falls back to this process's own counts while Redis is away.
import type { Clock } from '../../core/clock.js';

export const SIGN_IN_FAILURES_MAX = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Bound on the subjects remembered (an address flood must not grow memory without end). */
const SUBJECTS_MAX = 100_000;

/** What the sign-in route asks and tells. */
export interface SignInLimiter {
  /** Seconds until another attempt is allowed for this email and address; 0 when allowed. */
  retryAfterSeconds(email: string, ip: string): number | Promise<number>;
  fail(email: string, ip: string): void | Promise<void>;
}

/** Failure counts kept elsewhere (Redis: scale-out/redis-sign-in.ts). */
export interface SharedSignInCounts {
  refusedUntilMs(subjects: readonly string[], nowMs: number): Promise<number>;
  fail(subjects: readonly string[], nowMs: number): Promise<void>;
}

const subjectsOf = (email: string, ip: string) => [`email:${email}`, `ip:${ip}`];

function secondsUntil(untilMs: number, nowMs: number): number {
  return untilMs === 0 ? 0 : Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
}

export class SignInThrottle implements SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  retryAfterSeconds(email: string, ip: string): number {
    const nowMs = this.clock.nowMs();
    let untilMs = 0;
    for (const subject of subjectsOf(email, ip)) {
      const times = this.recent(subject, nowMs);
      if (times.length >= SIGN_IN_FAILURES_MAX) {
        untilMs = Math.max(untilMs, times[times.length - SIGN_IN_FAILURES_MAX] + SIGN_IN_WINDOW_MS);
      }
    }
    return secondsUntil(untilMs, nowMs);
  }

  fail(email: string, ip: string): void {
    const nowMs = this.clock.nowMs();
    for (const subject of subjectsOf(email, ip)) {
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

/** The shared counts while they answer; this process's own (`local`) when they do not. */
export function sharedSignInThrottle(counts: SharedSignInCounts, local: SignInThrottle,
  clock: Clock): SignInLimiter {
  return {
    async retryAfterSeconds(email, ip) {
      const nowMs = clock.nowMs();
      try {
        return secondsUntil(await counts.refusedUntilMs(subjectsOf(email, ip), nowMs), nowMs);
      } catch {
        return local.retryAfterSeconds(email, ip);
      }
    },
    async fail(email, ip) {
      local.fail(email, ip);
      await counts.fail(subjectsOf(email, ip), clock.nowMs()).catch(() => {});
    },
  };
}
