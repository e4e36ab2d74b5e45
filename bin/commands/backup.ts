// `orderflow backup --out DIR`: a consistent copy of the store while the server runs; the copy
// is a data directory of its own (restore: docs/store.md).
import { systemClock } from '../../core/clock.js';
import { backupStore } from '../../persistence/backup.js';
import { openStore } from '../../persistence/store.js';
import type { Command, CommandIo } from '../cli.js';
import { dataDirOf, parseOptions, UsageError } from '../cli.js';

const usage = `usage: orderflow backup --out DIR [--data-dir D] [--json]

Copies the store of the data directory (default: ORDERFLOW_DATA_DIR, else ./data) into
DIR/store and DIR/store-bulk, compacted, each from one consistent snapshot; the server may keep
running. DIR must be new or empty. DIR is then a data directory: restore by stopping the server
and serving DIR (or moving DIR/store and DIR/store-bulk into place). See docs/store.md.
`;

async function run(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    out: { type: 'string' }, 'data-dir': { type: 'string' }, json: { type: 'boolean' },
  }, true);
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (values.out === undefined || values.out === '') {
    throw new UsageError('--out DIR is required (a new or empty directory)');
  }
  const store = await openStore({
    dataDir: dataDirOf(values['data-dir'], io), clock: systemClock,
    createDataDir: false, createStore: false, watchKeys: false,
  });
  try {
    const result = await backupStore(store, values.out, systemClock);
    if (values.json) io.stdout(JSON.stringify(result) + '\n');
    else io.stdout(`backed up to ${result.path} (format ${result.formatVersion}, ` +
      `${result.keys} keys)\n`);
    return 0;
  } finally {
    await store.close();
  }
}

export const command: Command = {
  name: 'backup',
  summary: 'copy the data directory consistently while the server runs',
  usage,
  run,
};
