// Opening the store: malformed layouts are refused with a message, never a crash of lmdb.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { StoreError } from '../../persistence/errors.js';
import { openStore } from '../../persistence/store.js';
import { storeLimits } from '../../persistence/limits.js';
import { openTable } from '../../persistence/table.js';
import { tempDir } from '../helpers/eventually.js';

const clock = new ManualClock(Date.parse('2026-05-01T12:00:00Z'));

async function refusal(dataDir: string): Promise<StoreError> {
  const error = await openStore({ dataDir, clock })
    .then((store) => store.close().then(() => null), (e: unknown) => e);
  assert.instance(error, StoreError);
  return error as StoreError;
}

test('a file where the store directory belongs is refused', async () => {
  const dataDir = await tempDir();
  writeFileSync(`${dataDir}/store`, 'x');
  assert.match((await refusal(dataDir)).message, 'expected a directory (was a file)');
});

test('a directory where lmdb keeps its lock file is refused', async () => {
  const dataDir = await tempDir();
  mkdirSync(`${dataDir}/store/lock.mdb`, { recursive: true });
  assert.match((await refusal(dataDir)).message, 'expected lock.mdb to be a file');
});

test('a data file that is not lmdb is refused', async () => {
  const dataDir = await tempDir();
  mkdirSync(`${dataDir}/store`);
  writeFileSync(`${dataDir}/store/data.mdb`, new Uint8Array(8_192).fill(7));
  const error = await refusal(dataDir);
  assert.is(error.code, 'open_failed');
  assert.match(error.message, 'expected an lmdb data file');
});

test('a data directory that is a file is refused', async () => {
  const dataDir = `${await tempDir()}/file`;
  writeFileSync(dataDir, 'x');
  assert.is((await refusal(dataDir)).code, 'data_dir_missing');
});

test('close is idempotent and flushes usage', async () => {
  const dataDir = await tempDir();
  const store = await openStore({ dataDir, clock });
  store.usage.increment('ip:1', '2026-05-01');
  await Promise.all([store.close(), store.close()]);
  const again = await openStore({ dataDir, clock, readOnly: true });
  assert.is(again.usage.get('ip:1', '2026-05-01'), 1);
  await again.close();
});

test('the data file is mapped once however it grows, and takes only its data on disk', async () => {
  const dataDir = await tempDir();
  const store = await openStore({ dataDir, clock });
  const table = openTable<Uint8Array>(store.root, 'grow');
  // ~8 MB: lmdb-js's own default map (128 KiB, doubled as the file grows) would be remapped
  // ~6 times, each old map keeping its resident pages (counted again in the RSS).
  for (let batch = 0; batch < 8; batch++) {
    await store.root.transaction(() => {
      for (let i = 0; i < 256; i++) table.put(`k${batch}-${i}`, new Uint8Array(4_000).fill(i));
    });
  }
  for (let batch = 0; batch < 8; batch++) table.get(`k${batch}-7`);
  const file = `${store.path}/data.mdb`;
  assert.ok(statSync(file).size < 64 * 1024 ** 2, `data.mdb is ${statSync(file).size} bytes`);
  if (existsSync('/proc/self/maps')) {
    const maps = readFileSync('/proc/self/maps', 'utf8').split('\n')
      .filter((line) => line.endsWith(file));
    assert.is(maps.length, 1, maps.join('\n'));
  }
  assert.is((store.root as unknown as { getStats(): { mapSize: number } }).getStats().mapSize,
    storeLimits.mapBytes);
  await store.close();
});

test.run();
