// The bulk environment (store-bulk) on real lmdb in temp folders: reads see every write while it
// is closed and reopened under them; a store of format 1 keeps every row of the moved tables;
// a backup holds both environments and serves as a data directory.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { createLogger } from '../../core/logger.js';
import { FootprintRecorder } from '../../actors/footprint/recorder.js';
import type { FootprintRecord } from '../../core/footprint.js';
import { backupStore } from '../../persistence/backup.js';
import { bulkTableNames } from '../../persistence/bulk-tables.js';
import { formatVersionKey, readFormatVersion } from '../../persistence/format.js';
import { openFootprintStore } from '../../persistence/footprints.js';
import { openHistoryStore } from '../../persistence/history.js';
import { ReopeningEnvironment } from '../../persistence/reopening-environment.js';
import { openEnvironment, openStore } from '../../persistence/store.js';
import { openTable } from '../../persistence/table.js';
import { tempDir } from '../helpers/eventually.js';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const MINUTE = 60_000;
const clock = new ManualClock(T0);
const open = (dataDir: string, readOnly = false) =>
  openStore({ dataDir, clock, watchKeys: false, readOnly });

function footprint(symbol: string, openMs: number, k: number): FootprintRecord {
  return {
    symbol, timeframe: '5m', openMs, basis: 'trades', tickSize: 0.1, levelTicks: 4,
    firstLevel: 150_000 + k, high: 60_010.5 + k, low: 60_000.1, clippedVolume: 0, pocIndex: 1,
    buy: [0.001 * k, 1.25], sell: [0.5, 1e-8 * k], stacks: [],
  };
}

/** Resident kB of the process's maps of `file` (/proc/self/smaps). */
function residentKb(file: string): number {
  let on = false;
  let kb = 0;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) on = line.endsWith(file);
    else if (on && line.startsWith('Rss:')) kb += Number(/(\d+)/.exec(line)![1]);
  }
  return kb;
}

test('reads see every write while the environment is reopened under them', async () => {
  const dir = await tempDir();
  const env = new ReopeningEnvironment(() => openEnvironment(dir, false), { writesPerReopen: 7 });
  const rows = openTable<number[], [string, number]>(env.root, 'rows');
  const written = new Map<number, number[]>();
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < 400; i++) {
    written.set(i, [i, i * 2]);
    pending.push(rows.put(['S', i], [i, i * 2]));
    // Every few writes a turn passes, and everything committed so far must read back.
    if (i % 13 === 12) {
      await Promise.all(pending);
      for (let k = 0; k <= i; k++) assert.equal(rows.get(['S', k]), written.get(k), `row ${k}`);
    }
  }
  await Promise.all(pending);
  await env.settled();
  assert.ok(env.reopens >= 10, `reopened ${env.reopens} times`);
  const all = [...rows.getRange({ start: ['S', 0], end: ['S', Infinity] })];
  assert.is(all.length, 400);
  // A transaction's writes stay in it, reopen or not.
  await env.root.transaction(() => {
    void rows.put(['T', 1], [1]);
    void rows.remove(['S', 0]);
  });
  await env.settled();
  assert.equal(rows.get(['T', 1]), [1]);
  assert.is(rows.get(['S', 0]), undefined);
  await env.close();
  await env.close();
  assert.throws(() => rows.get(['S', 1]), /closed/);
});

test('a reopen unmaps what the writes made resident', async () => {
  // The service's layout: rows keyed [symbol, time], one row a symbol in each transaction.
  const value = new Array(80).fill(1.5);
  const fill = async (writesPerReopen: number) => {
    const dir = await tempDir();
    const env = new ReopeningEnvironment(() => openEnvironment(dir, false), { writesPerReopen });
    const rows = openTable<number[], [string, number]>(env.root, 'rows');
    let peakKb = 0;
    for (let round = 0; round < 400; round++) {
      let last: Promise<unknown> = Promise.resolve();
      for (let s = 0; s < 100; s++) last = rows.put([`S${s}`, round], value);
      await last;
      if (round % 20 === 19) peakKb = Math.max(peakKb, residentKb(join(dir, 'data.mdb')));
    }
    await env.close();
    return peakKb;
  };
  const never = await fill(1_000_000);
  const often = await fill(5_000);
  assert.ok(never > 10_000, `the writes map pages (${never} kB)`);
  assert.ok(often < never / 2, `resident peak ${often} kB reopening, ${never} kB never`);
});

