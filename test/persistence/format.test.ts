// Format version: stamped on a new store, forward migrations, refusal of a newer format.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import {
  currentFormatVersion, formatVersionKey, migrate, migrations, readFormatVersion,
  type Migration,
} from '../../persistence/format.js';
import { StoreError } from '../../persistence/errors.js';
import { openStore } from '../../persistence/store.js';
import { openTable } from '../../persistence/table.js';
import { tempDir } from '../helpers/eventually.js';

const clock = new ManualClock(Date.parse('2026-05-01T12:00:00Z'));

async function openError(options: Parameters<typeof openStore>[0]): Promise<StoreError> {
  const error = await openStore(options).then((s) => s.close().then(() => null), (e) => e);
  assert.instance(error, StoreError);
  return error as StoreError;
}

test('a new store is stamped with the current format version', async () => {
  const store = await openStore({ dataDir: await tempDir(), clock });
  assert.is(store.formatVersion, currentFormatVersion);
  assert.is(readFormatVersion(openTable(store.root, 'meta')), currentFormatVersion);
  await store.close();
});

test('a newer format is refused with a clear message and left as it was', async () => {
  const dataDir = await tempDir();
  const store = await openStore({ dataDir, clock });
  await openTable(store.root, 'meta').put(formatVersionKey, currentFormatVersion + 1);
  await store.close();
  const error = await openError({ dataDir, clock });
  assert.is(error.code, 'format_too_new');
  assert.match(error.message, `format version ${currentFormatVersion + 1}, newer than`);
  assert.match(error.message, `expected at most ${currentFormatVersion}`);
  const again = await openError({ dataDir, clock, readOnly: true });
  assert.is(again.code, 'format_too_new');
});

test('forward migrations run in order, once, with the version bump', async () => {
  const store = await openStore({ dataDir: await tempDir(), clock });
  const meta = openTable<unknown, string>(store.root, 'meta');
  const ran: number[] = [];
  const [next, after] = [currentFormatVersion + 1, currentFormatVersion + 2];
  const steps: Migration[] = [
    ...migrations.map((step) => ({ ...step, run: () => ran.push(step.to) })),
    { to: next, describe: 'add a marker', run: () => {
      ran.push(next); meta.putSync('marker', 'two');
    } },
    { to: after, describe: 'change it', run: () => {
      ran.push(after); meta.putSync('marker', 3);
    } },
  ];
  assert.equal(migrate(store.root, meta, store.path, steps), [next, after]);
  assert.equal(ran, [next, after]);
  assert.is(meta.get('marker'), 3);
  assert.is(readFormatVersion(meta), after);
  assert.equal(migrate(store.root, meta, store.path, steps), []);
  assert.throws(() => migrate(store.root, meta, store.path, steps.slice(0, -1)), /newer than/);
  await store.close();
});

test('a read-only open refuses a format that needs migrating; a read-write open migrates it',
  async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir, clock });
    await openTable(store.root, 'meta').put(formatVersionKey, 0);
    await store.close();
    const error = await openError({ dataDir, clock, readOnly: true });
    assert.is(error.code, 'format_too_old');
    const migrated = await openStore({ dataDir, clock });
    assert.is(migrated.formatVersion, currentFormatVersion);
    await migrated.close();
  });

test('a missing data directory is an error unless the caller creates it', async () => {
  const dataDir = `${await tempDir()}/absent`;
  const error = await openError({ dataDir, clock, createDataDir: false });
  assert.is(error.code, 'data_dir_missing');
  assert.match(error.message, dataDir);
  const store = await openStore({ dataDir, clock });
  assert.is(store.path, `${dataDir}/store`);
  await store.close();
});

test.run();
