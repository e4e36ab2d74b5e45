// Access control for a front of a scale-out deployment: identity and plan from the key mirror
// (in memory, kept current from Redis), burst and daily counts taken in Redis in one atomic step
// per request, and this front's own limits while Redis is away (docs/scale-out.md).
import { LRUCache } from 'lru-cache';
import type { KeyRecord, UsageCounters } from '../core/messages.js';
import { createRomeDayCache } from '../core/rome-time.js';
import {
  DAILY_ONLY, limitsName, type RedisLimits, type TakeRequest, type TakeResult,
} from './redis-limits.js';
import {
  burstKey, createAccessControl, rateLimitLines, type AccessControlDeps,
} from '../http/access.js';
import type {
  AccessControl, BurstScope, Identity, Outcome, SharedLimits,
} from '../http/access-types.js';
import { BURST_WINDOW_MS, burstLimitByScope, type BurstState } from '../http/burst.js';
import { httpBounds } from '../http/bounds.js';
import { problems } from '../http/problems.js';
import { DailyQuota, secondsUntil, usageIdentity } from '../http/quota.js';

export interface SharedAccessDeps extends AccessControlDeps {
  readonly limits: RedisLimits;
  /** Whether Redis answers now (both connections up). */
  readonly redisReady: () => boolean;
  /** Whether the producer's snapshots are current (ingest heard from recently). */
  readonly fresh: () => boolean;
}

const OK: Outcome<void> = Object.freeze({ ok: true, value: undefined });
/** Counters outlive their day by this much, then Redis drops them. */
const dailyTtlPastDaySeconds = 3_600;
const dailyTtlSeconds = (dayEndMs: number, nowMs: number) =>
  Math.ceil((dayEndMs - nowMs) / 1000) + dailyTtlPastDaySeconds;

/** What Redis last said about a burst window: for RateLimit headers and local refusals. */
interface WindowSeen {
  count: number;
  oldestMs: number;
}

/**
 * A request's names, for one address, scope and day: its burst window's key here, its limits
 * hash and window field in Redis, and its day's key in usedSeen. Kept on the key record, so a
 * keyed poll builds (and hashes) none of these strings again; the LRU caches below find them by
 * their cached hash.
 */
interface Names {
  readonly ip: string;
  readonly scope: BurstScope;
  readonly dayKey: string;
  readonly burstKey: string;
  readonly limitsName: string;
  readonly windowField: string;
  /** `identity|day`, the key of usedSeen. */
  readonly usedKey: string;
  /**
   * The window's entry in `windows`, once looked up or made: a keyed poll's step, its local
   * refusal check and its RateLimit headers then look up no map (a 10,000-entry map lookup is
   * a cache miss or two a request). It may outlive its entry in `windows` (evicted, or made
   * again under new names): it is still what Redis last said, which is all either use needs
   * (a full window stays full until its oldest request leaves).
   */
  seen: WindowSeen | undefined;
}

