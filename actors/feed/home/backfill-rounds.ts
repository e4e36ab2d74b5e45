// The live feed's backfill rounds: at start and after each reconnect (and for pairs that join),
// every pair is filled from the info endpoint before its trades flow. Meanwhile its live trades
// and newest book are held; then the candles and funding go in oldest first, then the held
// trades that the candles do not already cover, then the book. A round waits at most `waitMs`:
// pairs not filled by then go live with what they have, and say why (report and log line).
import type { Logger } from '../../../core/logger.js';
import type { BookEvent, MarketEvent, TradeEvent } from '../../../core/messages.js';
import type { Backfiller, BackfillResult } from './backfill.js';

export type BackfillState = 'filling' | 'filled' | 'unfilled';

/** One pair's backfill outcome (also sent while it is filling), for readiness and logs. */
export interface BackfillReport {
  readonly symbol: string;
  readonly state: BackfillState;
  readonly candles: number;
  readonly fundings: number;
  /** Why it is unfilled (or what part failed); null when filled in full. */
  readonly reason: string | null;
}

export interface BackfillRoundsOptions {
  readonly backfiller: Backfiller;
  readonly logger: Logger;
  /** Longest a round holds its pairs' trades back (the bounded wait before /readyz). */
  readonly waitMs: number;
  /** Pairs filled at once per feed (the shared budget paces them across the process). */
  readonly concurrency?: number;
  /** Hands an event to the pair (counted as emitted). */
  readonly deliver: (event: MarketEvent) => void;
  /** Events still queued in the pair's lane: the next slice waits for it to drain. */
  readonly backlog: (symbol: string) => number;
  readonly onReport?: (report: BackfillReport) => void;
}

interface Held {
  trades: TradeEvent[];
  book: BookEvent | null;
  /** True once this round let it go (filled, failed or given up): late answers are ignored. */
  settled: boolean;
}

/** Events handed to a lane per slice: a mailbox drops its oldest when full. */
const sliceEvents = 1_024;

export class BackfillRounds {
  private readonly held = new Map<string, Held>();
  /** Per pair: market time up to which its candles hold the trades (older trades are dropped). */
  private readonly coveredUntilMs = new Map<string, number>();
  /** Pairs that went live at least once: a reconnect's refill does not hide their views. */
  private readonly released = new Set<string>();
  private readonly rounds = new Set<{ abort: AbortController; timer: NodeJS.Timeout }>();
  private stopped = false;
  /** Trades dropped because the candles already hold them. */
  coveredTrades = 0;

  constructor(private readonly options: BackfillRoundsOptions) {}

  /** Starts a round for `symbols`, each filled over [fromMs(symbol), toMs). */
  start(symbols: readonly string[], fromMs: (symbol: string) => number, toMs: number): void {
    // A gap shorter than a minute holds no closed candle: its pairs go on at once.
    const todo = symbols.filter((s) => !this.held.has(s) && toMs - fromMs(s) >= 60_000);
    if (todo.length === 0 || this.stopped) return;
    for (const symbol of todo) {
      this.held.set(symbol, { trades: [], book: null, settled: false });
      this.report(symbol, 'filling', 0, 0, null);
    }
    const abort = new AbortController();
    const round = { abort, timer: setTimeout(() => giveUp(), this.options.waitMs) };
    this.rounds.add(round);
    let logged = false;
    const done = () => {
      if (logged || this.stopped) return;
      logged = true;
      this.logRound(todo);
    };
    const giveUp = () => {
      abort.abort(`gave up after ${this.options.waitMs} ms`);
      const left = todo.filter((s) => this.held.get(s)?.settled === false);
      for (const symbol of left) {
        this.release(symbol, null, `not filled within ${this.options.waitMs} ms ` +
          '(info endpoint slow or request budget exhausted)');
      }
      done();
    };
    let next = 0;
    const worker = async () => {
      while (next < todo.length && !abort.signal.aborted) {
        const symbol = todo[next++];
        const result = await this.options.backfiller.backfill(symbol, fromMs(symbol), toMs,
          abort.signal);
        if (this.held.get(symbol)?.settled !== false) continue;
        await this.release(symbol, result, result.error);
      }
    };
    const workers = Array.from({ length: Math.min(this.options.concurrency ?? 2, todo.length) },
      () => worker());
    void Promise.all(workers).then(() => {
      clearTimeout(round.timer);
      this.rounds.delete(round);
      done();
    });
  }

