// Burst windows and daily counters in Redis (scale-out): one Lua script per request does both,
// atomically, so the limits hold exactly across every front together.
import { Command } from 'ioredis';
import { KEY_DAILY_KEPT_SECONDS, keyCounterMark } from './redis-daily.js';
import { redisNames, type RedisLink } from './redis-link.js';

/*
 * One call takes a batch: the requests that arrived in one turn of the event loop (one command
 * and one reply instead of one per request; the limits are just as exact, each request's step
 * is atomic and they run in arrival order). KEYS[2i-1] request i's burst window, KEYS[2i] its
 * daily counter. ARGV[1] the window (ms) and ARGV[2] the daily counters' ttl (s), the same for
 * the whole batch; then per request nowMs and burst limit + 1024 (daily limit + 1) (daily limit
 * -1: do not count).
 * A window is one string of the accepted requests' times, 13 digits each, ascending: one GET
 * and one SET (with its expiry) per admitted request instead of five sorted-set calls. A window
 * holds at most `limit` times, so the string stays short (60 x 13 bytes).
 * The same rules as the local guard: the window keeps times > now - window; a refused request
 * is not counted; the daily counter moves only when the burst guard let the request through.
 * The reply is compact, three integers per request: burstOk + 2 dailyOk + 4 burstCount, the
 * oldest time in the window (-1 when empty) and the day's count.
 */
const takeScript = `
local out = {}
-- The window's text as sent goes to PX as is (no number-to-text conversion per request).
local px = ARGV[1]
local window = tonumber(px)
local ttl = ARGV[2]
local sub, find, w = string.sub, string.find, 13
local keyTtl = ${KEY_DAILY_KEPT_SECONDS}
for i = 1, #KEYS / 2 do
  local burst, day = KEYS[2 * i - 1], KEYS[2 * i]
  -- 13 digits, as the window keeps it: appended as sent (no string.format per request).
  local nowText = ARGV[1 + 2 * i]
  local now = tonumber(nowText)
  local code = tonumber(ARGV[2 + 2 * i])
  local limit = code % 1024
  local dailyLimit = (code - limit) / 1024 - 1
  local s = redis.call('GET', burst) or ''
  local n = #s / w
  local since = now - window
  -- The first time inside the window (times ascending): usually the first one is (a look at
  -- it alone), else a binary search.
  local lo = 0
  if n > 0 and tonumber(sub(s, 1, w)) <= since then
    local hi = n
    lo = 1
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      if tonumber(sub(s, mid * w + 1, mid * w + w)) <= since then lo = mid + 1 else hi = mid end
    end
  end
  local count = n - lo
  local burstOk = 0
  local oldest = -1
  if count < limit then
    -- In order even when fronts' clocks differ a little (usually at the end).
    local k = n
    while k > lo and tonumber(sub(s, (k - 1) * w + 1, k * w)) > now do k = k - 1 end
    if k == n then
      if lo > 0 then s = sub(s, lo * w + 1) end
      s = s .. nowText
    else
      s = sub(s, lo * w + 1, k * w) .. nowText .. sub(s, k * w + 1)
    end
    redis.call('SET', burst, s, 'PX', px)
    count = count + 1
    burstOk = 1
    if count == 1 then oldest = now else oldest = tonumber(sub(s, 1, w)) end
  elseif count > 0 then
    oldest = tonumber(sub(s, lo * w + 1, lo * w + w))
  end
  local used
  local dailyOk = 1
  if burstOk == 1 and dailyLimit >= 0 then
    -- Counted, then taken back when over: one call in the common case, and atomic (nobody
    -- sees the count in between).
    used = redis.call('INCR', day)
    -- A key's counter is kept for the dashboard's 30 days of usage (redis-daily.ts).
    if used == 1 then
      redis.call('EXPIRE', day, find(day, '${keyCounterMark}', 1, true) and keyTtl or ttl)
    end
    if used > dailyLimit then
      used = redis.call('DECR', day)
      dailyOk = 0
    end
  else
    used = tonumber(redis.call('GET', day) or '0')
  end
  local o = 3 * (i - 1)
  out[o + 1], out[o + 2], out[o + 3] = burstOk + 2 * dailyOk + 4 * count, oldest, used
end
return out`;

