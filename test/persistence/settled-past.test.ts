// The settled past on a real lmdb store: a restart after kill -9 generates the time since its
// pair's last save again, and the minutes and 5-minute bars an earlier process wrote keep their
// values; the new process writes what is new, and rewrites only what it wrote itself.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import type { Bar } from '../../core/messages.js';
import { openBarStore } from '../../persistence/bars.js';
import { openHistoryStore } from '../../persistence/history.js';
import { openStore } from '../../persistence/store.js';
import { tempDir } from '../helpers/eventually.js';
import { minutePoint } from '../helpers/history-points.js';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const MIN = 60_000;
const FIVE_MIN = 300_000;

const open = (dir: string) => openStore({ dataDir: dir, clock: new ManualClock(T0),
  watchKeys: false });

/** One process's life on the store in `dir`: opened, `run`, flushed by `run`, closed. */
async function life(dir: string, run: (root: Awaited<ReturnType<typeof open>>['root']) =>
  Promise<void>): Promise<void> {
  const store = await open(dir);
  try {
    await run(store.root);
  } finally {
    await store.close();
  }
}

test('minutes written by an earlier process keep their values; new ones are written', async () => {
  const dir = await tempDir();
  try {
    await life(dir, async (root) => {
      const history = openHistoryStore(root);
      history.add([0, 1, 2, 3].map((i) => minutePoint('BTC', i)));
      await history.flush();
    });
    await life(dir, async (root) => {
      const history = openHistoryStore(root);
      // The restart's run from the last save: minutes 2-3 again, other values, then 4-5.
      const again = [2, 3, 4, 5].map((i) => ({ ...minutePoint('BTC', i), cvd: -1, volume: 7 }));
      history.add(again);
      await history.flush();
      // Its own minute 5 closes once more (the same process): that write stands.
      history.add([{ ...minutePoint('BTC', 5), cvd: -2, volume: 8 }]);
      await history.flush();
      const points = history.minutes('BTC', T0, T0 + 10 * MIN);
      assert.equal(points.map((p) => p.cvd), [0, 10, 20, 30, -1, -2]);
      assert.equal(points.map((p) => p.volume), [1000, 1001, 1002, 1003, 7, 8]);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

function bar(symbol: string, i: number, cvdClose: number): Bar {
  return { symbol, timeframe: '5m', openMs: T0 + i * FIVE_MIN, open: 100, high: 101, low: 99,
    close: 100.5, volume: 10, buyNotional: 600, sellNotional: 400, cvdClose, trades: 3 };
}

test('5-minute bars written by an earlier process keep their values', async () => {
  const dir = await tempDir();
  try {
    await life(dir, async (root) => {
      const bars = openBarStore(root);
      for (const i of [0, 1, 2]) bars.add(bar('ETH', i, i));
      await bars.flush();
    });
    await life(dir, async (root) => {
      const bars = openBarStore(root);
      for (const i of [1, 2, 3]) bars.add(bar('ETH', i, -i));
      // A pair the earlier process never wrote is written whole.
      bars.add(bar('SOL', 0, -5));
      await bars.flush();
      assert.equal(bars.range('ETH', T0, T0 + 10 * FIVE_MIN).map((b) => b.cvdClose),
        [0, 1, 2, -3]);
      assert.equal(bars.range('SOL', T0, T0 + FIVE_MIN).map((b) => b.cvdClose), [-5]);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
