// The simulator's anchor (actors/feed/sim/fundamental.ts): the market time at which a data
// dir's simulated prices started from their references. Written once, at the dir's first
// simulated start, and read at every later one, so a warm start continues the same price path.
import type { RootDatabase } from 'lmdb';
import { openTable } from './table.js';

const KEY = 'anchorMs';

/** The dir's anchor; `firstMs` (saved) when it has none yet or the saved one is unreadable. */
export function simAnchorMs(root: RootDatabase, firstMs: number): number {
  const table = openTable<number, string>(root, 'simAnchor');
  const saved = table.get(KEY);
  if (typeof saved === 'number' && Number.isFinite(saved)) return saved;
  table.putSync(KEY, firstMs);
  return firstMs;
}
