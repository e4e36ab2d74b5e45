// Burst windows and daily counters in Redis (scale-out): one Lua script per request does both,
// atomically, so the limits hold exactly across every front together.
import { randomBytes } from 'node:crypto';
import { redisNames, type RedisLink } from './redis-link.js';

/*
 * One call takes a batch: the requests that arrived in one turn of the event loop (one command
 * and one reply instead of one per request; the limits are just as exact, each request's step
 * is atomic and they run in arrival order). For request i: KEYS[2i-1] its burst window (sorted
 * set of accepted request times), KEYS[2i] its daily counter; ARGV[6(i-1)+1..6i]: nowMs, burst
 * limit, window ms, member, daily limit (-1: do not count), daily ttl s.
 * The same rules as the local guard: the window keeps times > now - window; a refused request
 * is not counted; the daily counter moves only when the burst guard let the request through.
 * Returns, per request, burstOk, burstCount, oldestMs, dailyOk, dailyUsed.
 */
const takeScript = `
local out = {}
for i = 1, #KEYS / 2 do
  local burst, day = KEYS[2 * i - 1], KEYS[2 * i]
  local a = 6 * (i - 1)
  local now = tonumber(ARGV[a + 1])
  local limit = tonumber(ARGV[a + 2])
  local window = tonumber(ARGV[a + 3])
  redis.call('ZREMRANGEBYSCORE', burst, '-inf', now - window)
  local count = redis.call('ZCARD', burst)
  local burstOk = 0
  if count < limit then
    redis.call('ZADD', burst, now, ARGV[a + 4])
    redis.call('PEXPIRE', burst, window)
    count = count + 1
    burstOk = 1
  end
  local oldest = redis.call('ZRANGE', burst, 0, 0, 'WITHSCORES')
  local used = tonumber(redis.call('GET', day) or '0')
  local dailyOk = 1
  local dailyLimit = tonumber(ARGV[a + 5])
  if burstOk == 1 and dailyLimit >= 0 then
    if used >= dailyLimit then
      dailyOk = 0
    else
      used = redis.call('INCR', day)
      redis.call('EXPIRE', day, ARGV[a + 6])
    end
  end
  local n = 5 * (i - 1)
  out[n + 1], out[n + 2], out[n + 3], out[n + 4], out[n + 5] =
    burstOk, count, oldest[2] or '-1', dailyOk, used
end
return out`;

/** Requests per script call at most (a turn with more makes several calls). */
const batchMax = 256;

interface Pending {
  readonly request: TakeRequest;
  readonly resolve: (result: TakeResult) => void;
  readonly reject: (error: unknown) => void;
}

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

  private pending: Pending[] = [];

  /** Queues the request's step; the turn's requests leave together (setImmediate). */
  take(request: TakeRequest): Promise<TakeResult> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ request, resolve, reject });
    });
  }

  private flush(): void {
    const all = this.pending;
    this.pending = [];
    for (let start = 0; start < all.length; start += batchMax) {
      void this.send(all.slice(start, start + batchMax));
    }
  }

  private async send(batch: readonly Pending[]): Promise<void> {
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (const { request } of batch) {
      keys.push(redisNames.burst(request.burstKey),
        redisNames.daily(request.dayKey, request.usageIdentity));
      args.push(request.nowMs, request.burstLimit, request.windowMs,
        `${request.nowMs}:${this.origin}:${this.sequence++}`, request.dailyLimit,
        request.dailyTtlSeconds);
    }
    let reply: (number | string)[];
    try {
      reply = await this.run(keys, args) as (number | string)[];
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const n = 5 * i;
      p.resolve({
        burstOk: reply[n] === 1, burstCount: Number(reply[n + 1]), oldestMs: Number(reply[n + 2]),
        dailyOk: reply[n + 3] === 1, dailyUsed: Number(reply[n + 4]),
      });
    });
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
