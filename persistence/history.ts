// Recorded history of the tracked pairs (docs/decisions.md "History"): 1-minute points written in
// batches, rolled up to 1-hour points once their hour is over, both trimmed to their retention
// in the background. Table 'history-1m' holds one row per symbol and hour of minute slots
// (persistence/history-minutes.ts); 'history-1h' one row per symbol and hour, key [symbol, tMs],
// value a Float64Array (NaN for a missing value).
import type { Database, RootDatabase } from 'lmdb';
import {
  HISTORY_FIELDS, HOUR_MS, MINUTE_MS, regimeCode, regimeOfCode, type HistoryPoint,
} from '../core/history-point.js';
import { aggregatePoints, bucketOf } from './history-aggregate.js';
import { openMinuteRows, symbolsOf } from './history-minutes.js';
import { openTable } from './table.js';

export interface HistoryStoreOptions {
  /** 1-minute points older than this (market time) are trimmed. */
  readonly minuteRetentionMs: number;
  /** 1-hour points older than this are trimmed. */
  readonly hourRetentionMs: number;
  /** Keys deleted per table and symbol per prune call, so a prune never stalls the writer. */
  readonly pruneBatchMax: number;
}

export const defaultHistoryStoreOptions: HistoryStoreOptions = Object.freeze({
  minuteRetentionMs: 7 * 86_400_000,
  hourRetentionMs: 180 * 86_400_000,
  pruneBatchMax: 50_000,
});

type Key = [symbol: string, tMs: number];
type Table = Database<Float64Array, Key>;

export interface HistoryStore {
  /** Queues points; written with the others of the same turn, rollups follow the commit. */
  add(points: readonly HistoryPoint[]): void;
  /** Resolves when every point added so far is committed and rolled up. */
  flush(): Promise<void>;
  /** Committed 1-minute points of a symbol with fromMs <= tMs < toMs, oldest first. */
  minutes(symbol: string, fromMs: number, toMs: number, limit?: number): HistoryPoint[];
  /** 1-hour points in [fromMs, toMs): rolled-up hours, then hours not yet rolled from minutes. */
  hours(symbol: string, fromMs: number, toMs: number): HistoryPoint[];
  /** Close (tMs + 1 min) of the symbol's newest 1-minute point, null when none. */
  updatedAtMs(symbol: string): number | null;
  /** Close of the newest point of any symbol: "now" in market time for queries. */
  newestMs(): number | null;
  /** Rolls the symbol's finished hours not rolled yet; returns how many hours were written. */
  rollup(symbol: string): Promise<number>;
  /**
   * Market time from the newest rolled hour's end to the start of the current hour, the most
   * over symbols that have rolled hours (0: every finished hour is rolled).
   */
  rollupLagMs(): number;
  /** Trims both tables to their retention at nowMarketMs; returns how many keys went. */
  prune(nowMarketMs: number): Promise<number>;
  /** Every symbol with a 1-minute or a rolled 1-hour point, sorted. */
  symbols(): string[];
  /** Rolled 1-hour points only (no hour aggregated from minutes), fromMs <= tMs < toMs. */
  rolledHours(symbol: string, fromMs: number, toMs: number, limit?: number): HistoryPoint[];
  /**
   * Writes rolled 1-hour points as they are (a scale-out front copying ingest's hours older
   * than its own minutes, scale-out/history-copy.ts); resolves once committed.
   */
  putHours(points: readonly HistoryPoint[]): Promise<void>;
  readonly options: HistoryStoreOptions;
}

function checkOptions(o: HistoryStoreOptions): void {
  for (const name of ['minuteRetentionMs', 'hourRetentionMs', 'pruneBatchMax'] as const) {
    if (!Number.isInteger(o[name]) || o[name] < 1) {
      throw new TypeError(`history.${name} must be a positive integer (was ${o[name]})`);
    }
  }
  if (o.hourRetentionMs < o.minuteRetentionMs) {
    throw new TypeError('history.hourRetentionMs must be at least history.minuteRetentionMs');
  }
}

const fieldCount = HISTORY_FIELDS.length;

function toRow(point: HistoryPoint): Float64Array {
  const row = new Float64Array(fieldCount + 1);
  for (let i = 0; i < fieldCount; i++) row[i] = point[HISTORY_FIELDS[i]] ?? NaN;
  row[fieldCount] = regimeCode(point.regime);
  return row;
}

function toPoint(symbol: string, tMs: number, row: Float64Array): HistoryPoint {
  if (!(row instanceof Float64Array) || row.length !== fieldCount + 1) {
    throw new Error(`corrupt stored history point ${symbol} ${tMs}`);
  }
  const point: Record<string, unknown> = { symbol, tMs, regime: regimeOfCode(row[fieldCount]) };
  for (let i = 0; i < fieldCount; i++) {
    const value = row[i];
    point[HISTORY_FIELDS[i]] = Number.isNaN(value) ? null : value;
  }
  if (point.volume === null) point.volume = 0;
  return point as unknown as HistoryPoint;
}

