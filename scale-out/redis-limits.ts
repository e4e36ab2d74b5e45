// Burst windows and daily counters in Redis (scale-out): one Lua script per request does both,
// atomically, so the limits hold exactly across every front together.
import { BucketHistogram } from '../core/metrics/bucket-histogram.js';
import type { Command } from 'ioredis';
import { redisNames, type RedisLink } from './redis-link.js';

/*
 * One call takes a batch: the requests that arrived in one turn of the event loop (one command
 * and one reply instead of one per request; the limits are just as exact, each request's step
 * is atomic and they run in arrival order). KEYS[i] is request i's limits hash (one per usage
 * identity: `key:<prefix>`, `account:<id>` for dashboard sessions, or `ip:<address>`). ARGV[1]
 * the window (ms), ARGV[2] the ttl (s) of a hash whose day starts, ARGV[3] the Rome day, the
 * same for the whole batch; then per request its window's field (`scope|ip`) and its stamp:
 * nowMs (13 digits) followed by burst limit + 1024 (daily limit + 1) (daily limit -1: do not
 * count). A turn's requests mostly share their
 * stamp (one millisecond, one plan and scope): the script converts a stamp when it changes.
 * The hash holds the identity's burst windows, one field each, and field `d`, the day's text
 * followed by its count (uint32, little-endian: no number-to-text formatting per request):
 * an admitted request is one HMGET and one HSET (two Redis calls, no key expiry to set per
 * request), where separate keys for the window and the day took a GET, a SET ... PX and an INCR.
 * A window is one string of the accepted requests' times, 13 digits each, ascending (at most
 * `limit` of them, 60 x 13 bytes): equal-width digits compare as text in the order of their
 * numbers, so the script reads none of them as a number.
 * An empty window field is a request with no burst step, counted against the day alone (an MCP
 * tool call: its HTTP request took its burst slot before the tool ran).
 * When a day starts in a hash, the day it held is kept under the day's own name
 * (`orderflow:daily:<day>:<identity>`, a key's 32 days, an address's an hour): the dashboard's
 * usage days (usedOn). A key's hash is kept as long, so its last day is still there when the key
 * is next used; an address's hash expires an hour after its day. A window
 * field left by an address or scope no longer used is dropped when the hash gets a new field
 * and holds more than `pruneAbove` (a window wholly older than the window length is empty).
 * The same rules as the local guard: the window keeps times > now - window; a refused request
 * is not counted; the daily count moves only when the burst guard let the request through.
 * The reply is one binary string (the front reads it from one Buffer, where three integers per
 * request took the client's reply decoder a call per integer), `replyEntryBytes` per request,
 * little-endian: uint16 burstOk + 2 dailyOk + 4 burstCount, the oldest time in the window as
 * its 13 digits (zeros when the window is empty), uint32 the day's count.
 */
const pruneAbove = 8;
const limitsPrefix = redisNames.limits('');
/**
 * A day's count under the day's own name, `<dailyName><day>:<identity>` (redisNames.daily): the
 * counters of earlier versions, and each past day of an identity, kept when the next day starts
 * in its hash (the dashboard's usage days read them: usedOn).
 */
const dailyName = redisNames.daily('', '').slice(0, -1);
/**
 * How long a key's past days (and its hash, so that its last day is still there to be kept when
 * the key is next used) stay in Redis: the dashboard shows a key's last 30 days. A client
 * address's (no key) are dropped an hour past their day: there are far more of them, and
 * nothing reads their past.
 */
