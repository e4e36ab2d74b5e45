// The plan table, exhaustively: every plan x every endpoint, against a matrix written out here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PLANS, type Plan } from '../../core/messages.js';
import { ENDPOINTS, type Endpoint } from '../../http/access-types.js';
import { appliedDailyLimit, dailyLimitByPlan, minimumPlan, planReaches } from '../../http/plans.js';

// Rows: endpoints; columns: Free Trial Starter Trader Pro Whale API (1 reaches, 0 not).
const expected: Record<Endpoint, string> = {
  'screener':        '1111111',
  'pair':            '1111111',
  'usage':           '1111111',
  'signals':         '0001111',
  'smart-money':     '0000111',
  'deep-view':       '0000011',
  'cvd':             '0000011',
  'funding-arb':     '0000011',
  'liquidation-map': '0000011',
  'wallets':         '0000011',
  'export':          '0000011',
  'history':         '0000111',
  'footprint':       '0000011',
  'volume-profile':  '0000011',
};

test('the matrix covers every endpoint and every plan', () => {
  assert.equal(Object.keys(expected).sort(), [...ENDPOINTS].sort());
  assert.equal(PLANS, ['Free', 'Trial', 'Starter', 'Trader', 'Pro', 'Whale', 'API']);
});

for (const endpoint of ENDPOINTS) {
  test(`plan reach of ${endpoint}`, () => {
    PLANS.forEach((plan, i) => {
      assert.is(planReaches(plan, endpoint), expected[endpoint][i] === '1', `${plan}`);
    });
  });
}

test('only screener and pair are open; usage needs a key of any plan', () => {
  const open = ENDPOINTS.filter((e) => minimumPlan[e] === null);
  assert.equal(open, ['screener', 'pair']);
  assert.is(minimumPlan.usage, 'Free');
});

test('daily limits per plan (spec section 8)', () => {
  const limits: Record<Plan, number> = { Free: 20, Trial: 500, Starter: 500, Trader: 2000,
    Pro: 5000, Whale: 2000, API: 50000 };
  assert.equal(dailyLimitByPlan, limits);
});

test('grandfathering: Whale before 2026-09-08 Rome keeps 50,000 until 2026-11-07 Rome', () => {
  const before = Date.parse('2026-09-07T21:59:59.999Z');
  const cutoff = Date.parse('2026-09-07T22:00:00.000Z');
  const end = Date.parse('2026-11-06T23:00:00.000Z');
  assert.is(appliedDailyLimit('Whale', before, end - 1).limit, 50_000);
  assert.is(appliedDailyLimit('Whale', before, end - 1).grandfatheredUntilMs, end);
  assert.is(appliedDailyLimit('Whale', before, end).limit, 2_000);
  assert.is(appliedDailyLimit('Whale', before, end).grandfathered, false);
  assert.is(appliedDailyLimit('Whale', cutoff, end - 1).limit, 2_000);
  assert.is(appliedDailyLimit('Whale', null, end - 1).limit, 2_000);
  assert.is(appliedDailyLimit('Pro', before, end - 1).limit, 5_000);
  assert.is(appliedDailyLimit('API', before, end - 1).grandfathered, false);
});

test.run();
