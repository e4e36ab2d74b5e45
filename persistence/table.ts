// Named tables inside the one lmdb environment, all encoded with msgpackr `moreTypes: true`
// (without it msgpackr silently corrupts Float64Array).
import type { Database, RootDatabase } from 'lmdb';
import { Packr } from 'msgpackr';

/** A fresh encoder instance: lmdb only honours moreTypes when handed an instance. */
export function storeEncoder(): Packr {
  return new Packr({ moreTypes: true });
}

/** Opens (creating if needed) the named table of the environment. */
export function openTable<V = unknown, K extends string | number | (string | number)[] = string>(
  root: RootDatabase,
  name: string,
): Database<V, K> {
  // lmdb's typings do not list an encoder instance; its runtime accepts one.
  const options = { name, encoder: storeEncoder() } as unknown as { name: string };
  return root.openDB<V, K>(options);
}