export const KEY_DAILY_KEPT_SECONDS = 32 * 86_400;
const addressDayKeptSeconds = 3_600;
const takeScript = `
local call, sub, w = redis.call, string.sub, 13
local prefixLength = ${limitsPrefix.length}
local keyKeep, addressKeep = ${KEY_DAILY_KEPT_SECONDS}, ${addressDayKeptSeconds}
local window = tonumber(ARGV[1])
local ttl = ARGV[2]
local dayText = ARGV[3]
local dl = #dayText
-- Field d in one string: the day's text, then its count.
local dayFormat = '<c' .. dl .. 'I4'
local pack, unpackOne = struct.pack, struct.unpack
local none = string.rep('0', w)
local out = {}
local stamp, nowText, sinceText, limit, dailyLimit = nil, nil, '', 0, 0
for i = 1, #KEYS do
  local h = KEYS[i]
  local a = 2 + 2 * i
  -- An empty field: no burst step, the daily count alone (an MCP tool call, whose HTTP request
  -- took its burst slot before the tool ran).
  local field = ARGV[a]
  local burstStep = field ~= ''
  if ARGV[a + 1] ~= stamp then
    stamp = ARGV[a + 1]
    local t = sub(stamp, 1, w)
    if t ~= nowText then
      nowText = t
      sinceText = string.format('%013d', tonumber(t) - window)
    end
    local code = tonumber(sub(stamp, w + 1))
    limit = code % 1024
    dailyLimit = (code - limit) / 1024 - 1
  end
  local got = call('HMGET', h, field, 'd')
  local s = got[1] or ''
  local n = #s / w
  -- The first time inside the window (times ascending): usually the first one is (a look at
  -- it alone), else a binary search.
  local lo = 0
  if n > 0 and sub(s, 1, w) <= sinceText then
    local hi = n
    lo = 1
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      if sub(s, mid * w + 1, mid * w + w) <= sinceText then lo = mid + 1 else hi = mid end
    end
  end
  local count = n - lo
  local d = got[2]
  local used, dayStarts, keep = 0, true, nil
  if d and sub(d, 1, dl) == dayText then
    used = unpackOne('<I4', d, dl + 1)
    dayStarts = false
  else
    -- The identity is needed only when a day starts (its names, its ttl): not per request.
    local identity = sub(h, prefixLength + 1)
    -- A key's or an account's (dashboard sessions'): kept as long; only an address's is not.
    local isKey = sub(identity, 1, 3) ~= 'ip:'
    keep = isKey and keyKeep or ttl
    if d and #d == dl + 4 then
      -- The day before (or the other side of midnight, for a front whose clock differs a
      -- little): kept under its own name, the dashboard's usage days.
      call('SET', '${dailyName}' .. sub(d, 1, dl) .. ':' .. identity,
        unpackOne('<I4', d, dl + 1), 'EX', isKey and keyKeep or addressKeep)
    end
    -- A counter kept under the day's own name (an earlier version's, or kept above when the
    -- other side of midnight took the hash a moment): the day goes on from it.
    local old = call('GET', '${dailyName}' .. dayText .. ':' .. identity)
    if old then used = tonumber(old) end
  end
  local burstOk, dailyOk, oldest = 0, 1, none
  if not burstStep then
    burstOk = 1
    if used < dailyLimit then
      used = used + 1
    else
      dailyOk = 0
    end
    if dailyOk == 1 or dayStarts then call('HSET', h, 'd', pack(dayFormat, dayText, used)) end
    if dayStarts then call('EXPIRE', h, keep) end
    count = 0
  elseif count < limit then
    -- In order even when fronts' clocks differ a little (usually at the end).
    local k = n
    while k > lo and sub(s, (k - 1) * w + 1, k * w) > nowText do k = k - 1 end
    if k == n then
      if lo > 0 then s = sub(s, lo * w + 1) end
      s = s .. nowText
    else
      s = sub(s, lo * w + 1, k * w) .. nowText .. sub(s, k * w + 1)
    end
    count = count + 1
    burstOk = 1
    -- The reply takes the window's first 13 bytes, its oldest time (no substring made here).
    oldest = s
    local counted = false
    if dailyLimit >= 0 then
      if used < dailyLimit then
        used = used + 1
        counted = true
      else
        dailyOk = 0
      end
    end
    if counted or dayStarts then
      call('HSET', h, field, s, 'd', pack(dayFormat, dayText, used))
    else
      call('HSET', h, field, s)
    end
    if dayStarts then call('EXPIRE', h, keep) end
    if not got[1] and call('HLEN', h) > ${pruneAbove} then
      -- Drop the windows wholly out of date (their newest time too old).
      local all = call('HGETALL', h)
      for j = 1, #all, 2 do
        local f = all[j]
        if f ~= 'd' and sub(all[j + 1], -w) <= sinceText then call('HDEL', h, f) end
      end
    end
  elseif count > 0 then
    oldest = sub(s, lo * w + 1, lo * w + w)
  end
  local o = 3 * (i - 1)
  out[o + 1], out[o + 2], out[o + 3] = burstOk + 2 * dailyOk + 4 * count, oldest, used
end
return pack('<' .. string.rep('Hc13I4', #KEYS), unpack(out))`;
/** Bytes of one request's entry in the reply (uint16, 13 digits, uint32). */
const replyEntryBytes = 19;
/** Where a stamp's digits end in the reply entry. */
const oldestEnd = 15;

