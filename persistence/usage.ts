// Daily usage counters: counted in memory on the request path, written behind to lmdb on a
// cadence and at close, loaded back (today and yesterday) at open, pruned after 31 days.
import type { Database } from 'lmdb';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { UsageCounters } from '../core/messages.js';
import { storeLimits } from './limits.js';
import { createRomeDayCache, romeDayKey } from '../core/rome-time.js';

/** Rows are keyed [dayKey, identity] so one day is one contiguous range. */
export type UsageTable = Database<number, [string, string]>;

interface Counter {
  readonly identity: string;
  readonly dayKey: string;
  count: number;
  /** In the dirty list, waiting for the next write-behind pass. */
  dirty: boolean;
}

interface FlushWaiter {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

/** What a refused identity reads as: a quota check treats it as used up (fails closed). */
const exhaustedCount = Number.MAX_SAFE_INTEGER;
const dayMs = 86_400_000;

export class WriteBehindUsage implements UsageCounters {
  private readonly days = new Map<string, Map<string, Counter>>();
  /** Bounded by the counters held: each counter is listed at most once. */
  private dirtyList: Counter[] = [];
  private ipCounters = 0;
  private refusedTotal = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** Shared by every whenFlushed() caller until the next pass starts: O(1) memory. */
  private nextFlush: FlushWaiter | null = null;
  private lastPruneMs = -Infinity;
  /** Each write-behind pass (every 250 ms) asks for yesterday: Intl once a day, not per pass. */
  private readonly dayOf = createRomeDayCache();

  constructor(
    private readonly table: UsageTable,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly ipCountersMax: number = storeLimits.usageIpEntriesMax,
  ) {}

  /** Loads yesterday's and today's counters; the request path then never waits on disk. */
  load(): void {
    const today = romeDayKey(this.clock.nowMs());
    const yesterday = romeDayKey(this.clock.nowMs() - dayMs);
    for (const { key, value } of this.table.getRange({ start: [yesterday], end: [today + '\0'] })) {
      this.counterOf(key[1], key[0], value);
    }
  }

  /** Starts the write-behind timer (unref'd: close() does the last flush). */
  start(flushMs: number = storeLimits.usageFlushMs): void {
    if (this.flushTimer) return;
    this.flushTimer = setInterval(() => void this.flush(), flushMs);
    this.flushTimer.unref();
  }

  get(identity: string, dayKey: string): number {
    return this.counterOf(identity, dayKey)?.count ?? exhaustedCount;
  }

  increment(identity: string, dayKey: string): number {
    const counter = this.counterOf(identity, dayKey);
    if (counter === undefined) return exhaustedCount;
    counter.count += 1;
    if (!counter.dirty) {
      counter.dirty = true;
      this.dirtyList.push(counter);
    }
    return counter.count;
  }

  /**
   * Resolves once the next write-behind pass that starts after this call has committed: every
   * increment made before the call is then on disk. Holds the process open until then.
   */
  whenFlushed(): Promise<void> {
    if (this.nextFlush === null) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      this.nextFlush = { promise, resolve };
      if (this.flushTimer) this.flushTimer.ref();
      else void this.flush();
    }
    return this.nextFlush.promise;
  }

  /** Writes every changed counter now; passes never overlap and commit in order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePass());
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    this.flushTimer = null;
    await this.flush();
  }

  stats(): { counters: number; ipCounters: number; dirty: number; refusedTotal: number } {
    let counters = 0;
    for (const day of this.days.values()) counters += day.size;
    return { counters, ipCounters: this.ipCounters, dirty: this.dirtyList.length,
      refusedTotal: this.refusedTotal };
  }

  private async writePass(): Promise<void> {
    const waiter = this.nextFlush;
    this.nextFlush = null;
    const batch = this.dirtyList;
    this.dirtyList = [];
    let committed: Promise<boolean> | null = null;
    for (const counter of batch) {
      counter.dirty = false;
      // The value is encoded now: later increments mark the counter dirty again.
      committed = this.table.put([counter.dayKey, counter.identity], counter.count);
    }
    try {
      if (committed) await committed;
      this.evictOldDays();
      await this.pruneIfDue();
    } catch (error) {
      this.logger.error('usage write-behind failed; retrying next pass', { error });
      for (const counter of batch) this.markDirty(counter);
      // Its waiters were promised durability: they wait for the next pass that succeeds.
      if (waiter) this.deferWaiter(waiter);
      return;
    }
    // A waiter that arrived during this pass keeps the timer held for the next one.
    if (this.nextFlush === null) this.flushTimer?.unref();
    waiter?.resolve();
  }

  private deferWaiter(waiter: FlushWaiter): void {
    if (this.nextFlush === null) this.nextFlush = waiter;
    else void this.nextFlush.promise.then(waiter.resolve);
  }

  private markDirty(counter: Counter): void {
    if (counter.dirty) return;
    counter.dirty = true;
    this.dirtyList.push(counter);
  }

  /** The counter, created (from disk when it has a row) on first touch; undefined when full. */
  private counterOf(identity: string, dayKey: string, stored?: number): Counter | undefined {
    let day = this.days.get(dayKey);
    const existing = day?.get(identity);
    if (existing !== undefined) return existing;
    const isIp = identity.startsWith('ip:');
    if (isIp && this.ipCounters >= this.ipCountersMax) {
      this.refusedTotal += 1;
      if (this.refusedTotal === 1) this.logger.warn('usage ip counters full; refusing new IPs');
      return undefined;
    }
    const count = stored ?? this.table.get([dayKey, identity]) ?? 0;
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new Error(`corrupt usage count ${count} for ${identity} on ${dayKey}`);
    }
    const counter: Counter = { identity, dayKey, count, dirty: false };
    if (day === undefined) {
      day = new Map();
      this.days.set(dayKey, day);
    }
    day.set(identity, counter);
    if (isIp) this.ipCounters += 1;
    return counter;
  }

  /** Drops days before yesterday from memory once written; a late touch re-reads from disk. */
  private evictOldDays(): void {
    const yesterday = this.dayOf(this.clock.nowMs() - dayMs).key;
    for (const [dayKey, day] of this.days) {
      if (dayKey >= yesterday) continue;
      if ([...day.values()].some((counter) => counter.dirty)) continue;
      for (const identity of day.keys()) if (identity.startsWith('ip:')) this.ipCounters -= 1;
      this.days.delete(dayKey);
    }
  }

  private async pruneIfDue(): Promise<void> {
    const nowMs = this.clock.nowMs();
    if (nowMs - this.lastPruneMs < storeLimits.usagePruneEveryMs) return;
    const cutoff = romeDayKey(nowMs - storeLimits.usageRetentionDays * dayMs);
    const old = [...this.table.getKeys({ end: [cutoff], limit: storeLimits.usagePruneBatchMax })];
    // A full batch means more may remain: look again on the next pass.
    if (old.length < storeLimits.usagePruneBatchMax) this.lastPruneMs = nowMs;
    if (old.length === 0) return;
    await this.table.transaction(() => {
      for (const key of old) this.table.removeSync(key);
    });
    this.logger.debug('usage rows pruned', { rows: old.length, before: cutoff });
  }
}
