// The track record's inputs and answers, kept while the signal store's revision and the
// market-time now stay the same: decoding every stored record and resampling each group cost
// tens of ms, and a poll between two outcome evaluations (every 5 s) would redo both for nothing.
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
  readonly tracked: TrackedSignal[];
  readonly answers: Map<string, Payload>;
}

/** The decoded records, oldest first, kept up to date from the ids written since. */
interface Decoded {
  revision: number;
  sorted: StoredTrack[];
}

const entries = new WeakMap<TrackedStore, Entry>();
const decodedOf = new WeakMap<TrackedStore, Decoded>();

/** Decoding every record is most of an answer's cost: only the changed ones are read again. */
function decoded(store: TrackedStore, revision: number): StoredTrack[] {
  const held = decodedOf.get(store);
  const changed = held === undefined ? null : store.changedSince?.(held.revision) ?? null;
  if (held !== undefined && changed !== null && store.get !== undefined) {
    const ids = new Set(changed);
    const kept = held.sorted.filter((t) => !ids.has(t.signal.signal_id));
    for (const id of ids) {
      const record = store.get(id);
      if (record !== undefined) kept.push(storedTrack(record));
    }
    held.sorted = kept.sort(byTimeThenId);
    held.revision = revision;
    return held.sorted;
  }
  const sorted: StoredTrack[] = [];
  for (const record of store.list()) sorted.push(storedTrack(record));
  decodedOf.set(store, { revision, sorted: sorted.sort(byTimeThenId) });
  return sorted;
}

function entryOf(store: TrackedStore, nowMs: number): Entry | null {
  if (store.revision === undefined) return null;
  const revision = store.revision();
  const held = entries.get(store);
  if (held !== undefined && held.revision === revision && held.nowMs === nowMs) return held;
  const entry = { revision, nowMs, tracked: trackedAtMs(decoded(store, revision), nowMs),
    answers: new Map<string, Payload>() };
  entries.set(store, entry);
  return entry;
}

/** The stored signals as tracked at market time nowMs (shared by history and performance). */
export function trackedAt(store: TrackedStore, nowMs: number): TrackedSignal[] {
  return entryOf(store, nowMs)?.tracked ?? trackedSignals(store.list(), nowMs);
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
