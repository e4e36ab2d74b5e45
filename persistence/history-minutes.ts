// The 1-minute points on disk: one lmdb row per symbol and hour (key [symbol, hourMs]) holding
// up to 60 minute slots of 15 float64 values, a slot with NaN volume being an absent minute.
// One row an hour instead of one a minute halves the store (interleaved per-minute keys left
// lmdb pages ~55 % full). The hour being written is kept in memory and rewritten whole each
// minute, so no write reads back a row whose last put is not committed yet.
import type { Database, RootDatabase } from 'lmdb';
import {
  HISTORY_FIELDS, HOUR_MS, MINUTE_MS, regimeCode, regimeOfCode, type HistoryPoint,
} from '../core/history-point.js';
import { bucketOf } from './history-aggregate.js';
import { openTable } from './table.js';

type Key = [symbol: string, hourMs: number];
const fieldCount = HISTORY_FIELDS.length;
/** Values per minute slot: the fields, then the regime code. */
export const SLOT_VALUES = fieldCount + 1;
const volumeIndex = HISTORY_FIELDS.indexOf('volume');
/** Hours per symbol kept in memory for writing (the open one and the one before). */
const hoursHeld = 2;

export function writeSlot(row: Float64Array, slot: number, point: HistoryPoint): void {
  const at = slot * SLOT_VALUES;
  for (let i = 0; i < fieldCount; i++) row[at + i] = point[HISTORY_FIELDS[i]] ?? NaN;
  row[at + fieldCount] = regimeCode(point.regime);
}

const orNull = (value: number) => (Number.isNaN(value) ? null : value);

export function readSlot(symbol: string, tMs: number, row: Float64Array, slot: number):
  HistoryPoint | null {
  const at = slot * SLOT_VALUES;
  if (Number.isNaN(row[at + volumeIndex])) return null;
  // One literal in HISTORY_FIELDS order: every point has the same shape (fast to read back).
  return {
    symbol, tMs, open: orNull(row[at]), high: orNull(row[at + 1]), low: orNull(row[at + 2]),
    close: orNull(row[at + 3]), volume: row[at + 4], openInterest: orNull(row[at + 5]),
    fundingRate: orNull(row[at + 6]), fundingAnnualized: orNull(row[at + 7]),
    cvd: orNull(row[at + 8]), vpin: orNull(row[at + 9]), obi: orNull(row[at + 10]),
    ofi: orNull(row[at + 11]), kyleLambda: orNull(row[at + 12]),
    signalScore: orNull(row[at + 13]), regime: regimeOfCode(row[at + fieldCount]),
  };
}

// The literal above follows this order; a change of HISTORY_FIELDS must change it too.
if (HISTORY_FIELDS.join() !== 'open,high,low,close,volume,openInterest,fundingRate,' +
  'fundingAnnualized,cvd,vpin,obi,ofi,kyleLambda,signalScore') {
  throw new Error('readSlot must follow HISTORY_FIELDS');
}

function checkRow(symbol: string, hourMs: number, row: unknown): Float64Array {
  if (!(row instanceof Float64Array) || row.length % SLOT_VALUES !== 0 ||
    row.length > 60 * SLOT_VALUES) {
    throw new Error(`corrupt stored history hour ${symbol} ${hourMs}`);
  }
  return row;
}

/** Every symbol of a table keyed [symbol, time], one seek per symbol. */
export function symbolsOf(table: Database<unknown, Key>): string[] {
  const out: string[] = [];
  let start: Key | undefined;
  for (;;) {
    let next: string | undefined;
    for (const key of table.getKeys({ start, limit: 1 })) next = key[0];
    if (next === undefined) return out;
    out.push(next);
    start = [next, Infinity];
  }
}

export interface MinuteRows {
  /**
   * Writes points into their hours' rows, each row touched put once (not once per point);
   * resolves when the last of those writes is committed.
   */
  putAll(points: readonly HistoryPoint[]): Promise<unknown>;
  /** Points with fromMs <= tMs < toMs, oldest first, at most `limit`. */
  range(symbol: string, fromMs: number, toMs: number, limit?: number): HistoryPoint[];
  /** The symbol's first and newest minute on disk, or null. */
  first(symbol: string): number | null;
  newest(symbol: string): number | null;
  symbols(): string[];
  /** Deletes hours wholly before cutoffMs, at most `max` per symbol; resolves to the count. */
  prune(cutoffMs: number, max: number): Promise<number>;
  readonly table: Database<Float64Array, Key>;
}

