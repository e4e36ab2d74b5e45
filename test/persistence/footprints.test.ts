// Stored footprint bars on a real lmdb store in a temp folder: what one process writes, the next
// reads back as it was; each timeframe is pruned at its own retention; corrupt bars are refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import type { FootprintRecord, FootprintTimeframe } from '../../core/footprint.js';
import { FootprintRecorder } from '../../actors/footprint/recorder.js';
import { openFootprintStore } from '../../persistence/footprints.js';
import { openStore } from '../../persistence/store.js';
import { tempDir } from '../helpers/eventually.js';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const DAY = 86_400_000;
const retention = { '5m': 7, '15m': 14, '1h': 30 };

const open = (dir: string) => openStore({ dataDir: dir, clock: new ManualClock(T0),
  watchKeys: false });

function record(symbol: string, timeframe: FootprintTimeframe, openMs: number, k = 1):
  FootprintRecord {
  return {
    symbol, timeframe, openMs, basis: k % 3 === 0 ? 'mixed' : 'trades', tickSize: 0.1,
    levelTicks: 4, firstLevel: 150_000 + k, high: 60_010.5 + k, low: 60_000.1, clippedVolume: 0,
    pocIndex: 1, buy: [0.001 * k, 1.25, 3.999999], sell: [0.5, 0, 1e-8 * k], stacks: [1, 0, 2],
  };
}

test('bars written before a restart are read back, each timeframe on its own', async () => {
  const dir = await tempDir();
  try {
    const written: FootprintRecord[] = [];
    let store = await open(dir);
    const recorder = new FootprintRecorder(store.bulk, retention);
    for (let k = 0; k < 30; k++) written.push(record('BTC', '5m', T0 + k * 300_000, k));
    written.push(record('BTC', '1h', T0, 7), record('ETH', '5m', T0, 8));
    recorder.onOutbound([{ kind: 'bar', symbol: 'BTC', tsMs: T0, data: {} },
      ...written.map((r) => ({ kind: 'footprint' as const, symbol: r.symbol, tsMs: r.openMs,
        data: r as unknown as Record<string, unknown> }))]);
    await recorder.close();
    await store.close();
    store = await open(dir);
    const again = openFootprintStore(store.bulk, { retentionDays: retention });
    const btc5m = again.range('BTC', '5m', 0, Infinity);
    assert.equal(btc5m, written.slice(0, 30));
    assert.equal(again.range('BTC', '5m', T0 + 300_000, T0 + 900_000).map((r) => r.openMs),
      [T0 + 300_000, T0 + 600_000]);
    assert.equal(again.range('BTC', '5m', 0, Infinity, 3), written.slice(27, 30), 'the newest 3');
    assert.equal(again.range('BTC', '1h', 0, Infinity), [written[30]]);
    assert.equal(again.range('ETH', '5m', 0, Infinity), [written[31]]);
    assert.equal(again.range('BTC', '15m', 0, Infinity), []);
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('prune drops each timeframe past its own retention, in market time', async () => {
  const dir = await tempDir();
  try {
    const store = await open(dir);
    const bars = openFootprintStore(store.bulk, { retentionDays: retention, pruneBatchMax: 3 });
    const nowMs = T0 + 40 * DAY;
    for (const symbol of ['BTC', 'ETH']) {
      for (const days of [35, 20, 10, 2]) {
        for (const tf of ['5m', '15m', '1h'] as const) {
          bars.add(record(symbol, tf, nowMs - days * DAY));
        }
      }
    }
    await bars.flush();
    let deleted = 0;
    // A bounded batch per call: called again until nothing is left to drop.
    for (let calls = 0; calls < 20; calls++) {
      const n = await bars.prune(nowMs);
      if (n === 0) break;
      assert.ok(n <= 3);
      deleted += n;
    }
    // Per symbol: 5m keeps 2 (drops 35, 20, 10), 15m keeps 10 and 2, 1h keeps 20, 10, 2.
    assert.is(deleted, 2 * (3 + 2 + 1));
    const days = (symbol: string, tf: FootprintTimeframe) =>
      bars.range(symbol, tf, 0, Infinity).map((r) => (nowMs - r.openMs) / DAY);
    for (const symbol of ['BTC', 'ETH']) {
      assert.equal(days(symbol, '5m'), [2]);
      assert.equal(days(symbol, '15m'), [10, 2]);
      assert.equal(days(symbol, '1h'), [20, 10, 2]);
    }
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a corrupt bar is refused before it is written; bad options name the field', async () => {
  const dir = await tempDir();
  try {
    const store = await open(dir);
    const bars = openFootprintStore(store.bulk);
    assert.throws(() => bars.add({ ...record('BTC', '5m', T0), buy: [NaN, 1, 2] }),
      /corrupt footprint bar BTC 5m/);
    assert.throws(() => bars.add({ ...record('BTC', '5m', T0), sell: [1] }), /corrupt/);
    assert.throws(() => openFootprintStore(store.bulk,
      { retentionDays: { '5m': 0, '15m': 1, '1h': 1 } }), /retentionDays\.5m must be/);
    const before = bars.version();
    bars.add(record('BTC', '5m', T0));
    await bars.flush();
    assert.ok(bars.version() > before, 'a commit changes the version');
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