export function createSharedAccessControl(deps: SharedAccessDeps): AccessControl {
  const { clock, config } = deps;
  const local = createAccessControl(deps);
  const dayOf = createRomeDayCache();
  const windows = new LRUCache<string, WindowSeen>({ max: httpBounds.burstEntriesMax });
  // Daily counts as Redis last reported them, keyed `identity|day`: a UsageCounters view, so
  // the quota's own report and state code reads them as the local front reads its counters.
  const usedSeen = new LRUCache<string, number>({ max: httpBounds.burstEntriesMax });
  const usedView: UsageCounters = {
    get: (identity, dayKey) => usedSeen.get(`${identity}|${dayKey}`) ?? 0,
    increment: () => 0,
  };
  const daily = new DailyQuota(usedView, config.keylessDailyLimit);
  // Weak: a key record replaced when the directory is rebuilt leaves nothing behind.
  const namesByKey = new WeakMap<KeyRecord, Names>();

  function namesOf(identity: Identity, scope: BurstScope, dayKey: string): Names {
    const { ip } = identity;
    if (identity.kind === 'key') {
      const kept = namesByKey.get(identity.key);
      if (kept !== undefined && kept.ip === ip && kept.scope === scope && kept.dayKey === dayKey) {
        return kept;
      }
    }
    const key = burstKey(identity, scope);
    const usage = usageIdentity(identity);
    const names: Names = { ip, scope, dayKey, burstKey: key, limitsName: limitsName(usage),
      windowField: `${scope}|${ip}`, usedKey: `${usage}|${dayKey}`, seen: undefined };
    if (identity.kind === 'key') namesByKey.set(identity.key, names);
    return names;
  }

  /** The window as Redis last said, from the names when they hold it. */
  function seenOf(names: Names): WindowSeen | undefined {
    if (names.seen === undefined) names.seen = windows.get(names.burstKey);
    return names.seen;
  }

  function burstState(seen: WindowSeen | undefined, limit: number, nowMs: number): BurstState {
    if (seen === undefined || seen.oldestMs < 0 || seen.oldestMs + BURST_WINDOW_MS <= nowMs) {
      return { ok: true, limit, remaining: limit, resetSeconds: 0 };
    }
    const resetSeconds = Math.max(1, Math.ceil((seen.oldestMs + BURST_WINDOW_MS - nowMs) / 1000));
    return { ok: seen.count < limit, limit, remaining: Math.max(0, limit - seen.count),
      resetSeconds };
  }

  /** A full window stays full until its oldest request leaves: refusing locally is exact. */
  // A used-up day is not refused locally: the day's count is Redis's to tell, and a daily
  // refusal is rare next to a burst one.
  function refusedLocally(names: Names, scope: BurstScope, nowMs: number):
    Outcome<void> | undefined {
    const limit = burstLimitByScope[scope];
    const seen = seenOf(names);
    if (seen === undefined || seen.count < limit) return undefined;
    const burst = burstState(seen, limit, nowMs);
    if (burst.ok) return undefined;
    return { ok: false, problem: problems.rateLimited(scope, limit, burst.resetSeconds) };
  }

  function outcomeOf(result: TakeResult, step: Step): Outcome<void> {
    const { identity, scope, nowMs, names } = step;
    let seen = seenOf(names);
    if (seen === undefined) {
      seen = { count: result.burstCount, oldestMs: result.oldestMs };
      windows.set(names.burstKey, seen);
      names.seen = seen;
    } else {
      seen.count = result.burstCount;
      seen.oldestMs = result.oldestMs;
    }
    usedSeen.set(names.usedKey, result.dailyUsed);
    if (!result.burstOk) {
      const limit = burstLimitByScope[scope];
      return { ok: false, problem: problems.rateLimited(scope, limit,
        burstState(seen, limit, nowMs).resetSeconds) };
    }
    if (!result.dailyOk) return dailyRefusal(identity, result.dailyUsed, nowMs);
    return OK;
  }

  /** The 429 of a used-up day, as Redis counted it. */
  function dailyRefusal(identity: Identity, used: number, nowMs: number): Outcome<void> {
    const day = dayOf(nowMs);
    const limit = daily.limitFor(identity, nowMs).limit;
    return { ok: false, problem: problems.quotaExceeded(limit, used,
      new Date(day.endMs).toISOString(), secondsUntil(day.endMs, nowMs)) };
  }

  /** This front's own limits: what applies while Redis is away (and if a call fails). */
  function takeLocally(identity: Identity, scope: BurstScope, countDaily: boolean):
    Outcome<void> {
    const burst = local.checkBurst(identity, scope);
    if (!burst.ok || !countDaily) return burst;
    return local.consumeDaily(identity);
  }

  // A request's step in Redis and what its answer needs, in one object: the request Redis
  // takes and the context its callback gets back (no closure or promise per request).
  interface Step extends TakeRequest {
    readonly identity: Identity;
    readonly scope: BurstScope;
    readonly countDaily: boolean;
    readonly names: Names;
    readonly done: (outcome: Outcome<void>, context: unknown) => void;
    readonly context: unknown;
  }
  /** A daily step's answer: the day's count alone (no burst window to note). */
  const dailyTaken = (result: TakeResult | null, step: Step): void => {
    if (result === null) {
      step.done(local.consumeDaily(step.identity), step.context);
      return;
    }
    usedSeen.set(step.names.usedKey, result.dailyUsed);
    step.done(result.dailyOk ? OK : dailyRefusal(step.identity, result.dailyUsed, step.nowMs),
      step.context);
  };
  /**
   * The step whose answer is being written: its RateLimit headers (rateLimitHeaders, called
   * from `done`) take its names rather than looking them up again.
   */
  let answering: Step | null = null;
  const stepTaken = (result: TakeResult | null, step: Step): void => {
    if (result === null) {
      step.done(takeLocally(step.identity, step.scope, step.countDaily), step.context);
      return;
    }
    answering = step;
    try {
      step.done(outcomeOf(result, step), step.context);
    } finally {
      answering = null;
    }
  };

  const shared: SharedLimits = {
    active: deps.redisReady,
    stale: () => !deps.redisReady() || !deps.fresh(),
    take(identity, scope, countDaily, done, context) {
      if (!config.limitsEnabled) return OK;
      const nowMs = clock.nowMs();
      const day = dayOf(nowMs);
      const names = namesOf(identity, scope, day.key);
      const refused = refusedLocally(names, scope, nowMs);
      if (refused !== undefined) return refused;
      const step: Step = {
        limitsName: names.limitsName, windowField: names.windowField,
        burstLimit: burstLimitByScope[scope], windowMs: BURST_WINDOW_MS, dayKey: day.key,
        dailyLimit: countDaily ? daily.limitFor(identity, nowMs).limit : -1,
        dailyTtlSeconds: dailyTtlSeconds(day.endMs, nowMs), nowMs,
        identity, scope, countDaily, names, done: done as Step['done'], context,
      };
      deps.limits.take(step, stepTaken, step);
      return null;
    },
    takeDaily(identity) {
      if (!config.limitsEnabled) return Promise.resolve(OK);
      if (!deps.redisReady()) return Promise.resolve(local.consumeDaily(identity));
      const nowMs = clock.nowMs();
      const day = dayOf(nowMs);
      // The scope only names the step's burst window, which a daily step does not touch.
      const names = namesOf(identity, 'mcp', day.key);
      return new Promise((resolve) => {
        const step: Step = {
          limitsName: names.limitsName, windowField: DAILY_ONLY, burstLimit: 0,
          windowMs: BURST_WINDOW_MS, dayKey: day.key,
          dailyLimit: daily.limitFor(identity, nowMs).limit,
          dailyTtlSeconds: dailyTtlSeconds(day.endMs, nowMs), nowMs,
          identity, scope: 'mcp', countDaily: true, names,
          done: resolve as Step['done'], context: undefined,
        };
        deps.limits.take(step, dailyTaken, step);
      });
    },
  };

  return {
    ...local,
    shared,
    usage: (identity) => (deps.redisReady()
      ? daily.report(identity, clock.nowMs()) : local.usage(identity)),
    rateLimitHeaders(identity, scope) {
      if (!config.limitsEnabled) return local.rateLimitHeaders(identity, scope);
      if (!deps.redisReady()) return local.rateLimitHeaders(identity, scope);
      const nowMs = clock.nowMs();
      const limit = burstLimitByScope[scope];
      const day = dayOf(nowMs);
      const names = answering !== null && answering.identity === identity &&
        answering.scope === scope && answering.dayKey === day.key
        ? answering.names : namesOf(identity, scope, day.key);
      // The day's count by the names' own key (daily.state would build it again).
      return rateLimitLines(burstState(seenOf(names), limit, nowMs), {
        applied: daily.limitFor(identity, nowMs), used: usedSeen.get(names.usedKey) ?? 0, day,
      }, nowMs);
    },
  };
}