/** Requests per script call at most (a turn with more makes several calls). */
const batchMax = 256;
/** Burst limit + this x (daily limit + 1) in one argument: burst limits stay below it. */
const limitCodeScale = 1024;

/**
 * Called with a request's result, or null when Redis did not answer (the caller falls back to
 * local limits), and the context the request was queued with: one function for every request,
 * so queuing one allocates no closure and no promise.
 */
export type TakeDone<C> = (result: TakeResult | null, context: C) => void;

/** The Redis names of a request's burst window and daily counter (callers keep them). */
export const limitNames = Object.freeze({
  /** `burstKey`: `scope|ip[|prefix]`, as the local guard keys its windows. */
  burst: redisNames.burst,
  /** `usageIdentity`: `key:<prefix>` or `ip:<address>`. */
  daily: redisNames.daily,
});

export interface TakeRequest {
  /** limitNames.burst of the request's burst key. */
  readonly burstName: string;
  readonly burstLimit: number;
  readonly windowMs: number;
  /** limitNames.daily of the request's day and usage identity. */
  readonly dailyName: string;
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

/** A time as the window string keeps it: 13 digits (zero-padded for the tests' early clocks). */
function timeText(nowMs: number): string {
  const text = String(Math.floor(nowMs));
  return text.length >= 13 ? text : text.padStart(13, '0');
}

export class RedisLimits {
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
    // A call's requests share one window length (every request has the same in practice).
    for (let start = 0, end = 0; start < requests.length; start = end) {
      const windowMs = requests[start]!.windowMs;
      const last = Math.min(requests.length, start + batchMax);
      for (end = start + 1; end < last && requests[end]!.windowMs === windowMs;) end++;
      this.send(requests, dones, contexts, start, end);
    }
  };

  private send(requests: TakeRequest[], dones: TakeDone<never>[], contexts: unknown[],
    start: number, end: number): void {
    // EVALSHA's arguments in one array, filled in place: sha, key count, the keys, then the
    // window, the ttl and each request's two values.
    const count = end - start;
    const args: (number | string)[] = new Array(2 + 4 * count + 2);
    const argsAt = 2 + 2 * count;
    args[1] = 2 * count;
    args[argsAt] = requests[start]!.windowMs;
    let ttlSeconds = 0;
    for (let i = start, k = 2, a = argsAt + 2; i < end; i++, k += 2, a += 2) {
      const r = requests[i]!;
      args[k] = r.burstName;
      args[k + 1] = r.dailyName;
      args[a] = timeText(r.nowMs);
      args[a + 1] = r.burstLimit + limitCodeScale * (r.dailyLimit + 1);
      // The longest: a batch that spans midnight keeps the new day's counters long enough
      // (the old day's only a little longer than needed).
      ttlSeconds = Math.max(ttlSeconds, r.dailyTtlSeconds);
    }
    args[argsAt + 1] = ttlSeconds;
    this.run(args).then((reply) => {
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

  /**
   * EVALSHA after the first call: the script's text crosses the wire once per connection.
   * `args` from its second element on; the first is the sha. The command is written at once
   * (the batch is already one per turn: auto-pipelining would hold it one more tick and wrap
   * it in a pipeline of its own).
   */
  private async run(args: (number | string)[]): Promise<unknown> {
    const { command } = this.link;
    if (this.sha !== null) {
      try {
        args[0] = this.sha;
        return await command.sendCommand(new Command('evalsha', args));
      } catch (error) {
        if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
      }
    }
    this.sha = await command.script('LOAD', takeScript) as string;
    args[0] = this.sha;
    return command.sendCommand(new Command('evalsha', args));
  }
}
