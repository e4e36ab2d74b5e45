// The tracked set: top by 24h notional, listed and not delisted, with exit-rank hysteresis.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rankTracked, type UniverseMarket } from '../../actors/universe/tracked.js';

function market(symbol: string, volume: number, isDelisted = false): UniverseMarket {
  return { symbol, dex: '', szDecimals: 2, maxLeverage: 10, isDelisted, onlyIsolated: false,
    ctx: { markPx: 1, prevDayPx: 1, dayNtlVlm: volume, openInterest: 1, fundingRate: 0,
      oraclePx: 1, midPx: 1 } };
}
// M000 has the highest volume, M199 the lowest.
const markets = Array.from({ length: 200 }, (_, i) =>
  market(`M${String(i).padStart(3, '0')}`, 1e9 - i * 1e6));

test('fresh ranking takes the top 100 by volume, in rank order', () => {
  const tracked = rankTracked(markets, new Set());
  assert.is(tracked.length, 100);
  assert.is(tracked[0], 'M000');
  assert.is(tracked[99], 'M099');
});

test('delisted and zero-volume markets are never tracked', () => {
  const list = [market('DEAD', 5e9, true), market('ZERO', 0), ...markets.slice(0, 5)];
  const tracked = rankTracked(list, new Set(['DEAD']), 3, 4);
  assert.equal(tracked, ['M000', 'M001', 'M002']);
});

test('hysteresis: a member ranked 101..110 stays, below 110 it leaves', () => {
  const previous = new Set(rankTracked(markets, new Set()));
  // M050 drops to rank ~105: still tracked, and the newcomer M100 does not push it out.
  const moved = markets.map((m) => m.symbol === 'M050' ? market('M050', 1e9 - 104.5 * 1e6) : m);
  const kept = rankTracked(moved, previous);
  assert.ok(kept.includes('M050'));
  assert.not.ok(kept.includes('M100'));
  assert.is(kept.length, 100);
  // Below rank 110 it leaves and the best outsider takes the seat.
  const fell = markets.map((m) => m.symbol === 'M050' ? market('M050', 1e9 - 150 * 1e6) : m);
  const after = rankTracked(fell, previous);
  assert.not.ok(after.includes('M050'));
  assert.ok(after.includes('M100'));
  assert.is(after.length, 100);
});

test('bad bounds are programmer errors', () => {
  assert.throws(() => rankTracked(markets, new Set(), 100, 50), /exitRank/);
  assert.throws(() => rankTracked(markets, new Set(), -1, 110), /count/);
});

test.run();