  /** True while the pair's trades are held back for its backfill. */
  holds(symbol: string): boolean {
    return this.held.has(symbol);
  }

  /** True while the pair is filling for the first time: its views are not worth publishing. */
  isWarming(symbol: string): boolean {
    return this.held.has(symbol) && !this.released.has(symbol);
  }

  warming(): number {
    let count = 0;
    for (const symbol of this.held.keys()) if (!this.released.has(symbol)) count++;
    return count;
  }

  /** A trade the candles already hold (the minutes they cover): fold it in twice never. */
  covers(symbol: string, tsMs: number): boolean {
    const until = this.coveredUntilMs.get(symbol);
    return until !== undefined && tsMs < until;
  }

  /** Market time the pair's candles reach (-Infinity when none came). */
  filledUntil(symbol: string): number {
    return this.coveredUntilMs.get(symbol) ?? -Infinity;
  }

  /** Holds a live trade or book of a filling pair (call only when `holds`). */
  hold(event: TradeEvent | BookEvent): void {
    const held = this.held.get(event.symbol)!;
    if (event.type === 'trade') held.trades.push(event);
    else held.book = event;
  }

  /** A pair left the tracked set: forget it. */
  forget(symbol: string): void {
    const held = this.held.get(symbol);
    if (held) held.settled = true;
    this.held.delete(symbol);
    this.coveredUntilMs.delete(symbol);
    this.released.delete(symbol);
  }

  stop(): void {
    this.stopped = true;
    for (const round of this.rounds) {
      clearTimeout(round.timer);
      round.abort.abort('stopped');
    }
    this.rounds.clear();
    for (const held of this.held.values()) held.settled = true;
    this.held.clear();
  }

  /** Candles and funding (oldest first, in slices), then the held trades it does not cover. */
  private async release(symbol: string, result: BackfillResult | null, reason: string | null):
    Promise<void> {
    const held = this.held.get(symbol);
    if (!held || held.settled) return;
    held.settled = true;
    const fill: MarketEvent[] = result ? [...result.candles, ...result.fundings] : [];
    // Stable: a funding settled at a minute's open follows that minute's candle.
    fill.sort((a, b) => a.tsMs - b.tsMs);
    if (result && result.candles.length > 0) {
      const until = Math.max(result.coveredUntilMs, this.coveredUntilMs.get(symbol) ?? 0);
      this.coveredUntilMs.set(symbol, until);
    }
    for (let i = 0; i < fill.length && !this.stopped;) {
      if (this.options.backlog(symbol) > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      for (const end = Math.min(fill.length, i + sliceEvents); i < end; i++) {
        this.options.deliver(fill[i]);
      }
    }
    if (this.stopped || this.held.get(symbol) !== held) return;
    this.held.delete(symbol);
    this.released.add(symbol);
    for (const trade of held.trades) {
      if (this.covers(symbol, trade.tsMs)) this.coveredTrades++;
      else this.options.deliver(trade);
    }
    if (held.book) this.options.deliver(held.book);
    const filled = result !== null && reason === null;
    this.report(symbol, filled ? 'filled' : 'unfilled', result?.candles.length ?? 0,
      result?.fundings.length ?? 0, reason);
  }

  private readonly outcomes = new Map<string, BackfillReport>();

  private report(symbol: string, state: BackfillState, candles: number, fundings: number,
    reason: string | null): void {
    const report: BackfillReport = { symbol, state, candles, fundings, reason };
    this.outcomes.set(symbol, report);
    this.options.onReport?.(report);
  }

  /** One line per round: how many pairs filled, and each reason with the pairs it held back. */
  private logRound(symbols: readonly string[]): void {
    const byReason = new Map<string, string[]>();
    let filled = 0;
    let candles = 0;
    for (const symbol of symbols) {
      const r = this.outcomes.get(symbol);
      if (!r) continue;
      candles += r.candles;
      if (r.state === 'filled') filled++;
      else if (r.state === 'unfilled') {
        const reason = r.reason ?? 'unknown';
        byReason.set(reason, [...(byReason.get(reason) ?? []), symbol]);
      }
    }
    this.options.logger.info('backfill round done', { pairs: symbols.length, filled, candles });
    for (const [reason, pairs] of byReason) {
      this.options.logger.warn(`backfill could not fill ${pairs.join(', ')}: ${reason}`,
        { pairs, reason });
    }
  }
}
