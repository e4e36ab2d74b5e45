// The live feed's backfill rounds: at start and after each reconnect (and for pairs that join),
// every pair is filled from the info endpoint before its trades flow. Meanwhile its live trades
// and newest book are held, and its contexts pass marked `beforeFill` (numbers, no history
// minute) and are kept; then the candles and funding go in oldest first, then the held trades
// that the candles do not already cover with the kept contexts in time order, then the book.
// A round waits at most
// `waitMs` before it lets /readyz answer: a pair not filled by then is `late`, publishes what it
// has (ctx) and keeps filling as the request budget allows, its trades still held, and is folded
// exactly as if it had filled in time. Only a request that failed every retry, the hold bound
// (`holdMs`) or too many held trades let a pair go live unfilled, and each says why (report and
// log line).
import type { Logger } from '../../../core/logger.js';
import type {
  AssetCtxEvent, BookEvent, MarketEvent, TradeEvent,
} from '../../../core/messages.js';
import type { Backfiller, BackfillResult } from './backfill.js';
import { realTimers, type TimerHandle, type Timers } from './timers.js';

/**
 * `late`: not filled within the round's wait, still filling (its views publish meanwhile);
 * /readyz counts it as settled and names it.
 */
export type BackfillState = 'filling' | 'late' | 'filled' | 'unfilled';

/** One pair's backfill outcome (also sent while it is filling), for readiness and logs. */
export interface BackfillReport {
  readonly symbol: string;
  readonly state: BackfillState;
  readonly candles: number;
  readonly fundings: number;
  /** Why it is unfilled or late (or what part failed); null when filled in full. */
  readonly reason: string | null;
}

export interface BackfillRoundsOptions {
  readonly backfiller: Backfiller;
  readonly logger: Logger;
  /** Longest a round waits before its unfilled pairs publish (the wait before /readyz). */
  readonly waitMs: number;
  /** Longest a pair's trades are held for its fill (default 30 min; at least `waitMs`). */
  readonly holdMs?: number;
  /** Trades held per pair at most (default 20,000): past it, the pair goes live unfilled. */
  readonly heldTradesMax?: number;
  /** Trades held by all pairs of this feed at most (default 100,000, about 25 MB). */
  readonly heldTradesTotalMax?: number;
  /** Pairs filled at once per feed (the shared budget paces them across the process). */
  readonly concurrency?: number;
  /**
   * Which waiting pair to fill next: the highest first (the feed gives the 24h notional of its
   * ctx, so the busiest pairs have their numbers first); ties in the order given.
   */
  readonly priority?: (symbol: string) => number;
  /**
   * Pauses before a pair's request that brought nothing (5xx, bad JSON, timeout) is asked
   * again, one per retry (default 2 s, 10 s, 30 s); after the last the pair goes live unfilled.
   */
  readonly retryDelaysMs?: readonly number[];
  /** Hands an event to the pair (counted as emitted). */
  readonly deliver: (event: MarketEvent) => void;
  /** Events still queued in the pair's lane: the next slice waits for it to drain. */
  readonly backlog: (symbol: string) => number;
  readonly onReport?: (report: BackfillReport) => void;
  /** The wait and hold timers (default real; tests and the bench simulate time). */
  readonly timers?: Timers;
}

interface Held {
  trades: TradeEvent[];
  book: BookEvent | null;
  /**
   * Its contexts, handed on again after the candles among the held trades: the minutes of the
   * hold get their marks and open interest as live ones do.
   */
  contexts: AssetCtxEvent[];
  /** True once this round let it go (filled, failed or given up): late answers are ignored. */
  settled: boolean;
}

interface Round {
  readonly abort: AbortController;
  readonly timers: TimerHandle[];
}

/** Events handed to a lane per slice: a mailbox drops its oldest when full. */
const sliceEvents = 1_024;
/**
 * 100 pairs take ~9 min of the venue's 1200 weight a minute besides the universe and wallet
 * polls (bench/backfill.bench.ts): room for a slower endpoint, more builder dexes or wallets.
 */
export const holdMsDefault = 30 * 60_000;
const heldTradesMaxDefault = 20_000;
const retryDelaysMsDefault = [2_000, 10_000, 30_000];
const heldTradesTotalMaxDefault = 100_000;
/** Contexts kept per filling pair (~150 bytes each): the hold's 30 minutes at one a second. */
const heldContextsMax = 1_800;

export class BackfillRounds {
  private readonly held = new Map<string, Held>();
  /** Per pair: market time up to which its candles hold the trades (older trades are dropped). */
  private readonly coveredUntilMs = new Map<string, number>();
  /**
   * Pairs whose views publish: went live at least once, or passed a round's wait. A reconnect's
   * refill does not hide them again.
   */
  private readonly shown = new Set<string>();
  private readonly rounds = new Set<Round>();
  private readonly timers: Timers;
  private heldTrades = 0;
  private stopped = false;
  /** Trades dropped because the candles already hold them. */
  coveredTrades = 0;

