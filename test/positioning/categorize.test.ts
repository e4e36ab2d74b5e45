// Category rules on crafted wallets: each category, each boundary, the order, the label file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { categorize } from '../../actors/positioning/categorize.js';
import { parseLabelFile } from '../../actors/positioning/labels.js';
import type { WalletMetrics } from '../../actors/positioning/types.js';
import { addressOf, baseMetrics } from './helpers.js';

const with_ = (over: Partial<WalletMetrics>): WalletMetrics => ({ ...baseMetrics, ...over });
const cat = (over: Partial<WalletMetrics>) => categorize(with_(over)).category;

test('a one-sided wallet no rule describes is a directional whale', () => {
  assert.is(cat({}), 'directional_whale');
});

test('insider: enough entries, share at the boundary', () => {
  assert.is(cat({ entriesEvaluated: 5, entriesPrescient: 3 }), 'insider'); // exactly 0.6
  assert.is(cat({ entriesEvaluated: 5, entriesPrescient: 2 }), 'directional_whale');
  assert.is(cat({ entriesEvaluated: 2, entriesPrescient: 2 }), 'directional_whale'); // too few
  assert.is(cat({ entriesEvaluated: 3, entriesPrescient: 3 }), 'insider');
});

test('market maker: two-sided, high turnover, many trades; each boundary', () => {
  const maker = { twoSidedness: 0.8, turnover: 5, tradeCount: 20 };
  assert.is(cat(maker), 'market_maker');
  assert.is(cat({ ...maker, twoSidedness: 0.79 }), 'directional_whale');
  assert.is(cat({ ...maker, turnover: 4.99 }), 'directional_whale');
  assert.is(cat({ ...maker, tradeCount: 19.9 }), 'directional_whale');
  assert.is(cat({ ...maker, turnover: null, accountValue: null }), 'directional_whale');
});

test('fund: large account at low leverage; boundaries', () => {
  const fund = { accountValue: 10_000_000, effectiveLeverage: 3 };
  assert.is(cat(fund), 'fund');
  assert.is(cat({ ...fund, effectiveLeverage: 3.01 }), 'directional_whale');
  assert.is(cat({ ...fund, accountValue: 9_999_999 }), 'directional_whale');
  assert.is(cat({ ...fund, effectiveLeverage: null }), 'directional_whale');
});

test('smart money: realized PnL in USD and as a share of the account', () => {
  assert.is(cat({ realizedPnl: 100_000 }), 'smart_money'); // 10 % of 1M
  assert.is(cat({ realizedPnl: 99_999 }), 'directional_whale');
  assert.is(cat({ accountValue: 2_000_000, realizedPnl: 150_000 }), 'directional_whale');
  assert.is(cat({ accountValue: null, realizedPnl: 1e9 }), 'directional_whale');
});

test('degen: effective leverage or a position leverage setting', () => {
  assert.is(cat({ effectiveLeverage: 10 }), 'degen');
  assert.is(cat({ effectiveLeverage: 9.99 }), 'directional_whale');
  assert.is(cat({ maxLeverage: 25 }), 'degen');
  assert.is(cat({ maxLeverage: 24 }), 'directional_whale');
});

test('rules apply in order: insider, market maker, fund, smart money, degen', () => {
  const all = {
    entriesEvaluated: 3, entriesPrescient: 3, twoSidedness: 1, turnover: 10, tradeCount: 50,
    accountValue: 20_000_000, effectiveLeverage: 1, realizedPnl: 5_000_000, maxLeverage: 50,
  };
  assert.is(cat(all), 'insider');
  assert.is(cat({ ...all, entriesPrescient: 0 }), 'market_maker');
  assert.is(cat({ ...all, entriesPrescient: 0, twoSidedness: 0 }), 'fund');
  assert.is(cat({ ...all, entriesPrescient: 0, twoSidedness: 0, effectiveLeverage: 4 }),
    'smart_money');
  assert.is(cat({ ...all, entriesPrescient: 0, twoSidedness: 0, effectiveLeverage: 4,
    realizedPnl: 0 }), 'degen');
  assert.match(categorize(with_(all)).reason, /3 of 3/);
});

test('label file: parsed, addresses lower-cased, category optional', () => {
  const upper = '0x' + 'AB'.repeat(20);
  const parsed = parseLabelFile(JSON.stringify({
    [upper]: { label: 'Desk A', category: 'fund' },
    [addressOf(2)]: { label: 'Someone' },
  }));
  assert.ok(parsed.ok);
  if (!parsed.ok) return;
  assert.equal(parsed.value.get(upper.toLowerCase()), { label: 'Desk A', category: 'fund' });
  assert.equal(parsed.value.get(addressOf(2)), { label: 'Someone', category: null });
});

test('label file: every malformed input is an error naming the field', () => {
  const bad = (text: string, pattern: RegExp) => {
    const parsed = parseLabelFile(text);
    assert.not.ok(parsed.ok, text);
    if (!parsed.ok) assert.match(parsed.error, pattern);
  };
  bad('{', /label file must be JSON/);
  bad('[]', /an object keyed by address/);
  bad(JSON.stringify({ '0x12': { label: 'x' } }), /key "0x12" must be a wallet address/);
  bad(JSON.stringify({ [addressOf(1)]: 'x' }), /must be an object/);
  bad(JSON.stringify({ [addressOf(1)]: { label: '' } }), /\.label must be a string .* \(was ""\)/);
  bad(JSON.stringify({ [addressOf(1)]: { label: 'x', category: 'whale' } }),
    /\.category must be one of fund, .* \(was "whale"\)/);
});

test.run();
