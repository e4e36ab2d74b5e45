// The track record's inputs and answers, kept while the signal store's revision and the
// market-time now stay the same: decoding every stored record and resampling each group cost
// tens of ms, and a poll between two outcome evaluations (every 5 s) would redo both for nothing.
import {
  columnRow, createColumnLabels, trackColumns, type ColumnLabels, type ColumnRow, type TrackColumns,
} from '../../actors/signals/track-columns.js';
import {
  byTimeThenId, storedTrack, trackedAtMs, trackedSignals, type StoredTrack, type TrackedSignal,
} from '../../actors/signals/track-record.js';
import type { SignalStore } from '../../persistence/signals.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import type { Payload } from '../respond.js';

/** What the cache needs of the store; without `revision` (a mirror), nothing is kept. */
export type TrackedStore = Pick<SignalStore<EntrySignal>, 'list'> &
  Partial<Pick<SignalStore<EntrySignal>, 'revision' | 'changedSince' | 'get'>>;

/** Answers kept per (revision, now): windows x groupings x formats is 56; room to spare. */
const ANSWERS_MAX = 128;

interface Entry {
  readonly revision: number;
  readonly nowMs: number;
  /** Made when history first asks: performance reads the columns. */
  tracked: TrackedSignal[] | null;
  readonly answers: Map<string, Payload>;
}

/** The decoded records, oldest first, kept up to date from the ids written since. */
interface Decoded {
  revision: number;
  sorted: StoredTrack[];
  /** Their columns (independent of now: each outcome carries when it is known). */
  columns: TrackColumns | null;
  /** Each record's row of the columns, worked out once while the record is unchanged. */
  readonly rows: WeakMap<StoredTrack, ColumnRow>;
  readonly names: ColumnLabels;
}

const entries = new WeakMap<TrackedStore, Entry>();
const decodedOf = new WeakMap<TrackedStore, Decoded>();

/** Where `track` goes in `sorted` (oldest first, the id breaking ties). */
function insertionIndex(sorted: readonly StoredTrack[], track: StoredTrack): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (byTimeThenId(sorted[mid], track) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Decoding every record is most of an answer's cost: only the changed ones are read again. */
function decoded(store: TrackedStore, revision: number): Decoded {
  const held = decodedOf.get(store);
  if (held !== undefined && held.revision === revision) return held;
  const changed = held === undefined ? null : store.changedSince?.(held.revision) ?? null;
  if (held !== undefined && changed !== null && store.get !== undefined) {
    const ids = new Set(changed);
    const kept = held.sorted.filter((t) => !ids.has(t.signal.signal_id));
    // A few records change per revision: each goes in its place instead of a sort of all.
    for (const id of ids) {
      const record = store.get(id);
      if (record === undefined) continue;
      const track = storedTrack(record);
      kept.splice(insertionIndex(kept, track), 0, track);
    }
    held.sorted = kept;
    held.revision = revision;
    held.columns = null;
    return held;
  }
  const sorted: StoredTrack[] = [];
  for (const record of store.list()) sorted.push(storedTrack(record));
  const made = { revision, sorted: sorted.sort(byTimeThenId), columns: null,
    rows: new WeakMap(), names: createColumnLabels() };
  decodedOf.set(store, made);
  return made;
}

function entryOf(store: TrackedStore, nowMs: number): Entry | null {
  if (store.revision === undefined) return null;
  const revision = store.revision();
  const held = entries.get(store);
  if (held !== undefined && held.revision === revision && held.nowMs === nowMs) return held;
  const entry = { revision, nowMs, tracked: null, answers: new Map<string, Payload>() };
  entries.set(store, entry);
  return entry;
}

/** The stored signals as tracked at market time nowMs (shared by history and performance). */
export function trackedAt(store: TrackedStore, nowMs: number): TrackedSignal[] {
  const entry = entryOf(store, nowMs);
  if (entry === null) return trackedSignals(store.list(), nowMs);
  entry.tracked ??= trackedAtMs(decoded(store, entry.revision).sorted, nowMs);
  return entry.tracked;
}

/** The stored signals as columns, each outcome known from its evaluated_at (market time). */
export function trackedColumns(store: TrackedStore): TrackColumns {
  if (store.revision === undefined) {
    const sorted: StoredTrack[] = [];
    for (const record of store.list()) sorted.push(storedTrack(record));
    return trackColumns(sorted.sort(byTimeThenId));
  }
  const held = decoded(store, store.revision());
  held.columns ??= trackColumns(held.sorted, held.names, (track) => {
    let row = held.rows.get(track as StoredTrack);
    if (row === undefined) {
      row = columnRow(track, held.names);
      held.rows.set(track as StoredTrack, row);
    }
    return row;
  });
  return held.columns;
}

/** The answer under `key` at this revision and now, made by `make` when not held. */
export function cachedAnswer(store: TrackedStore, nowMs: number, key: string,
  make: () => Payload): Payload {
  const entry = entryOf(store, nowMs);
  if (entry === null) return make();
  const held = entry.answers.get(key);
  if (held !== undefined) return held;
  const made = make();
  if (entry.answers.size < ANSWERS_MAX) entry.answers.set(key, made);
  return made;
}
