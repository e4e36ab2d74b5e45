// De-duplication by trade id: the numeric table keeps exactly the last N ids (checked against a
// plain ring + Set model under heavy eviction and probe collisions, and with ids that mostly
// increase, where the sorted ring answers alone until a dip), text ids keep their own
// bound, and the numeric form of an id is canonical so either decode path keys it the same.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RecentTradeIds, numericTradeId } from '../../actors/feed/recent-trade-ids.js';
import { tradeIdField } from '../../actors/feed/replay/compact-fields.js';
import { scan } from '../../actors/feed/replay/byte-scan.js';

test('numeric ids: exactly the last N are remembered, as a ring + Set would', () => {
  const capacity = 37;
  const ids = new RecentTradeIds(capacity);
  const ring: number[] = [];
  const model = new Set<number>();
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let k = 0; k < 20_000; k++) {
    // Large venue-like ids, and small ones that repeat often (duplicates and re-adds).
    const id = k % 3 === 0 ? rand() % 120 : rand() * 524288 + (rand() % 524288);
    const seen = ids.has(id, null);
    assert.is(seen, model.has(id), `id ${id} at step ${k}`);
    if (seen) continue;
    ids.add(id, null);
    ring.push(id);
    model.add(id);
    if (ring.length > capacity) model.delete(ring.shift()!);
  }
});

test('ids that mostly increase (sorted ring) with dips and replays: still exactly the last N',
  () => {
    for (const capacity of [1, 2, 37]) {
      const ids = new RecentTradeIds(capacity);
      const ring: number[] = [];
      const model = new Set<number>();
      let seed = 99;
      const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
      let next = 1_000_000_000_000;
      for (let k = 0; k < 20_000; k++) {
        // Runs of increasing ids (the ring alone answers), a dip now and then (the table is
        // built, then dropped once the dip has left), and replays of recent ids.
        const r = rand() % 100;
        const id = r < 80 ? next++ : r < 90 ? next - 1 - (rand() % (2 * capacity + 3)) :
          next - 200 - (rand() % 50);
        const seen = ids.has(id, null);
        assert.is(seen, model.has(id), `capacity ${capacity}: id ${id} at step ${k}`);
        if (seen) continue;
        ids.add(id, null);
        ring.push(id);
        model.add(id);
        if (ring.length > capacity) model.delete(ring.shift()!);
      }
    }
  });

test('text ids are bounded on their own and never collide with numbers', () => {
  const ids = new RecentTradeIds(2);
  ids.add(NaN, 'a-1');
  ids.add(7, null);
  assert.ok(ids.has(NaN, 'a-1'));
  assert.not.ok(ids.has(NaN, '7'), 'the text "7" is never stored as text');
  ids.add(NaN, 'a-2');
  ids.add(NaN, 'a-3');
  assert.not.ok(ids.has(NaN, 'a-1'), 'oldest text id forgotten');
  assert.ok(ids.has(7, null), 'numeric ids are not evicted by text ids');
  assert.throws(() => new RecentTradeIds(0), /capacity/);
});

test('numericTradeId and the compact tid field agree on what is a number', () => {
  const cases: [string, number][] = [['0', 0], ['42', 42], ['1113244137548134', 1113244137548134],
    ['007', NaN], ['-1', NaN], ['1e5', NaN], ['12a', NaN], ['', NaN],
    ['9007199254740992', NaN], ['9007199254740991', 9007199254740991]];
  for (const [text, want] of cases) {
    assert.equal(numericTradeId(text), want, text);
    const buf = Buffer.from(`${text},x`, 'latin1');
    const stop = tradeIdField(buf, 0, buf.length);
    assert.equal(scan.value, want, `field ${text}`);
    assert.is(stop, text.length);
  }
});

test.run();
