// Failed sign-ins counted in Redis (scale-out), so the sign-in throttle holds across every front
// together: a sorted set of failure times per subject (`email:<e>`, `ip:<address>`), trimmed to
// the window and to the last `max` failures, read and written by one Lua script each.
import { randomBytes } from 'node:crypto';
import { redisNames, type RedisLink } from './redis-link.js';

/*
 * KEYS: the subjects' sets. ARGV: now ms, window ms, max failures. Returns the time (ms) until
 * which the subjects are refused: the max-th latest failure plus the window; 0 when allowed.
 */
const untilScript = `
local now, window, max = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local untilMs = 0
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) >= max then
    local t = redis.call('ZRANGE', key, -max, -max, 'WITHSCORES')
    untilMs = math.max(untilMs, tonumber(t[2]) + window)
  end
end
return untilMs`;

/* KEYS: the subjects' sets. ARGV: now ms, window ms, max failures, a unique member. */
const failScript = `
local now, window, max = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('ZREMRANGEBYRANK', key, 0, -max - 1)
  redis.call('PEXPIRE', key, window)
end
return 1`;

export class RedisSignInCounts {
  private readonly origin = randomBytes(4).toString('hex');
  private sequence = 0;

  constructor(private readonly link: RedisLink, private readonly max: number,
    private readonly windowMs: number) {}

  /** Until when (ms) these subjects are refused; 0 when an attempt is allowed. */
  async refusedUntilMs(subjects: readonly string[], nowMs: number): Promise<number> {
    return Number(await this.link.command.eval(untilScript, subjects.length,
      ...subjects.map(redisNames.signIn), nowMs, this.windowMs, this.max));
  }

  async fail(subjects: readonly string[], nowMs: number): Promise<void> {
    await this.link.command.eval(failScript, subjects.length, ...subjects.map(redisNames.signIn),
      nowMs, this.windowMs, this.max, `${nowMs}:${this.origin}:${this.sequence++}`);
  }
}
