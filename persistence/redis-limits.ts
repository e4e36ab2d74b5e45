// Burst windows and daily counters in Redis (scale-out): one Lua script per request does both,
// atomically, so the limits hold exactly across every front together.
import { randomBytes } from 'node:crypto';
import { redisNames, type RedisLink } from './redis-link.js';

/*
 * One call takes a batch: the requests that arrived in one turn of the event loop (one command
 * and one reply instead of one per request; the limits are just as exact, each request's step
 * is atomic and they run in arrival order). For request i: KEYS[2i-1] its burst window (sorted
 * set of accepted request times), KEYS[2i] its daily counter; ARGV[5(i-1)+1..5i]: nowMs, burst
 * limit, window ms, daily limit (-1: do not count), daily ttl s; ARGV[#ARGV]: the batch's member
 * stem (the window's members are the stem and the request's place in the batch).
 * The same rules as the local guard: the window keeps times > now - window; a refused request
 * is not counted; the daily counter moves only when the burst guard let the request through.
 * The reply is compact, three integers per request: burstOk + 2 dailyOk + 4 burstCount, the
 * oldest time in the window (-1 when empty) and the day's count.
 */
const takeScript = `
local out = {}
local stem = ARGV[#ARGV]
for i = 1, #KEYS / 2 do
  local burst, day = KEYS[2 * i - 1], KEYS[2 * i]
  local a = 5 * (i - 1)
  local now = tonumber(ARGV[a + 1])
  local limit = tonumber(ARGV[a + 2])
  local window = tonumber(ARGV[a + 3])
  local dailyLimit = tonumber(ARGV[a + 4])
  redis.call('ZREMRANGEBYSCORE', burst, '-inf', now - window)
  local count = redis.call('ZCARD', burst)
  local burstOk = 0
  if count < limit then
    redis.call('ZADD', burst, now, stem .. i)
    redis.call('PEXPIRE', burst, window)
    count = count + 1
    burstOk = 1
  end
  local oldest = now
  if count > 1 or burstOk == 0 then
    local first = redis.call('ZRANGE', burst, 0, 0, 'WITHSCORES')
    oldest = tonumber(first[2] or '-1')
  end
  local used
  local dailyOk = 1
  if burstOk == 1 and dailyLimit >= 0 then
    -- Counted, then taken back when over: one call in the common case, and atomic (nobody
    -- sees the count in between).
    used = redis.call('INCR', day)
    if used == 1 then redis.call('EXPIRE', day, ARGV[a + 5]) end
    if used > dailyLimit then
      used = redis.call('DECR', day)
      dailyOk = 0
    end
  else
    used = tonumber(redis.call('GET', day) or '0')
  end
  local n = 3 * (i - 1)
  out[n + 1], out[n + 2], out[n + 3] = burstOk + 2 * dailyOk + 4 * count, oldest, used
end
return out`;

/** Requests per script call at most (a turn with more makes several calls). */
const batchMax = 256;

/**
 * Called with a request's result, or null when Redis did not answer (the caller falls back to
 * local limits), and the context the request was queued with: one function for every request,
 * so queuing one allocates no closure and no promise.
 */
export type TakeDone<C> = (result: TakeResult | null, context: C) => void;

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
  private batches = 0;
  private sha: string | null = null;
  /** The turn's requests, their callbacks and contexts, side by side. */
  private requests: TakeRequest[] = [];
  private dones: TakeDone<never>[] = [];
  private contexts: unknown[] = [];

  constructor(private readonly link: RedisLink) {}

  /** Queues the request's step; the turn's requests leave together (setImmediate). */
  take<C>(request: TakeRequest, done: TakeDone<C>, context: C): void {
    if (this.requests.length === 0) setImmediate(this.flush);
    this.requests.push(request);
    this.dones.push(done as TakeDone<never>);
    this.contexts.push(context);
  }

  private readonly flush = (): void => {
    const { requests, dones, contexts } = this;
    this.requests = [];
    this.dones = [];
    this.contexts = [];
    for (let start = 0; start < requests.length; start += batchMax) {
      const end = Math.min(requests.length, start + batchMax);
      this.send(requests, dones, contexts, start, end);
    }
  };

  private send(requests: TakeRequest[], dones: TakeDone<never>[], contexts: unknown[],
    start: number, end: number): void {
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (let i = start; i < end; i++) {
      const r = requests[i]!;
      keys.push(redisNames.burst(r.burstKey), redisNames.daily(r.dayKey, r.usageIdentity));
      args.push(r.nowMs, r.burstLimit, r.windowMs, r.dailyLimit, r.dailyTtlSeconds);
    }
    args.push(`${this.origin}:${this.batches++}:`);
    this.run(keys, args).then((reply) => {
      const values = reply as number[];
      for (let i = start; i < end; i++) {
        const n = 3 * (i - start);
        const code = values[n]!;
        (dones[i] as TakeDone<unknown>)({
          burstOk: (code & 1) === 1, dailyOk: (code & 2) === 2, burstCount: code >>> 2,
          oldestMs: values[n + 1]!, dailyUsed: values[n + 2]!,
        }, contexts[i]);
      }
    }, () => {
      for (let i = start; i < end; i++) (dones[i] as TakeDone<unknown>)(null, contexts[i]);
    }).catch(() => {
      // A callback that threw: it answers its own request; the others were answered.
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
