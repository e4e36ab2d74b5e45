// Stored 5-minute bars per pair, the input of the 4-hour outcomes: batched writes, >= 7 days
// kept. Key [symbol, openMs]; value the bar's numbers in a fixed order.
import type { Database, RootDatabase } from 'lmdb';
import type { Bar } from '../core/messages.js';
import { openTable } from './table.js';
import { createWriteBatch } from './write-batch.js';

export interface BarStoreOptions {
  /** Bars older than this (market time) are pruned; at least 7 days. */
  readonly retentionMs: number;
  /** A batch is written once this many bars wait (and at the end of the event turn anyway). */
  readonly batchBarsMax: number;
  /** Old bars deleted per prune call, so a prune never stalls the writer. */
  readonly pruneBatchMax: number;
}

export const defaultBarStoreOptions: BarStoreOptions = Object.freeze({
  retentionMs: 8 * 86_400_000,
  batchBarsMax: 512,
  pruneBatchMax: 50_000,
});

type Row = [open: number, high: number, low: number, close: number, volume: number,
  buyNotional: number, sellNotional: number, cvdClose: number, trades: number];

export interface BarStore {
  /** Queues a closed 5m bar; written with the others of the same turn in one transaction. */
  add(bar: Bar): void;
  /** Resolves when every bar added so far is committed (and so visible to `range`). */
  flush(): Promise<void>;
  /** Committed bars of a symbol with fromMs <= openMs < toMs, oldest first. */
  range(symbol: string, fromMs: number, toMs: number): Bar[];
  /** Deletes bars that opened before nowMarketMs - retentionMs; returns how many. */
  prune(nowMarketMs: number): Promise<number>;
}

function checkOptions(o: BarStoreOptions): void {
  if (!(o.retentionMs >= 7 * 86_400_000)) {
    throw new TypeError(`bars.retentionMs must be at least 7 days (was ${o.retentionMs})`);
  }
  if (!Number.isInteger(o.batchBarsMax) || o.batchBarsMax < 1) {
    throw new TypeError(`bars.batchBarsMax must be a positive integer (was ${o.batchBarsMax})`);
  }
}

function assertStorable(bar: Bar): void {
  const numbers = [bar.openMs, bar.open, bar.high, bar.low, bar.close, bar.volume,
    bar.buyNotional, bar.sellNotional, bar.cvdClose, bar.trades];
  if (bar.timeframe !== '5m') throw new Error(`only 5m bars are stored (was ${bar.timeframe})`);
  if (!numbers.every(Number.isFinite) || bar.high < bar.low) {
    throw new Error(`corrupt bar ${bar.symbol} ${bar.openMs}`);
  }
}

function toBar(symbol: string, openMs: number, row: Row): Bar {
  if (!Array.isArray(row) || row.length !== 9) throw new Error(`corrupt stored bar ${symbol}`);
  return {
    symbol, timeframe: '5m', openMs, open: row[0], high: row[1], low: row[2], close: row[3],
    volume: row[4], buyNotional: row[5], sellNotional: row[6], cvdClose: row[7], trades: row[8],
  };
}

export function openBarStore(root: RootDatabase, override: Partial<BarStoreOptions> = {}):
  BarStore {
  const options = { ...defaultBarStoreOptions, ...override };
  checkOptions(options);
  const table: Database<Row, [string, number]> = openTable<Row, [string, number]>(root, 'bars5m');
  let lastWrite: Promise<unknown> = Promise.resolve();
  /**
   * Per symbol, the newest bar an earlier process wrote (read at this process's first write): a
   * bar up to it that is on disk keeps its values, as history minutes do (history-minutes.ts).
   */
  const settledMs = new Map<string, number>();
  const settled = (bar: Bar): boolean => {
    let ms = settledMs.get(bar.symbol);
    if (ms === undefined) {
      ms = -Infinity;
      for (const key of table.getKeys({ start: [bar.symbol, Infinity], end: [bar.symbol, -Infinity],
        reverse: true, limit: 1 })) ms = key[1];
      settledMs.set(bar.symbol, ms);
    }
    return bar.openMs <= ms && table.doesExist([bar.symbol, bar.openMs]);
  };
  // Bounded by batchBarsMax: a full batch is written at once, the rest at the end of the turn.
  const batches = createWriteBatch<Bar>(options.batchBarsMax, (batch) => {
    let last: Promise<unknown> | undefined;
    for (const bar of batch) {
      if (settled(bar)) continue;
      last = table.put([bar.symbol, bar.openMs], [bar.open, bar.high, bar.low, bar.close,
        bar.volume, bar.buyNotional, bar.sellNotional, bar.cvdClose, bar.trades]);
    }
    return last;
  });
  return {
    add(bar) {
      assertStorable(bar);
      batches.add(bar);
    },
    async flush() {
      await batches.flush();
      await lastWrite;
    },
    range(symbol, fromMs, toMs) {
      const out: Bar[] = [];
      const rows = table.getRange({ start: [symbol, fromMs], end: [symbol, toMs] });
      for (const { key, value } of rows) {
        out.push(toBar(symbol, key[1], value));
      }
      return out;
    },
    async prune(nowMarketMs) {
      const cutoffMs = nowMarketMs - options.retentionMs;
      let deleted = 0;
      for (const key of table.getKeys({})) {
        if (deleted >= options.pruneBatchMax) break;
        if (key[1] < cutoffMs) {
          lastWrite = table.remove(key);
          deleted += 1;
        }
      }
      await lastWrite;
      return deleted;
    },
  };
}
