// The daily quota alone, in Redis: for a request whose burst slot was taken earlier in its life
// (an MCP tool call: the HTTP request took the `mcp` burst slot before the SDK parsed it, and only
// a tool answer that is served counts for the day). The same counter and the same rule as the
// daily half of redis-limits.ts's script: counted, then taken back when over, atomically.
import { redisNames, type RedisLink } from './redis-link.js';

/*
 * KEYS[1] the day's counter (limitNames.daily); ARGV[1] the daily limit, ARGV[2] the counter's
 * ttl (s). Reply: { 1 when counted, 0 when over; the day's count after this request }.
 */
const takeDailyScript = `
local used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
if used > tonumber(ARGV[1]) then
  return { 0, redis.call('DECR', KEYS[1]) }
end
return { 1, used }`;

/**
 * How long a key's daily counter is kept: the dashboard shows a key's last 30 days from these
 * counters. A client address's counter (no key) is dropped an hour after its day: there are
 * far more of them, and nothing reads them after their day.
 */
export const KEY_DAILY_KEPT_SECONDS = 32 * 86_400;

/** Whether a daily counter's name is a key's (limitNames.daily with `key:<prefix>`). */
export const keyCounterMark = ':key:';

export interface DailyTakeResult {
  readonly ok: boolean;
  /** The day's count after this request (not counted when refused). */
  readonly used: number;
}

export class RedisDaily {
  constructor(private readonly link: RedisLink) {}

  /**
   * One request against the day's counter `dailyName` (limitNames.daily). EVAL, not EVALSHA:
   * MCP tool calls are a few a second at most, and Redis caches the compiled script by its
   * text's digest.
   */
  async take(dailyName: string, limit: number, ttlSeconds: number): Promise<DailyTakeResult> {
    const reply = await this.link.command.eval(takeDailyScript, 1, dailyName, limit,
      ttlSeconds) as [number, number];
    return { ok: reply[0] === 1, used: reply[1] };
  }

  /** The counts of `usageIdentity` on each day asked (0 when none): one MGET. */
  async usedOn(usageIdentity: string, dayKeys: readonly string[]): Promise<number[]> {
    if (dayKeys.length === 0) return [];
    const values = await this.link.command.mget(
      dayKeys.map((dayKey) => redisNames.daily(dayKey, usageIdentity)));
    return values.map((value) => Number(value ?? 0));
  }
}
