// The bulk environment, `<dataDir>/store-bulk`: the large, write-heavy, rarely-read tables,
// apart from the main store so it can be closed and reopened after its writes and its pages
// leave the resident set (docs/store.md, "Two environments").
import type { Key, RootDatabase } from 'lmdb';

/** The tables that live in the bulk environment (format 2 on). */
export const bulkTableNames: readonly string[] = Object.freeze([
  'footprints', 'history-1m', 'history-1h', 'bars5m', 'pairStates', 'signals', 'signal-due',
]);

/** Rows copied per bulk transaction while moving, so a large store is not one huge commit. */
const moveRowsPerTransaction = 20_000;

/**
 * Moves every row of the bulk tables from the main environment to the bulk one, as bytes
 * (keys and values unchanged), then drops them from the main one. Runs inside the main
 * environment's migration transaction: the copies commit first, so a crash before the main
 * commit leaves the rows in both and the step runs again, putting the same rows once more.
 */
export function moveTables(main: RootDatabase, bulk: RootDatabase): void {
  for (const name of bulkTableNames) {
    const from = main.openDB<Buffer, Key>({ name, encoding: 'binary' });
    const to = bulk.openDB<Buffer, Key>({ name, encoding: 'binary' });
    let rows: { key: Key; value: Buffer }[] = [];
    const copy = () => {
      bulk.transactionSync(() => {
        for (const row of rows) to.putSync(row.key, row.value);
      });
      rows = [];
    };
    for (const { key, value } of from.getRange({})) {
      // The value's bytes live in the map only until the read transaction moves on.
      rows.push({ key, value: Buffer.from(value) });
      if (rows.length >= moveRowsPerTransaction) copy();
    }
    if (rows.length > 0) copy();
    from.dropSync();
  }
}