  constructor(private readonly options: BackfillRoundsOptions) {
    this.timers = options.timers ?? realTimers;
  }

  /** Starts a round for `symbols`, each filled over [fromMs(symbol), toMs). */
  start(symbols: readonly string[], fromMs: (symbol: string) => number, toMs: number): void {
    // A gap shorter than a minute holds no closed candle: its pairs go on at once.
    const todo = symbols.filter((s) => !this.held.has(s) && toMs - fromMs(s) >= 60_000);
    if (todo.length === 0 || this.stopped) return;
    const mine = new Map<string, Held>();
    for (const symbol of todo) {
      const held: Held = { trades: [], book: null, contexts: [], settled: false };
      this.held.set(symbol, held);
      mine.set(symbol, held);
      this.report(symbol, 'filling', 0, 0, null);
    }
    const { waitMs } = this.options;
    const holdMs = Math.max(waitMs, this.options.holdMs ?? holdMsDefault);
    const round: Round = { abort: new AbortController(), timers: [] };
    this.rounds.add(round);
    const left = () => todo.filter((s) => mine.get(s)?.settled === false);
    /** Per pair, its failed requests so far and the last one's error. */
    const failures = new Map<string, { count: number; error: string }>();
    let logged = false;
    const done = () => {
      if (logged || this.stopped) return;
      logged = true;
      for (const timer of round.timers) this.timers.clearTimeout(timer);
      this.rounds.delete(round);
      this.logRound(todo);
    };
    const waited = () => {
      const late = left();
      const reason = `not filled within ${waitMs} ms: still filling as the info endpoint and ` +
        'request budget allow';
      for (const symbol of late) {
        // A refill after a reconnect keeps the pair's last outcome: its views never hid.
        if (this.shown.has(symbol)) continue;
        this.shown.add(symbol);
        const failed = failures.get(symbol);
        this.report(symbol, 'late', 0, 0,
          failed === undefined ? reason : `${failed.error}; asking again`);
      }
      if (late.length > 0) {
        this.options.logger.info('backfill wait over: late pairs publish and keep filling',
          { pairs: todo.length, late: late.length, waitMs });
      }
    };
    const giveUp = () => {
      round.abort.abort(`gave up after ${holdMs} ms`);
      for (const symbol of left()) {
        this.release(symbol, mine.get(symbol)!, null, `not filled within ${holdMs} ms ` +
          '(info endpoint slow or request budget exhausted)');
      }
      done();
    };
    if (holdMs > waitMs) round.timers.push(this.timers.setTimeout(waited, waitMs));
    round.timers.push(this.timers.setTimeout(giveUp, holdMs));
    const waiting = [...todo];
    const priority = this.options.priority ?? (() => 0);
    /** Pairs whose pause before a retry is over: asked before the others (they are due). */
    const due: string[] = [];
    const pick = () => {
      if (due.length > 0) return due.shift()!;
      let best = 0;
      for (let i = 1; i < waiting.length; i++) {
        if (priority(waiting[i]) > priority(waiting[best])) best = i;
      }
      return waiting.splice(best, 1)[0];
    };
    const concurrency = this.options.concurrency ?? 2;
    const retryDelaysMs = this.options.retryDelaysMs ?? retryDelaysMsDefault;
    let active = 0;
    let retrying = 0;
    const settle = () => {
      if (active === 0 && (retrying === 0 || round.abort.signal.aborted)) done();
    };
    // A request that brought nothing is asked again after a pause (the pair stays held, and
    // late at the wait), so a passing 5xx or timeout does not leave a pair without its past for
    // good; one that brought some candles keeps them (they reach up to the live stream), and
    // one the venue refused (a 4xx: the request itself) goes live at once.
    const retryLater = (symbol: string, held: Held, failed: number, error: string) => {
      failures.set(symbol, { count: failed, error });
      retrying++;
      round.timers.push(this.timers.setTimeout(() => {
        retrying--;
        if (!held.settled && !round.abort.signal.aborted) {
          due.push(symbol);
          spawn();
        }
        settle();
      }, retryDelaysMs[failed - 1]!));
    };
    const worker = async () => {
      while (waiting.length + due.length > 0 && !round.abort.signal.aborted) {
        const symbol = pick();
        const held = mine.get(symbol)!;
        if (held.settled) continue;
        const result = await this.options.backfiller.backfill(symbol, fromMs(symbol), toMs,
          round.abort.signal);
        if (held.settled) continue;
        const failed = (failures.get(symbol)?.count ?? 0) + (result.error === null ? 0 : 1);
        if (result.error !== null && result.candles.length === 0 && result.lasting !== true &&
          failed <= retryDelaysMs.length && !round.abort.signal.aborted) {
          retryLater(symbol, held, failed, result.error);
          continue;
        }
        await this.release(symbol, held, result, result.error === null || failed < 2
          ? result.error : `${result.error} (asked ${failed} times)`);
      }
    };
    const spawn = () => {
      while (active < concurrency && waiting.length + due.length > 0 &&
        !round.abort.signal.aborted) {
        active++;
        void worker().then(() => {
          active--;
          settle();
        });
      }
    };
    spawn();
  }