test('a store of format 1 keeps every row of the tables moved to store-bulk', async () => {
  const dir = await tempDir();
  let store = await open(dir);
  // A store as format 1 left it: the bulk tables in the main environment.
  openTable(store.root, 'meta').putSync(formatVersionKey, 1);
  const oldFootprints = openFootprintStore(store.root);
  const oldHistory = openHistoryStore(store.root);
  const footprints = Array.from({ length: 50 }, (_, k) => footprint(k % 2 ? 'ETH' : 'BTC',
    T0 + k * 300_000, k));
  for (const r of footprints) oldFootprints.add(r);
  const points = Array.from({ length: 150 }, (_, k) => ({ symbol: 'BTC', tMs: T0 + k * MINUTE,
    close: 60_000 + k, volume: 10 + k, regime: null }));
  oldHistory.add(points as never);
  await oldFootprints.flush();
  await oldHistory.flush();
  await openTable(store.root, 'pairStates').put('BTC', { savedAtMs: 1, bytes: Buffer.from('x') });
  const bar = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  await openTable<number[], [string, number]>(store.root, 'bars5m').put(['BTC', T0], bar);
  await openTable(store.root, 'signals').put('s1', { symbol: 'BTC', score: 40 });
  await store.close();

  store = await open(dir);
  assert.is(store.formatVersion, 2);
  assert.is(readFormatVersion(openTable(store.root, 'meta')), 2);
  const moved = openFootprintStore(store.bulk);
  assert.equal(moved.range('BTC', '5m', 0, Infinity), footprints.filter((r) => r.symbol === 'BTC'));
  assert.equal(moved.range('ETH', '5m', 0, Infinity), footprints.filter((r) => r.symbol === 'ETH'));
  const history = openHistoryStore(store.bulk);
  const read = history.minutes('BTC', 0, Infinity);
  assert.is(read.length, 150);
  assert.equal(read.map((p) => p.tMs), points.map((p) => p.tMs));
  assert.equal(read.map((p) => p.close), points.map((p) => p.close));
  assert.ok(history.hours('BTC', 0, Infinity).length >= 2);
  assert.equal(openTable<number[], [string, number]>(store.bulk, 'bars5m').get(['BTC', T0]), bar);
  assert.equal(openTable<{ bytes: Uint8Array }>(store.bulk, 'pairStates').get('BTC')?.bytes,
    Buffer.from('x'));
  assert.equal(openTable(store.bulk, 'signals').get('s1'), { symbol: 'BTC', score: 40 });
  // Gone from the main environment: one copy of each row.
  for (const name of bulkTableNames) {
    assert.is([...openTable(store.root, name).getKeys({})].length, 0, name);
  }
  await store.close();
});

test('a backup holds both environments and opens as a data directory', async () => {
  const dir = await tempDir();
  const out = join(await tempDir(), 'backup');
  const store = await open(dir);
  await store.keys.create({ plan: 'Whale', label: 'backup test' });
  const recorder = new FootprintRecorder(store.bulk, { '5m': 7, '15m': 14, '1h': 30 });
  const written = [footprint('BTC', T0, 1), footprint('BTC', T0 + 300_000, 2)];
  recorder.onOutbound(written.map((r) => ({ kind: 'footprint' as const, symbol: r.symbol,
    tsMs: r.openMs, data: r as unknown as Record<string, unknown> })));
  await recorder.close();
  const result = await backupStore(store, out, clock);
  await store.close();
  assert.is(result.formatVersion, 2);
  const copy = await open(out, true);
  assert.equal(openFootprintStore(copy.bulk).range('BTC', '5m', 0, Infinity), written);
  assert.equal(copy.keys.list().map((k) => k.label), ['backup test']);
  await copy.close();
  // Served as a data directory (restore step 3): read-write, nothing to migrate.
  const served = await open(out);
  assert.equal(openFootprintStore(served.bulk).range('BTC', '5m', 0, Infinity), written);
  await served.close();
});

test('a store of format 2 without its store-bulk opens empty and says so', async () => {
  const dir = await tempDir();
  const lines: string[] = [];
  const logger = createLogger({ level: 'warn', json: true, write: (line) => lines.push(line) });
  const fresh = await openStore({ dataDir: dir, clock, watchKeys: false, logger });
  await fresh.close();
  assert.equal(lines, [], 'a new data directory is no warning');
  rmSync(join(dir, 'store-bulk'), { recursive: true });
  const copied = await openStore({ dataDir: dir, clock, watchKeys: false, logger });
  await copied.close();
  assert.is(lines.length, 1, lines.join('\n'));
  const line = JSON.parse(lines[0]) as { level: string; msg: string; path: string };
  assert.is(line.level, 'warn');
  assert.match(line.msg, /the bulk store is missing/);
  assert.is(line.path, join(dir, 'store-bulk'));
});

test('the store counts the bulk environment\'s reopens', async () => {
  const store = await open(await tempDir());
  const rows = openTable<number, number>(store.bulk, 'rows');
  const before = store.bulkReopens();
  for (let i = 0; i < 1_200; i++) await rows.put(i, i);
  await store.flush();
  assert.ok(store.bulkReopens() - before >= 2, `${store.bulkReopens() - before} reopens`);
  await store.close();
});

test.run();
