// Wallet categories from documented rules, checked in a fixed order; the first rule that holds
// decides. An operator label with a category overrides them all (docs/positioning.md).
import type { WalletCategory } from '../../core/messages.js';
import type { WalletMetrics } from './types.js';

/** Thresholds of the rules. Every comparison is inclusive (>= or <=), so boundaries are exact. */
export interface CategoryRules {
  /** insider: at least this many large entries evaluated ... */
  readonly insiderEntriesMin: number;
  /** ... and at least this share of them followed by a large favourable move. */
  readonly insiderPrescientShareMin: number;
  /** market_maker: two-sided flow at least this balanced (min/max of buy and sell) ... */
  readonly makerTwoSidednessMin: number;
  /** ... trading at least this multiple of its account value ... */
  readonly makerTurnoverMin: number;
  /** ... over at least this many (decayed) trades. */
  readonly makerTradesMin: number;
  /** fund: account value at least this (USD) ... */
  readonly fundAccountValueMin: number;
  /** ... at an effective leverage at most this. */
  readonly fundLeverageMax: number;
  /** smart_money: estimated realized PnL at least this (USD) ... */
  readonly smartRealizedPnlMin: number;
  /** ... and at least this share of the account value. */
  readonly smartRealizedShareMin: number;
  /** degen: effective leverage at least this, or any position's leverage setting at least... */
  readonly degenEffectiveLeverageMin: number;
  readonly degenPositionLeverageMin: number;
}

export const defaultCategoryRules: CategoryRules = Object.freeze({
  insiderEntriesMin: 3,
  insiderPrescientShareMin: 0.6,
  makerTwoSidednessMin: 0.8,
  makerTurnoverMin: 5,
  makerTradesMin: 20,
  fundAccountValueMin: 10_000_000,
  fundLeverageMax: 3,
  smartRealizedPnlMin: 100_000,
  smartRealizedShareMin: 0.1,
  degenEffectiveLeverageMin: 10,
  degenPositionLeverageMin: 25,
});

export interface CategoryDecision {
  readonly category: WalletCategory;
  readonly reason: string;
}

/** Applies the rules in order: insider, market_maker, fund, smart_money, degen, and else whale. */
export function categorize(m: WalletMetrics, rules: CategoryRules = defaultCategoryRules):
  CategoryDecision {
  if (m.entriesEvaluated >= rules.insiderEntriesMin &&
    m.entriesPrescient / m.entriesEvaluated >= rules.insiderPrescientShareMin) {
    return decide('insider',
      `${m.entriesPrescient} of ${m.entriesEvaluated} large entries before a large move`);
  }
  if (m.turnover !== null && m.twoSidedness >= rules.makerTwoSidednessMin &&
    m.turnover >= rules.makerTurnoverMin && m.tradeCount >= rules.makerTradesMin) {
    return decide('market_maker',
      `two-sided ${fmt(m.twoSidedness)}, turnover ${fmt(m.turnover)}x account value`);
  }
  const accountValue = m.accountValue ?? 0;
  if (accountValue >= rules.fundAccountValueMin && m.effectiveLeverage !== null &&
    m.effectiveLeverage <= rules.fundLeverageMax) {
    return decide('fund', `account ${fmt(accountValue)} USD at ${fmt(m.effectiveLeverage)}x`);
  }
  if (accountValue > 0 && m.realizedPnl >= rules.smartRealizedPnlMin &&
    m.realizedPnl / accountValue >= rules.smartRealizedShareMin) {
    return decide('smart_money', `realized PnL ${fmt(m.realizedPnl)} USD`);
  }
  if ((m.effectiveLeverage !== null && m.effectiveLeverage >= rules.degenEffectiveLeverageMin) ||
    m.maxLeverage >= rules.degenPositionLeverageMin) {
    const lev = Math.max(m.effectiveLeverage ?? 0, m.maxLeverage);
    return decide('degen', `leverage ${fmt(lev)}x`);
  }
  // Tracked wallets are large traders by construction (discovered from large prints), so a
  // wallet no other rule describes is a directional whale.
  return decide('directional_whale', 'large one-directional trader (no other rule holds)');
}

function decide(category: WalletCategory, reason: string): CategoryDecision {
  return { category, reason };
}

function fmt(value: number): string {
  return Number(value.toPrecision(4)).toString();
}
