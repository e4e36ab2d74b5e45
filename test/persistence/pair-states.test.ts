// Saved pair states in the real lmdb store: one record per pair, the newest wins, they survive a
// close and reopen, and a pair without one (or with a corrupt row) reads as none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { openStore } from '../../persistence/store.js';
import { openTable } from '../../persistence/table.js';
import { PairStateStore } from '../../persistence/pair-states.js';
import { tempDir } from '../helpers/eventually.js';

test('states are saved per pair, replaced by newer ones, read back after a reopen', async () => {
  const dataDir = await tempDir();
  const clock = new ManualClock(5_000);
  let store = await openStore({ dataDir, clock, watchKeys: false });
  const states = new PairStateStore(store.bulk, clock);
  await states.save([{ symbol: 'BTC', bytes: new Uint8Array([1, 2, 3]) },
    { symbol: 'ETH', bytes: new Uint8Array([4]) }]);
  clock.advance(60_000);
  void states.save([{ symbol: 'BTC', bytes: new Uint8Array([9, 9]) }]);
  await states.flush();
  openTable(store.bulk, 'pairStates').putSync('BAD', { savedAtMs: 1, bytes: 'not bytes' });
  await store.close();
  store = await openStore({ dataDir, clock, watchKeys: false });
  try {
    const reopened = new PairStateStore(store.bulk, clock);
    const loaded = reopened.load(['BTC', 'ETH', 'SOL', 'BAD']);
    assert.equal(Object.keys(loaded).sort(), ['BTC', 'ETH']);
    assert.equal([...loaded.BTC], [9, 9]);
    assert.equal([...loaded.ETH], [4]);
    assert.is(reopened.savedAtMs('BTC'), 65_000);
    assert.is(reopened.savedAtMs('SOL'), undefined);
  } finally {
    await store.close();
  }
});

test.run();