function readRange(table: Table, symbol: string, fromMs: number, toMs: number,
  limit?: number): HistoryPoint[] {
  const out: HistoryPoint[] = [];
  if (!(toMs > fromMs)) return out;
  const range = table.getRange({ start: [symbol, fromMs], end: [symbol, toMs], limit });
  for (const { key, value } of range) {
    out.push(toPoint(symbol, key[1], value));
  }
  return out;
}

/** The newest key's time of a symbol in a table, or null. */
function newestKey(table: Table, symbol: string): number | null {
  for (const key of table.getKeys({ start: [symbol, Infinity], end: [symbol, -Infinity],
    reverse: true, limit: 1 })) {
    return key[1];
  }
  return null;
}


export function openHistoryStore(root: RootDatabase, override: Partial<HistoryStoreOptions> = {}):
  HistoryStore {
  const options = { ...defaultHistoryStoreOptions, ...override };
  checkOptions(options);
  const minuteRows = openMinuteRows(root, 'history-1m');
  const hourTable: Table = openTable<Float64Array, Key>(root, 'history-1h');
  // Newest 1-minute point per symbol (its tMs), loaded once and kept by add().
  const newest = new Map<string, number>();
  for (const symbol of minuteRows.symbols()) {
    const tMs = minuteRows.newest(symbol);
    if (tMs !== null) newest.set(symbol, tMs);
  }
  // What readers see: the newest minute per symbol whose write is committed. Answers are cached
  // by these (their ETag names them), so they must not move before the rows can be read: an
  // answer built between add() and the commit would be cached without the new minutes.
  const visible = new Map(newest);
  let newestAll = newest.size === 0 ? null : Math.max(...newest.values());
  // Hours a late point landed in after they were rolled: rolled again.
  const lateHours = new Map<string, Set<number>>();
  let pending: HistoryPoint[] = [];
  let scheduled = false;
  let lastWrite: Promise<unknown> = Promise.resolve();
  // The rollups in flight, on a chain of their own: lastWrite moves on with every minute put,
  // and flush (hence close) must wait for a rollup that reads the tables after those puts.
  let rolling: Promise<unknown> = Promise.resolve();
  const rollWanted = new Set<string>();

  const rolledEnd = (symbol: string): number | null => {
    const last = newestKey(hourTable, symbol);
    return last === null ? null : last + HOUR_MS;
  };

  /**
   * Each symbol's rolled end as last read or written (rollupLagMs, at every scrape, reads no
   * table): forgotten when hours are put from elsewhere or pruned.
   */
  const rolledEnds = new Map<string, number | null>();
  const rolledEndKept = (symbol: string): number | null => {
    if (!rolledEnds.has(symbol)) rolledEnds.set(symbol, rolledEnd(symbol));
    return rolledEnds.get(symbol)!;
  };

  const rollHours = async (symbol: string, fromMs: number, toMs: number): Promise<number> => {
    const hours = aggregatePoints(minuteRows.range(symbol, fromMs, toMs), HOUR_MS);
    let written: Promise<unknown> = Promise.resolve();
    for (const hour of hours) written = hourTable.put([symbol, hour.tMs], toRow(hour));
    await written;
    if (hours.length > 0) {
      const endMs = hours[hours.length - 1]!.tMs + HOUR_MS;
      rolledEnds.set(symbol, Math.max(endMs, rolledEndKept(symbol) ?? -Infinity));
    }
    return hours.length;
  };

  const rollup = async (symbol: string): Promise<number> => {
    const newestMs = newest.get(symbol);
    if (newestMs === undefined) return 0;
    const currentHourMs = bucketOf(newestMs, HOUR_MS);
    let written = 0;
    const late = lateHours.get(symbol);
    lateHours.delete(symbol);
    for (const hourMs of late ?? []) written += await rollHours(symbol, hourMs, hourMs + HOUR_MS);
    let fromMs = rolledEnd(symbol);
    if (fromMs === null) {
      const firstMs = minuteRows.first(symbol);
      if (firstMs !== null) fromMs = bucketOf(firstMs, HOUR_MS);
    }
    if (fromMs === null || fromMs >= currentHourMs) return written;
    return written + await rollHours(symbol, fromMs, currentHourMs);
  };

  const runRollups = async () => {
    const symbols = [...rollWanted];
    rollWanted.clear();
    for (const symbol of symbols) await rollup(symbol);
  };

  const write = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    lastWrite = minuteRows.putAll(batch);
    lastWrite.then(() => showWritten(batch), () => {});
    if (rollWanted.size > 0) {
      const minutesWritten = lastWrite;
      rolling = rolling.then(() => minutesWritten).then(runRollups);
    }
  };

  const showWritten = (batch: readonly HistoryPoint[]) => {
    for (const point of batch) {
      const before = visible.get(point.symbol);
      if (before === undefined || point.tMs > before) visible.set(point.symbol, point.tMs);
      if (newestAll === null || point.tMs > newestAll) newestAll = point.tMs;
    }
  };

  const noteNewest = (point: HistoryPoint) => {
    const before = newest.get(point.symbol);
    if (before !== undefined && point.tMs <= before) {
      // A point behind the newest: its hour is rolled again if it was rolled already.
      const hourMs = bucketOf(point.tMs, HOUR_MS);
      if (hourMs < bucketOf(before, HOUR_MS)) {
        let set = lateHours.get(point.symbol);
        if (set === undefined) lateHours.set(point.symbol, set = new Set());
        set.add(hourMs);
        rollWanted.add(point.symbol);
      }
      return;
    }
    newest.set(point.symbol, point.tMs);
    if (before === undefined || bucketOf(before, HOUR_MS) !== bucketOf(point.tMs, HOUR_MS)) {
      rollWanted.add(point.symbol);
    }
  };

  return {
    options,
    add(points) {
      for (const point of points) {
        if (!Number.isFinite(point.tMs) || point.tMs % MINUTE_MS !== 0) {
          throw new Error(`history point ${point.symbol} must start on a minute (${point.tMs})`);
        }
        noteNewest(point);
        pending.push(point);
      }
      if (!scheduled && pending.length > 0) {
        scheduled = true;
        queueMicrotask(write);
      }
    },
    async flush() {
      write();
      await lastWrite;
      await rolling;
      if (rollWanted.size > 0) await runRollups();
    },
    rollupLagMs() {
      let lagMs = 0;
      for (const [symbol, newestMs] of visible) {
        const end = rolledEndKept(symbol);
        if (end !== null) lagMs = Math.max(lagMs, bucketOf(newestMs, HOUR_MS) - end);
      }
      return lagMs;
    },
    minutes: (symbol, fromMs, toMs, limit) => minuteRows.range(symbol, fromMs, toMs, limit),
    hours(symbol, fromMs, toMs) {
      const end = rolledEnd(symbol);
      const rolled = end === null ? [] : readRange(hourTable, symbol, fromMs, Math.min(toMs, end));
      const restFromMs = Math.max(fromMs, end ?? -Infinity);
      const rest = aggregatePoints(minuteRows.range(symbol, restFromMs, toMs), HOUR_MS);
      return rolled.concat(rest);
    },
    updatedAtMs(symbol) {
      const tMs = visible.get(symbol);
      return tMs === undefined ? null : tMs + MINUTE_MS;
    },
    newestMs: () => (newestAll === null ? null : newestAll + MINUTE_MS),
    rollup,
    symbols: () => [...new Set([...minuteRows.symbols(), ...symbolsOf(hourTable)])].sort(),
    rolledHours: (symbol, fromMs, toMs, limit) =>
      readRange(hourTable, symbol, fromMs, toMs, limit),
    async putHours(points) {
      for (const point of points) {
        if (!Number.isFinite(point.tMs) || point.tMs % HOUR_MS !== 0) {
          throw new Error(`history hour ${point.symbol} must start on an hour (${point.tMs})`);
        }
      }
      // On the chain of the rollups: a rollup reading the table sees the hours put before it.
      const written = rolling.then(async () => {
        let last: Promise<unknown> = Promise.resolve();
        for (const point of points) last = hourTable.put([point.symbol, point.tMs], toRow(point));
        await last;
        for (const point of points) rolledEnds.delete(point.symbol);
      });
      rolling = written.catch(() => {});
      await written;
    },
    async prune(nowMarketMs) {
      rolledEnds.clear();
      let deleted = 0;
      const trim = async (table: Table, retentionMs: number) => {
        const cutoffMs = nowMarketMs - retentionMs;
        for (const symbol of symbolsOf(table)) {
          const keys = table.getKeys({ start: [symbol, -Infinity], end: [symbol, cutoffMs],
            limit: options.pruneBatchMax });
          for (const key of keys) {
            lastWrite = table.remove(key);
            deleted += 1;
          }
        }
        await lastWrite;
      };
      deleted += await minuteRows.prune(nowMarketMs - options.minuteRetentionMs,
        options.pruneBatchMax);
      await trim(hourTable, options.hourRetentionMs);
      return deleted;
    },
  };
}
