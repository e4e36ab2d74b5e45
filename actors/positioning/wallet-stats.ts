// The mutable per-wallet figures the tracker keeps: decayed flow, the last account state, the
// realized PnL estimate and the poll schedule; and the metrics the category rules read.
import type { WalletPosition, WalletStateEvent } from '../../core/messages.js';
import type { WalletMetrics } from './types.js';

export interface WalletStats {
  readonly address: string;
  readonly firstSeenMs: number;
  lastActiveMs: number;
  /** Decayed notional bought / sold and trade count, as of `decayedAtMs`. */
  buyNotional: number;
  sellNotional: number;
  tradeCount: number;
  decayedAtMs: number;
  realizedPnl: number;
  entriesEvaluated: number;
  entriesPrescient: number;
  state: WalletStateEvent | null;
  /** Poll schedule, on the poll clock: due when nextPollMs <= now. */
  nextPollMs: number;
  /** Set while a poll is in flight (the time it was handed out), else null. */
  pollStartedMs: number | null;
  pollFailures: number;
  /** Relevance in the tracker's time-normalized units (see WalletTracker), and the part of it
   *  the current state's open notional contributes (replaced by the next state). */
  score: number;
  openScore: number;
  heapIndex: number;
}

export function createWalletStats(address: string, tsMs: number, pollNowMs: number): WalletStats {
  return {
    address, firstSeenMs: tsMs, lastActiveMs: tsMs,
    buyNotional: 0, sellNotional: 0, tradeCount: 0, decayedAtMs: tsMs,
    realizedPnl: 0, entriesEvaluated: 0, entriesPrescient: 0,
    state: null, nextPollMs: pollNowMs, pollStartedMs: null, pollFailures: 0,
    score: 0, openScore: 0, heapIndex: -1,
  };
}

/** Factor that decays a quantity from `fromMs` to `toMs`; never grows (out-of-order times). */
export function decayFactor(fromMs: number, toMs: number, halfLifeMs: number): number {
  return toMs > fromMs ? Math.pow(2, -(toMs - fromMs) / halfLifeMs) : 1;
}

/** Folds one trade of this wallet in. side: +1 the wallet bought, -1 it sold. */
export function addTrade(
  s: WalletStats, notionalUsd: number, side: 1 | -1, tsMs: number, halfLifeMs: number,
): void {
  const factor = decayFactor(s.decayedAtMs, tsMs, halfLifeMs);
  s.buyNotional *= factor;
  s.sellNotional *= factor;
  s.tradeCount *= factor;
  s.decayedAtMs = Math.max(s.decayedAtMs, tsMs);
  if (side === 1) s.buyNotional += notionalUsd;
  else s.sellNotional += notionalUsd;
  s.tradeCount += 1;
  s.lastActiveMs = Math.max(s.lastActiveMs, tsMs);
}

export function openNotional(state: WalletStateEvent | null): number {
  if (state === null) return 0;
  let total = 0;
  for (const p of state.positions) total += Math.abs(p.positionValue);
  return total;
}

/** The mark a position implies: its value over its size. */
export function impliedMark(p: WalletPosition): number {
  return Math.abs(p.positionValue / p.size);
}

/**
 * Realized PnL of the reductions between two states, estimated: the closed size times the exit
 * mark minus the previous entry. The exit mark is the new state's mark for a position still
 * open (or flipped), else the last mark seen for the symbol, else the previous state's mark.
 */
export function realizedBetween(
  previous: WalletStateEvent, next: WalletStateEvent, markOf: (symbol: string) => number | null,
): number {
  const nextBySymbol = new Map(next.positions.map((p) => [p.symbol, p]));
  let realized = 0;
  for (const before of previous.positions) {
    const after = nextBySymbol.get(before.symbol);
    const sameSide = after !== undefined && Math.sign(after.size) === Math.sign(before.size);
    const closed = sameSide
      ? Math.max(0, Math.abs(before.size) - Math.abs(after.size)) : Math.abs(before.size);
    if (closed === 0) continue;
    const exitPx = after !== undefined ? impliedMark(after)
      : markOf(before.symbol) ?? impliedMark(before);
    realized += closed * (exitPx - before.entryPx) * Math.sign(before.size);
  }
  return realized;
}

/** The metrics of the category rules, with flow decayed to `nowMs`. */
export function walletMetrics(s: WalletStats, nowMs: number, halfLifeMs: number): WalletMetrics {
  const factor = decayFactor(s.decayedAtMs, nowMs, halfLifeMs);
  const buy = s.buyNotional * factor;
  const sell = s.sellNotional * factor;
  const accountValue = s.state?.accountValue ?? null;
  const open = openNotional(s.state);
  const positive = accountValue !== null && accountValue > 0;
  let maxLeverage = 0;
  for (const p of s.state?.positions ?? []) maxLeverage = Math.max(maxLeverage, p.leverage);
  const larger = Math.max(buy, sell);
  return {
    accountValue,
    openNotional: open,
    effectiveLeverage: positive ? open / accountValue : null,
    maxLeverage,
    buyNotional: buy,
    sellNotional: sell,
    twoSidedness: larger > 0 ? Math.min(buy, sell) / larger : 0,
    turnover: positive ? (buy + sell) / accountValue : null,
    tradeCount: s.tradeCount * factor,
    realizedPnl: s.realizedPnl,
    entriesEvaluated: s.entriesEvaluated,
    entriesPrescient: s.entriesPrescient,
  };
}