export function openMinuteRows(root: RootDatabase, name: string): MinuteRows {
  const table = openTable<Float64Array, Key>(root, name);
  const held = new Map<string, Map<number, Float64Array>>();
  /**
   * Per symbol, the newest minute an earlier process wrote (read at this process's first write).
   * A minute up to it that is on disk keeps its values: a restart after kill -9 generates the
   * time since its pair's last save again, and what was written then is the settled past.
   */
  const settledMs = new Map<string, number>();
  const settledOf = (symbol: string): number => {
    let ms = settledMs.get(symbol);
    if (ms === undefined) settledMs.set(symbol, ms = edge(symbol, true) ?? -Infinity);
    return ms;
  };

  const rowFor = (symbol: string, hourMs: number): Float64Array => {
    let hours = held.get(symbol);
    if (hours === undefined) held.set(symbol, hours = new Map());
    let row = hours.get(hourMs);
    if (row === undefined) {
      row = new Float64Array(60 * SLOT_VALUES).fill(NaN);
      const stored = table.get([symbol, hourMs]);
      if (stored !== undefined) row.set(checkRow(symbol, hourMs, stored));
      hours.set(hourMs, row);
      if (hours.size > hoursHeld) hours.delete(Math.min(...hours.keys()));
    }
    return row;
  };

  const slotsIn = (row: Float64Array) => row.length / SLOT_VALUES;

  const edge = (symbol: string, newestFirst: boolean): number | null => {
    const range = newestFirst
      ? table.getRange({ start: [symbol, Infinity], end: [symbol, -Infinity], reverse: true })
      : table.getRange({ start: [symbol, -Infinity], end: [symbol, Infinity] });
    for (const { key, value } of range) {
      const row = checkRow(symbol, key[1], value);
      const slots = slotsIn(row);
      for (let k = 0; k < slots; k++) {
        const slot = newestFirst ? slots - 1 - k : k;
        if (!Number.isNaN(row[slot * SLOT_VALUES + volumeIndex])) {
          return key[1] + slot * MINUTE_MS;
        }
      }
    }
    return null;
  };

  // Stored up to the last filled slot; a copy, as later minutes keep changing `row`.
  const putRow = (symbol: string, hourMs: number, row: Float64Array) => {
    let used = 60;
    while (used > 0 && Number.isNaN(row[(used - 1) * SLOT_VALUES + volumeIndex])) used -= 1;
    return table.put([symbol, hourMs], row.slice(0, used * SLOT_VALUES));
  };

  return {
    table,
    putAll(points) {
      // A warm-up's batch is hundreds of minutes of one pair: a put per point rewrote (and
      // msgpack-encoded) its hour's row up to 60 times, ~4 KB each, on the main thread.
      // The rows of this batch, held here too: rowFor keeps only two hours a symbol, and a
      // point back in an hour it let go must land in the row this batch is writing.
      const touched = new Map<string, Map<number, Float64Array>>();
      for (const point of points) {
        const hourMs = bucketOf(point.tMs, HOUR_MS);
        let hours = touched.get(point.symbol);
        if (hours === undefined) touched.set(point.symbol, hours = new Map());
        let row = hours.get(hourMs);
        if (row === undefined) hours.set(hourMs, row = rowFor(point.symbol, hourMs));
        const slot = (point.tMs - hourMs) / MINUTE_MS;
        if (point.tMs <= settledOf(point.symbol) &&
          !Number.isNaN(row[slot * SLOT_VALUES + volumeIndex])) continue;
        writeSlot(row, slot, point);
      }
      let last: Promise<unknown> = Promise.resolve();
      for (const [symbol, hours] of touched) {
        for (const [hourMs, row] of hours) last = putRow(symbol, hourMs, row);
      }
      return last;
    },
    range(symbol, fromMs, toMs, limit = Infinity) {
      const out: HistoryPoint[] = [];
      if (!(toMs > fromMs)) return out;
      const rows = table.getRange({ start: [symbol, bucketOf(fromMs, HOUR_MS)],
        end: [symbol, toMs] });
      for (const { key, value } of rows) {
        const row = checkRow(symbol, key[1], value);
        const slots = slotsIn(row);
        for (let slot = 0; slot < slots; slot++) {
          const tMs = key[1] + slot * MINUTE_MS;
          if (tMs < fromMs) continue;
          if (tMs >= toMs || out.length >= limit) return out;
          const point = readSlot(symbol, tMs, row, slot);
          if (point !== null) out.push(point);
        }
      }
      return out;
    },
    first: (symbol) => edge(symbol, false),
    newest: (symbol) => {
      const ms = edge(symbol, true);
      // Not known yet means not written yet by this process: the seek serves settledOf too.
      if (!settledMs.has(symbol)) settledMs.set(symbol, ms ?? -Infinity);
      return ms;
    },
    symbols: () => symbolsOf(table),
    async prune(cutoffMs, max) {
      let deleted = 0;
      let last: Promise<unknown> = Promise.resolve();
      for (const symbol of symbolsOf(table)) {
        const keys = table.getKeys({ start: [symbol, -Infinity],
          end: [symbol, cutoffMs - HOUR_MS + 1], limit: max });
        for (const key of keys) {
          last = table.remove(key);
          held.get(symbol)?.delete(key[1]);
          deleted += 1;
        }
      }
      await last;
      return deleted;
    },
  };
}