/** The reply as the Buffer Redis sent (not decoded as text). */
const binaryReply = Object.freeze({ replyEncoding: null });

/**
 * The EVALSHA command of a batch, its arguments all strings. They are handed to the command
 * after it is made: ioredis' Command copies the arguments it is made with through
 * `Array.prototype.flat` (and stringifies them), a cost on every request of a batch. These
 * need neither (strings, no nested arrays); the command writes `args` as it does its own.
 */
function evalsha(CommandClass: typeof Command, args: string[]): Command {
  const command = new CommandClass('evalsha', [], binaryReply);
  command.args = args;
  return command;
}

/** A script call on a loopback Redis takes ~0.1 ms; a remote or busy one, ms. */
export const scriptBoundsS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
  0.1, 0.25];

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

/** The window field of a step with no burst guard: the day's count alone (MCP tool calls). */
export const DAILY_ONLY = '';

/** The Redis name of an identity's limits (its burst windows and its day's count). */
export const limitsName = redisNames.limits;

export interface TakeRequest {
  /** limitsName of the request's usage identity (`key:<prefix>`, `account:<id>`, `ip:<a>`). */
  readonly limitsName: string;
  /** The burst window's field in it: `scope|ip` (the local guard's burst key, less the key). */
  readonly windowField: string;
  readonly burstLimit: number;
  readonly windowMs: number;
  /** The request's Rome day (`YYYY-MM-DD`). */
  readonly dayKey: string;
  /** -1 when this request does not count against the daily quota. */
  readonly dailyLimit: number;
  /** Kept a little past the day's end, then Redis drops the hash. */
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

/** A hash's field `d`: the day's text, then its count (uint32, little-endian). */
function dayCountOf(d: Buffer | null): { dayKey: string; count: number } | null {
  if (d === null || d.length < 4) return null;
  return { dayKey: d.toString('latin1', 0, d.length - 4), count: d.readUInt32LE(d.length - 4) };
}

/** The number written in ASCII digits at [start, end) of a Buffer. */
function digitsAt(bytes: Buffer, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = value * 10 + bytes[i]! - 48;
  return value;
}

export class RedisLimits {
  private sha: string | null = null;
  /** The turn's requests, their callbacks and contexts, side by side. */
  private requests: TakeRequest[] = [];
  private dones: TakeDone<never>[] = [];
  private contexts: unknown[] = [];
  /** The last stamp sent and what it says: a turn's requests mostly share it. */
  private lastTimeMs = -1;
  private lastCode = -1;
  private lastStamp = '';

  /** Each script call's round trip, seconds (one a turn; metrics). */
  readonly scriptSeconds = new BucketHistogram(scriptBoundsS);

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
    // A call's requests share one window length and one day (every request has the same
    // window in practice, and a turn crosses midnight once a day).
    for (let start = 0, end = 0; start < requests.length; start = end) {
      const { windowMs, dayKey } = requests[start]!;
      const last = Math.min(requests.length, start + batchMax);
      for (end = start + 1; end < last && requests[end]!.windowMs === windowMs &&
        requests[end]!.dayKey === dayKey;) end++;
      this.send(requests, dones, contexts, start, end);
    }
  };

