// Saved pair state (docs/decisions.md, Warm start): one record per tracked pair, the engine's
// encoded state (actors/shard/pair-state.ts, opaque here) with the service time it was saved.
// Written every 60 s and at a graceful stop; read at start, before each pair's first publish.
import type { Database, RootDatabase } from 'lmdb';
import type { Clock } from '../core/clock.js';
import { openTable } from './table.js';

interface Row {
  readonly savedAtMs: number;
  readonly bytes: Uint8Array;
}

export interface SavedPairState {
  readonly symbol: string;
  readonly bytes: Uint8Array;
}

export class PairStateStore {
  private readonly table: Database<Row, string>;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(root: RootDatabase, private readonly clock: Clock) {
    this.table = openTable<Row, string>(root, 'pairStates');
  }

  /** Writes the states in one transaction (a pair's newer record replaces its older one). */
  save(states: readonly SavedPairState[]): Promise<void> {
    if (states.length === 0) return this.writing.then(() => {});
    const savedAtMs = this.clock.nowMs();
    const done = this.table.transaction(() => {
      for (const s of states) void this.table.put(s.symbol, { savedAtMs, bytes: s.bytes });
    });
    this.writing = Promise.all([this.writing, done]);
    return done.then(() => {});
  }

  /** The saved states of `symbols` that have one (a corrupt row reads as none). */
  load(symbols: readonly string[]): Record<string, Uint8Array> {
    const out: Record<string, Uint8Array> = {};
    for (const symbol of symbols) {
      const row = this.table.get(symbol);
      if (row && row.bytes instanceof Uint8Array) out[symbol] = row.bytes;
    }
    return out;
  }

  /** When the symbol's state was saved (service time), undefined when it has none. */
  savedAtMs(symbol: string): number | undefined {
    return this.table.get(symbol)?.savedAtMs;
  }

  /** Resolves when every save so far is committed. */
  flush(): Promise<void> {
    return this.writing.then(() => {});
  }
}
