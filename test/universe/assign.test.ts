// Shard assignment: balanced, independent of input order, and stable as the set changes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assignShards, symbolsOfShard } from '../../actors/universe/assign.js';

const symbols = Array.from({ length: 100 }, (_, i) => `S${i}`);

test('balanced within one and independent of input order', () => {
  const a = assignShards(symbols, 3);
  const b = assignShards([...symbols].reverse(), 3);
  assert.equal([...a.entries()].sort(), [...b.entries()].sort());
  const sizes = [0, 1, 2].map((s) => symbolsOfShard(a, s).length);
  assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, String(sizes));
});

test('stable: survivors keep their shard when pairs enter and leave', () => {
  const before = assignShards(symbols, 4);
  const next = symbols.filter((s) => s !== 'S5' && s !== 'S17').concat(['N1', 'N2']);
  const after = assignShards(next, 4, before);
  for (const s of next) if (before.has(s)) assert.is(after.get(s), before.get(s), s);
  assert.not.ok(after.has('S5'));
  assert.ok(after.has('N1') && after.has('N2'));
});

test('shrinking the shard count moves only the orphans', () => {
  const before = assignShards(symbols, 4);
  const after = assignShards(symbols, 3, before);
  for (const [s, shard] of after) assert.ok(shard < 3, s);
  let moved = 0;
  for (const s of symbols) if (after.get(s) !== before.get(s)) moved++;
  assert.ok(moved <= 34, `moved ${moved}`);
});

test('builder-dex markets are spread within one on their own, totals still within one', () => {
  // The hashes put most of these on one shard when only the totals were balanced.
  const builders = ['AAPL', 'AMZN', 'COIN', 'HOOD', 'INTC', 'META', 'PLTR', 'TSLA', 'GOOGL',
    'MSFT', 'NVDA', 'ORCL', 'GOLD', 'XYZ100'].map((t) => `xyz:${t}`)
    .concat(['flx:TSLA', 'flx:GOLD']);
  for (const shardCount of [2, 3]) {
    const all = [...symbols.slice(0, 84), ...builders];
    const a = assignShards(all, shardCount);
    const perShard = (pick: (s: string) => boolean) => Array.from({ length: shardCount },
      (_, i) => symbolsOfShard(a, i).filter(pick).length);
    for (const sizes of [perShard((s) => s.includes(':')), perShard(() => true)]) {
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `${shardCount}: ${sizes}`);
    }
  }
});

test('a shard count below one is refused', () => {
  assert.throws(() => assignShards(symbols, 0), /shardCount/);
});

test.run();