  private send(requests: TakeRequest[], dones: TakeDone<never>[], contexts: unknown[],
    start: number, end: number): void {
    // EVALSHA's arguments in one array, filled in place: sha, key count, the keys, then the
    // window, the ttl, the day and each request's window field and stamp.
    const count = end - start;
    const args: string[] = new Array(2 + 3 * count + 3);
    const argsAt = 2 + count;
    args[1] = String(count);
    args[argsAt] = String(requests[start]!.windowMs);
    args[argsAt + 2] = requests[start]!.dayKey;
    let ttlSeconds = 0;
    for (let i = start, k = 2, a = argsAt + 3; i < end; i++, k++, a += 2) {
      const r = requests[i]!;
      args[k] = r.limitsName;
      args[a] = r.windowField;
      const code = r.burstLimit + limitCodeScale * (r.dailyLimit + 1);
      if (r.nowMs !== this.lastTimeMs || code !== this.lastCode) {
        this.lastTimeMs = r.nowMs;
        this.lastCode = code;
        this.lastStamp = timeText(r.nowMs) + code;
      }
      args[a + 1] = this.lastStamp;
      // The longest (the requests of one day differ by the turn's few milliseconds).
      ttlSeconds = Math.max(ttlSeconds, r.dailyTtlSeconds);
    }
    args[argsAt + 1] = String(ttlSeconds);
    this.run(args).then((reply) => {
      const values = reply as Buffer;
      for (let i = start; i < end; i++) {
        const n = replyEntryBytes * (i - start);
        const code = values.readUInt16LE(n);
        const burstCount = code >>> 2;
        (dones[i] as TakeDone<unknown>)({
          burstOk: (code & 1) === 1, dailyOk: (code & 2) === 2, burstCount,
          oldestMs: burstCount > 0 ? digitsAt(values, n + 2, n + oldestEnd) : -1,
          dailyUsed: values.readUInt32LE(n + oldestEnd),
        }, contexts[i]);
      }
    }, () => {
      for (let i = start; i < end; i++) (dones[i] as TakeDone<unknown>)(null, contexts[i]);
    }).catch(() => {
      // A callback that threw: it answers its own request; the others were answered.
    });
  }

  /**
   * An identity's count on each day asked (0 when none): the day its hash holds, the others as
   * kept under their own names. One HGET and one MGET (the dashboard's usage days).
   */
  async usedOn(usageIdentity: string, dayKeys: readonly string[]): Promise<number[]> {
    if (dayKeys.length === 0) return [];
    const [d, kept] = await Promise.all([
      this.link.command.hgetBuffer(limitsName(usageIdentity), 'd'),
      this.link.command.mget(dayKeys.map((dayKey) => redisNames.daily(dayKey, usageIdentity))),
    ]);
    const held = dayCountOf(d);
    return dayKeys.map((dayKey, i) => (dayKey === held?.dayKey
      ? held.count : Number(kept[i] ?? 0)));
  }

  /** The day's count without counting (the usage report). */
  async used(dayKey: string, usageIdentity: string): Promise<number> {
    const held = dayCountOf(await this.link.command.hgetBuffer(limitsName(usageIdentity), 'd'));
    return held?.dayKey === dayKey ? held.count : 0;
  }

  /**
   * EVALSHA after the first call: the script's text crosses the wire once per connection.
   * `args` from its second element on; the first is the sha. The command is written at once
   * (the batch is already one per turn: auto-pipelining would hold it one more tick and wrap
   * it in a pipeline of its own).
   */
  private async run(args: string[]): Promise<unknown> {
    const startMs = performance.now();
    try {
      return await this.runScript(args);
    } finally {
      this.scriptSeconds.observe((performance.now() - startMs) / 1000);
    }
  }

  private async runScript(args: string[]): Promise<unknown> {
    const { command } = this.link;
    if (this.sha !== null) {
      try {
        args[0] = this.sha;
        return await command.sendCommand(evalsha(this.link.Command, args));
      } catch (error) {
        if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
      }
    }
    this.sha = await command.script('LOAD', takeScript) as string;
    args[0] = this.sha;
    return command.sendCommand(evalsha(this.link.Command, args));
  }
}
