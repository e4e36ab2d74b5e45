// Mutable counters behind FeedStats, and the "log once per kind per minute" rule for drops.
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import type { FeedStats } from './feed-types.js';

const LOG_INTERVAL_MS = 60_000;
// Drop reasons are a small fixed vocabulary; anything else is folded into 'other'.
const KINDS_MAX = 32;

export class FeedCounters {
  private events = 0;
  /** Trades and books handed as fields: counted apart, the fast path skips the keyed record. */
  private trades = 0;
  private books = 0;
  private readonly byType: Record<string, number> = {};
  private readonly dropped: Record<string, number> = {};
  private readonly loggedAtMs = new Map<string, number>();
  reconnects = 0;
  connected = false;
  /**
   * NaN before the first event. Always a number: a field that also holds null stores each
   * timestamp (beyond small integers) as a new heap number, an allocation per event.
   */
  private lastEventMs = NaN;

  constructor(private readonly clock: Clock, private readonly logger: Logger) {}

  count(event: MarketEvent): void {
    this.events++;
    this.byType[event.type] = (this.byType[event.type] ?? 0) + 1;
    this.lastEventMs = event.tsMs;
  }

  /** count() for a trade handed as fields (see TradeFields). */
  countTrade(tsMs: number): void {
    this.trades++;
    this.lastEventMs = tsMs;
  }

  /** count() for a book handed as fields (see BookFields). */
  countBook(tsMs: number): void {
    this.books++;
    this.lastEventMs = tsMs;
  }

  /** Counts a dropped input and logs it at most once per kind per minute (service clock). */
  drop(kind: string, detail: Record<string, unknown> = {}): void {
    const key = kind in this.dropped || Object.keys(this.dropped).length < KINDS_MAX ? kind :
      'other';
    this.dropped[key] = (this.dropped[key] ?? 0) + 1;
    const now = this.clock.nowMs();
    const last = this.loggedAtMs.get(key);
    if (last !== undefined && now - last < LOG_INTERVAL_MS) return;
    this.loggedAtMs.set(key, now);
    this.logger.warn('feed input dropped', { kind: key, count: this.dropped[key], ...detail });
  }

  snapshot(): FeedStats {
    const eventsByType = { ...this.byType };
    if (this.trades > 0) eventsByType.trade = (eventsByType.trade ?? 0) + this.trades;
    if (this.books > 0) eventsByType.book = (eventsByType.book ?? 0) + this.books;
    return {
      events: this.events + this.trades + this.books, eventsByType, dropped: { ...this.dropped },
      reconnects: this.reconnects, connected: this.connected,
      lastEventMs: Number.isNaN(this.lastEventMs) ? null : this.lastEventMs,
    };
  }
}
