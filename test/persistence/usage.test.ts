// Usage counters: memory hot path, write-behind, reload at open, bounds, pruning, corruption.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { openStore, type Store } from '../../persistence/store.js';
import { openTable } from '../../persistence/table.js';
import { WriteBehindUsage, type UsageTable } from '../../persistence/usage.js';
import { tempDir } from '../helpers/eventually.js';

const noonMs = Date.parse('2026-05-20T10:00:00Z');
const today = '2026-05-20';
const usageTable = (store: Store) => openTable(store.root, 'usage') as UsageTable;

test('increment counts per identity and day and returns the new count', async () => {
  const store = await openStore({ dataDir: await tempDir(), clock: new ManualClock(noonMs) });
  assert.is(store.usage.get('key:ofk_00000001', today), 0);
  assert.is(store.usage.increment('key:ofk_00000001', today), 1);
  assert.is(store.usage.increment('key:ofk_00000001', today), 2);
  assert.is(store.usage.increment('ip:10.0.0.1', today), 1);
  assert.is(store.usage.increment('key:ofk_00000001', '2026-05-21'), 1);
  assert.is(store.usage.get('key:ofk_00000001', today), 2);
  await store.close();
});

test('the write-behind pass puts counts on disk without a close', async () => {
  const store = await openStore({ dataDir: await tempDir(), clock: new ManualClock(noonMs) });
  for (let i = 0; i < 7; i++) store.usage.increment('ip:10.0.0.2', today);
  assert.is(usageTable(store).get([today, 'ip:10.0.0.2']), undefined, 'nothing written yet');
  await store.usage.whenFlushed();
  assert.is(usageTable(store).get([today, 'ip:10.0.0.2']), 7);
  await store.close();
});

test('close flushes; the next open loads today and yesterday', async () => {
  const dataDir = await tempDir();
  const first = await openStore({ dataDir, clock: new ManualClock(noonMs) });
  first.usage.increment('key:ofk_00000002', today);
  first.usage.increment('key:ofk_00000002', '2026-05-19');
  first.usage.increment('key:ofk_00000002', '2026-05-15');
  await first.close();
  const second = await openStore({ dataDir, clock: new ManualClock(noonMs) });
  assert.is(second.usage.stats().counters, 2, 'today and yesterday preloaded, not older days');
  assert.is(second.usage.get('key:ofk_00000002', today), 1);
  assert.is(second.usage.get('key:ofk_00000002', '2026-05-15'), 1, 'older days read on demand');
  assert.is(second.usage.increment('key:ofk_00000002', today), 2);
  await second.close();
});

test('days before yesterday leave memory once written and come back from disk', async () => {
  const clock = new ManualClock(noonMs);
  const store = await openStore({ dataDir: await tempDir(), clock });
  store.usage.increment('ip:10.0.0.3', '2026-05-16');
  store.usage.increment('ip:10.0.0.3', today);
  await store.usage.flush();
  assert.is(store.usage.stats().counters, 1);
  assert.is(store.usage.stats().ipCounters, 1);
  assert.is(store.usage.increment('ip:10.0.0.3', '2026-05-16'), 2);
  await store.close();
});

test('new IPs past the bound read as exhausted; keys are always counted', async () => {
  const store = await openStore({ dataDir: await tempDir(), clock: new ManualClock(noonMs) });
  const usage = new WriteBehindUsage(usageTable(store), new ManualClock(noonMs), silentLogger, 2);
  assert.is(usage.increment('ip:1', today), 1);
  assert.is(usage.increment('ip:2', today), 1);
  assert.is(usage.increment('ip:3', today), Number.MAX_SAFE_INTEGER);
  assert.is(usage.get('ip:3', today), Number.MAX_SAFE_INTEGER);
  assert.is(usage.increment('ip:1', today), 2, 'known IPs keep counting');
  assert.is(usage.increment('key:ofk_00000003', today), 1);
  assert.is(usage.stats().refusedTotal, 2);
  await usage.close();
  await store.close();
});

test('rows older than 31 Rome days are pruned (Usage shows 30); newer ones stay', async () => {
  const store = await openStore({ dataDir: await tempDir(), clock: new ManualClock(noonMs) });
  const table = usageTable(store);
  await table.put(['2026-04-17', 'ip:old'], 5);
  await table.put(['2026-04-18', 'ip:old'], 6);
  await table.put(['2026-04-19', 'ip:kept'], 7);
  store.usage.increment('ip:new', today);
  await store.usage.flush();
  assert.is(table.get(['2026-04-17', 'ip:old']), undefined);
  assert.is(table.get(['2026-04-18', 'ip:old']), undefined);
  assert.is(table.get(['2026-04-19', 'ip:kept']), 7);
  assert.is(table.get([today, 'ip:new']), 1);
  await store.close();
});

test('a corrupt stored count crashes instead of being trusted', async () => {
  const store = await openStore({ dataDir: await tempDir(), clock: new ManualClock(noonMs) });
  await usageTable(store).put([today, 'ip:bad'], -4);
  assert.throws(() => store.usage.get('ip:bad', today), /corrupt usage count -4/);
  await store.close();
});

test('a failed write-behind pass keeps its waiters until a pass succeeds', async () => {
  const written = new Map<string, number>();
  // Two failures: the pass whenFlushed() starts itself (no timer here) and the next one.
  let failuresLeft = 2;
  const fake = {
    get: () => undefined,
    getKeys: () => [],
    put: async (key: [string, string], value: number) => {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('disk full');
      }
      written.set(key.join('|'), value);
      return true;
    },
  } as unknown as UsageTable;
  const usage = new WriteBehindUsage(fake, new ManualClock(noonMs), silentLogger);
  usage.increment('ip:9', today);
  let acknowledged = false;
  const waiting = usage.whenFlushed().then(() => (acknowledged = true));
  await usage.flush();
  assert.not.ok(acknowledged, 'acknowledged after a failed pass');
  assert.is(usage.stats().dirty, 1, 'the counter is written again');
  await usage.flush();
  await waiting;
  assert.is(written.get(`${today}|ip:9`), 1);
  await usage.close();
});

test.run();