  /** True while the pair's trades are held back for its backfill. */
  holds(symbol: string): boolean {
    return this.held.has(symbol);
  }

  /** True while the pair is filling within its first wait: its views are not worth publishing. */
  isWarming(symbol: string): boolean {
    return this.held.has(symbol) && !this.shown.has(symbol);
  }

  warming(): number {
    let count = 0;
    for (const symbol of this.held.keys()) if (!this.shown.has(symbol)) count++;
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

  /**
   * Holds a live trade or book of a filling pair (call only when `holds`). False when the pair
   * went live instead (too many trades held): hand the event on as usual.
   */
  hold(event: TradeEvent | BookEvent): boolean {
    const held = this.held.get(event.symbol)!;
    if (event.type === 'book') {
      held.book = event;
      return true;
    }
    const perPair = this.options.heldTradesMax ?? heldTradesMaxDefault;
    const total = this.options.heldTradesTotalMax ?? heldTradesTotalMaxDefault;
    if (!held.settled && (held.trades.length >= perPair || this.heldTrades >= total)) {
      // Nothing awaits before the held trades go out: they precede this one.
      void this.release(event.symbol, held, null, `more than ${Math.min(perPair, total)} ` +
        'trades held before its candles came');
      return false;
    }
    held.trades.push(event);
    this.heldTrades++;
    return true;
  }

  /**
   * A context of a filling pair (call only when `holds`): kept for after the candles, and what
   * to hand on now, marked so that it opens no history minute before the older candles go in.
   */
  holdContext(event: AssetCtxEvent): AssetCtxEvent {
    const contexts = this.held.get(event.symbol)!.contexts;
    // Past the bound the oldest go: their minutes keep their trades, with a flat mark.
    if (contexts.length >= heldContextsMax) contexts.shift();
    contexts.push(event);
    return { ...event, beforeFill: true };
  }

  /**
   * The connection dropped: pairs still waiting for their candles are let go without a report
   * and without their held trades, and the reconnect's round fills each again up to its own
   * start, so its candles cover those trades and the time the connection was down (a refill
   * from the old start would leave that time a hole); answers still in flight are ignored.
   */
  interrupt(): void {
    for (const round of this.rounds) {
      for (const timer of round.timers) this.timers.clearTimeout(timer);
      round.abort.abort('connection lost');
    }
    this.rounds.clear();
    for (const [symbol, held] of this.held) {
      if (held.settled) continue;
      held.settled = true;
      this.heldTrades -= held.trades.length;
      this.held.delete(symbol);
    }
  }

  /** A pair left the tracked set: forget it. */
  forget(symbol: string): void {
    const held = this.held.get(symbol);
    if (held) {
      // A release under way finds the pair gone and leaves the count alone.
      this.heldTrades = Math.max(0, this.heldTrades - held.trades.length);
      held.settled = true;
    }
    this.held.delete(symbol);
    this.coveredUntilMs.delete(symbol);
    this.shown.delete(symbol);
  }

  stop(): void {
    this.stopped = true;
    for (const round of this.rounds) {
      for (const timer of round.timers) this.timers.clearTimeout(timer);
      round.abort.abort('stopped');
    }
    this.rounds.clear();
    for (const held of this.held.values()) held.settled = true;
    this.held.clear();
    this.heldTrades = 0;
  }

  /** Candles and funding (oldest first, in slices), then the held trades it does not cover. */
  private async release(symbol: string, held: Held, result: BackfillResult | null,
    reason: string | null): Promise<void> {
    if (held.settled || this.held.get(symbol) !== held) return;
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
    this.shown.add(symbol);
    // Trades held while the slices went out are counted here too.
    this.heldTrades = Math.max(0, this.heldTrades - held.trades.length);
    const contexts = held.contexts.filter((c) => !this.covers(symbol, c.tsMs));
    let next = 0;
    for (const trade of held.trades) {
      if (this.covers(symbol, trade.tsMs)) {
        this.coveredTrades++;
        continue;
      }
      while (next < contexts.length && contexts[next].tsMs <= trade.tsMs) {
        this.options.deliver(contexts[next++]);
      }
      this.options.deliver(trade);
    }
    while (next < contexts.length) this.options.deliver(contexts[next++]);
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
