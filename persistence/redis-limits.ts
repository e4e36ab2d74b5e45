// Burst windows and daily counters in Redis (scale-out): one Lua script per request does both,
// atomically, so the limits hold exactly across every front together.
import { randomBytes } from 'node:crypto';
import { redisNames, type RedisLink } from './redis-link.js';

/*
 * KEYS[1] the burst window (sorted set of accepted request times), KEYS[2] the daily counter.
 * ARGV: nowMs, burst limit, window ms, member, daily limit (-1: do not count), daily ttl s.
 * The same rules as the local guard: the window keeps times > now - window; a refused request
 * is not counted; the daily counter moves only when the burst guard let the request through.
 * Returns {burstOk, burstCount, oldestMs, dailyOk, dailyUsed}.
 */
const takeScript = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local burstOk = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  burstOk = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local used = tonumber(redis.call('GET', KEYS[2]) or '0')
local dailyOk = 1
local dailyLimit = tonumber(ARGV[5])
if burstOk == 1 and dailyLimit >= 0 then
  if used >= dailyLimit then
    dailyOk = 0
  else
    used = redis.call('INCR', KEYS[2])
    redis.call('EXPIRE', KEYS[2], ARGV[6])
  end
end
return {burstOk, count, oldest[2] or '-1', dailyOk, used}`;

export interface TakeRequest {
  /** `scope|ip[|prefix]`, as the local guard keys its windows. */
  readonly burstKey: string;
  readonly burstLimit: number;
  readonly windowMs: number;
  /** `key:<prefix>` or `ip:<address>`. */
  readonly usageIdentity: string;
  readonly dayKey: string;
  /** -1 when this request does not count against the daily quota. */
  readonly dailyLimit: number;
  /** Kept a little past the day's end, then Redis drops the counter. */
  readonly dailyTtlSeconds: number;
  readonly nowMs: number;
}

export interface TakeResult {
  readonly burstOk: boolean;
  /** Requests in the window after this one. */
  readonly burstCount: number;
  /** Time of the oldest request in the window (-1 when empty). */
  readonly oldestMs: number;
  readonly dailyOk: boolean;
  /** The day's count after this request. */
  readonly dailyUsed: number;
}

export class RedisLimits {
  /** Unique per process: window members from two fronts in one millisecond never collide. */
  private readonly origin = randomBytes(4).toString('hex');
  private sequence = 0;
  private sha: string | null = null;

  constructor(private readonly link: RedisLink) {}

  async take(request: TakeRequest): Promise<TakeResult> {
    const member = `${request.nowMs}:${this.origin}:${this.sequence++}`;
    const keys = [redisNames.burst(request.burstKey),
      redisNames.daily(request.dayKey, request.usageIdentity)];
    const args = [request.nowMs, request.burstLimit, request.windowMs, member,
      request.dailyLimit, request.dailyTtlSeconds];
    const reply = await this.run(keys, args) as [number, number, string, number, number];
    return {
      burstOk: reply[0] === 1, burstCount: reply[1], oldestMs: Number(reply[2]),
      dailyOk: reply[3] === 1, dailyUsed: reply[4],
    };
  }

  /** The day's count without counting (the usage report). */
  async used(dayKey: string, usageIdentity: string): Promise<number> {
    return Number(await this.link.command.get(redisNames.daily(dayKey, usageIdentity)) ?? 0);
  }

  /** EVALSHA after the first call: the script's text crosses the wire once per connection. */
  private async run(keys: string[], args: (string | number)[]): Promise<unknown> {
    const { command } = this.link;
    if (this.sha !== null) {
      try {
        return await command.evalsha(this.sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
      }
    }
    this.sha = await command.script('LOAD', takeScript) as string;
    return command.evalsha(this.sha, keys.length, ...keys, ...args);
  }
}
