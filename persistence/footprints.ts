// Stored footprint bars per pair and timeframe (docs/footprint.md, "Store"): batched writes,
// each timeframe kept for its own retention in market time, pruned like the 5m bars.
// Key [symbol, timeframe, openMs]; value the bar's numbers in a fixed order, levels as
// Float64Array (8 bytes a number, msgpackr moreTypes).
import type { Database, RootDatabase } from 'lmdb';
import {
  FOOTPRINT_TIMEFRAMES, type FootprintBasisName, type FootprintRecord, type FootprintTimeframe,
} from '../core/footprint.js';
import { openTable } from './table.js';
import { createWriteBatch } from './write-batch.js';

const DAY_MS = 86_400_000;

export interface FootprintStoreOptions {
  /** Days each timeframe is kept (market time). */
  readonly retentionDays: Readonly<Record<FootprintTimeframe, number>>;
  /** A batch is written once this many bars wait (and at the end of the event turn anyway). */
  readonly batchBarsMax: number;
  /** Old bars deleted per prune call, so a prune never stalls the writer. */
  readonly pruneBatchMax: number;
}

export const defaultFootprintStoreOptions: FootprintStoreOptions = Object.freeze({
  retentionDays: Object.freeze({ '5m': 7, '15m': 14, '1h': 30 }),
  batchBarsMax: 512,
  pruneBatchMax: 50_000,
});

const BASES: readonly FootprintBasisName[] = ['trades', 'candles', 'mixed'];

type Row = [basis: number, tickSize: number, levelTicks: number, firstLevel: number,
  high: number, low: number, clippedVolume: number, pocIndex: number, buy: Float64Array,
  sell: Float64Array, stacks: Int32Array];

export interface FootprintStore {
  /** Queues a closed bar; written with the others of the same turn in one transaction. */
  add(record: FootprintRecord): void;
  /** Resolves when every bar added so far is committed (and so visible to the reads). */
  flush(): Promise<void>;
  /** Committed bars with fromMs <= openMs < toMs, oldest first, at most `limit`, the newest. */
  range(symbol: string, timeframe: FootprintTimeframe, fromMs: number, toMs: number,
    limit?: number): FootprintRecord[];
  /** Changes whenever a batch commits: part of the answers' ETags. */
  version(): number;
  readonly retentionDays: Readonly<Record<FootprintTimeframe, number>>;
  /** Deletes each timeframe's bars older than its retention before nowMarketMs; how many. */
  prune(nowMarketMs: number): Promise<number>;
}

function checkOptions(o: FootprintStoreOptions): void {
  for (const tf of FOOTPRINT_TIMEFRAMES) {
    const days = o.retentionDays[tf];
    if (!Number.isInteger(days) || days < 1 || days > 3_650) {
      throw new TypeError(`footprints.retentionDays.${tf} must be an integer from 1 to 3650 ` +
        `(was ${days})`);
    }
  }
  if (!Number.isInteger(o.batchBarsMax) || o.batchBarsMax < 1) {
    throw new TypeError('footprints.batchBarsMax must be a positive integer ' +
      `(was ${o.batchBarsMax})`);
  }
}

function assertStorable(r: FootprintRecord): void {
  const numbers = [r.openMs, r.tickSize, r.levelTicks, r.firstLevel, r.clippedVolume, r.pocIndex];
  if (!FOOTPRINT_TIMEFRAMES.includes(r.timeframe) || !BASES.includes(r.basis) ||
    !numbers.every(Number.isFinite) || r.buy.length !== r.sell.length ||
    !r.buy.every(Number.isFinite) || !r.sell.every(Number.isFinite) || r.stacks.length % 3 !== 0) {
    throw new Error(`corrupt footprint bar ${r.symbol} ${r.timeframe} ${r.openMs}`);
  }
}

function rowOf(r: FootprintRecord): Row {
  return [BASES.indexOf(r.basis), r.tickSize, r.levelTicks, r.firstLevel, r.high, r.low,
    r.clippedVolume, r.pocIndex, Float64Array.from(r.buy), Float64Array.from(r.sell),
    Int32Array.from(r.stacks)];
}

function recordOf(symbol: string, timeframe: FootprintTimeframe, openMs: number, row: Row):
  FootprintRecord {
  if (!Array.isArray(row) || row.length !== 11 || !(row[8] instanceof Float64Array) ||
    !(row[9] instanceof Float64Array) || !(row[10] instanceof Int32Array) ||
    BASES[row[0]] === undefined) {
    throw new Error(`corrupt stored footprint bar ${symbol} ${timeframe} ${openMs}`);
  }
  return {
    symbol, timeframe, openMs, basis: BASES[row[0]], tickSize: row[1], levelTicks: row[2],
    firstLevel: row[3], high: row[4], low: row[5], clippedVolume: row[6], pocIndex: row[7],
    buy: Array.from(row[8]), sell: Array.from(row[9]), stacks: Array.from(row[10]),
  };
}

type Key = [string, string, number];

export function openFootprintStore(root: RootDatabase,
  override: Partial<FootprintStoreOptions> = {}): FootprintStore {
  const options = { ...defaultFootprintStoreOptions, ...override };
  checkOptions(options);
  const table: Database<Row, Key> = openTable<Row, Key>(root, 'footprints');
  let committed = 0;
  let lastRemove: Promise<unknown> = Promise.resolve();
  const batches = createWriteBatch<FootprintRecord>(options.batchBarsMax, (batch) => {
    let last: Promise<unknown> = Promise.resolve();
    for (const r of batch) last = table.put([r.symbol, r.timeframe, r.openMs], rowOf(r));
    return last.then(() => { committed += 1; });
  });
  return {
    add(record) {
      assertStorable(record);
      batches.add(record);
    },
    flush: () => batches.flush(),
    range(symbol, timeframe, fromMs, toMs, limit = Infinity) {
      const out: FootprintRecord[] = [];
      // Newest first with the limit, then put in time order. A reverse range excludes its end:
      // it ends a millisecond before fromMs (open times are whole milliseconds).
      const rows = table.getRange({ start: [symbol, timeframe, toMs],
        end: [symbol, timeframe, fromMs - 1], reverse: true, limit });
      for (const { key, value } of rows) {
        if (key[2] >= toMs) continue;
        out.push(recordOf(symbol, timeframe, key[2], value));
      }
      return out.reverse();
    },
    version: () => committed,
    retentionDays: options.retentionDays,
    async prune(nowMarketMs) {
      let deleted = 0;
      // One group (symbol, timeframe) at a time: its old bars are the first keys of the group.
      let start: Key | undefined;
      while (deleted < options.pruneBatchMax) {
        let group: Key | undefined;
        for (const key of table.getKeys({ start, limit: 1 })) group = key;
        if (group === undefined) break;
        const [symbol, timeframe] = group;
        const days = options.retentionDays[timeframe as FootprintTimeframe] ?? 0;
        const cutoffMs = nowMarketMs - days * DAY_MS;
        for (const key of table.getKeys({ start: [symbol, timeframe, -Infinity],
          end: [symbol, timeframe, cutoffMs], limit: options.pruneBatchMax - deleted })) {
          lastRemove = table.remove(key);
          deleted += 1;
        }
        start = [symbol, timeframe, Infinity];
      }
      await lastRemove;
      return deleted;
    },
  };
}
