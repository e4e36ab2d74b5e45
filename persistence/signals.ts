// Emitted entry signals (so none fires twice, also across a restart) and the persisted
// schedule of their 4-hour outcomes. Tables: 'signals' (id -> record) and 'signal-due'
// ([dueMs, id] -> 1, the pending outcomes in due order). A completed outcome keeps its figures
// (`result`): the signals' track record (GET /api/v1/signals/performance) is read from them.
import type { Database, RootDatabase } from 'lmdb';
import { openTable } from './table.js';

/**
 * What the store needs of a signal; the record is the entry_signal.created data
 * (actors/signals/types.ts), kept opaque here so persistence imports no actor internals.
 */
export interface StoredSignal {
  readonly signal_id: string;
  readonly symbol: string;
}

export interface PendingOutcome<S extends StoredSignal = StoredSignal> {
  readonly signal: S;
  readonly entryEventId: string;
  /** The signal's time in market time (its bar's close): the outcome's `signaled_at`. */
  readonly signaledAtMs: number;
  /** Market time the outcome is due: the signal time plus 4 hours. */
  readonly dueMs: number;
}

export interface SignalRecord<S extends StoredSignal = StoredSignal> {
  readonly signal: S;
  readonly claimedAtMs: number;
  readonly outcome: PendingOutcome<S> | null;
  readonly outcomeDone: boolean;
  /** The evaluated outcome (actors/signals/types.ts SignalOutcome), once done. */
  readonly result?: Readonly<Record<string, unknown>>;
  /**
   * The same bars' baseline (actors/signals/baseline.ts), kept apart from `result` (the
   * delivered outcome). Absent on outcomes stored before baselines existed.
   */
  readonly baseline?: Readonly<Record<string, unknown>>;
}

export interface SignalStoreOptions {
  /** Outcomes waiting at once; scheduling one more is refused (returns false). */
  readonly pendingOutcomesMax: number;
  /**
   * Records older than this (by claim time) are pruned; outcomes pending are kept. As long as
   * the 1-hour history: the track record reaches back 90 days.
   */
  readonly retentionMs: number;
}

/** Writes remembered for changedSince: a few minutes of outcome evaluation. */
const CHANGES_MAX = 20_000;

export const defaultSignalStoreOptions: SignalStoreOptions = Object.freeze({
  pendingOutcomesMax: 100_000,
  retentionMs: 180 * 86_400_000,
});

export interface SignalStore<S extends StoredSignal = StoredSignal> {
  /** Records the signal; true the first time its signal_id is seen, false ever after. */
  claim(signal: S, claimedAtMs: number): Promise<boolean>;
  /** Schedules the outcome of a claimed, delivered signal; false when unknown or full. */
  scheduleOutcome(signalId: string, entryEventId: string, signaledAtMs: number, dueMs: number):
    Promise<boolean>;
  /** Pending outcomes with dueMs <= nowMs, earliest first, at most `max`. */
  due(nowMs: number, max: number): PendingOutcome<S>[];
  /** Marks the outcome done, keeping its figures and its baseline when given. */
  completeOutcome(signalId: string, result?: Readonly<Record<string, unknown>>,
    baseline?: Readonly<Record<string, unknown>>): Promise<void>;
  get(signalId: string): SignalRecord<S> | undefined;
  /** Every stored record, in id order (the track record filters and sorts them). */
  list(): Iterable<SignalRecord<S>>;
  pendingCount(): number;
  /** Grows with every write of this process: equal revisions list equal records. */
  revision(): number;
  /**
   * Ids written after `revision` (to the current one), or null when that is too far back to
   * say (or records were pruned): then read everything again.
   */
  changedSince(revision: number): readonly string[] | null;
  /** Drops records claimed before nowMs - retentionMs with no outcome pending; counts them. */
  prune(nowMs: number): Promise<number>;
}

export function openSignalStore<S extends StoredSignal = StoredSignal>(root: RootDatabase,
  override: Partial<SignalStoreOptions> = {}): SignalStore<S> {
  const options = { ...defaultSignalStoreOptions, ...override };
  if (!Number.isInteger(options.pendingOutcomesMax) || options.pendingOutcomesMax < 1) {
    throw new TypeError(`signals.pendingOutcomesMax must be a positive integer ` +
      `(was ${options.pendingOutcomesMax})`);
  }
  const records: Database<SignalRecord<S>, string> =
    openTable<SignalRecord<S>, string>(root, 'signals');
  const dueIndex = openTable<number, [number, string]>(root, 'signal-due');
  // Counted once at open, then kept in step with every write of this process.
  let pending = dueIndex.getKeysCount();
  let revision = 0;
  // The ids of the last writes, oldest first: revision - changes.length + 1 .. revision.
  let changes: string[] = [];
  let changesFromRevision = 1;
  const changed = (signalId: string | null) => {
    revision += 1;
    if (signalId === null) {
      changes = [];
      changesFromRevision = revision + 1;
      return;
    }
    changes.push(signalId);
    if (changes.length > CHANGES_MAX) {
      changes = changes.slice(CHANGES_MAX / 2);
      changesFromRevision = revision - changes.length + 1;
    }
  };
  return {
    async claim(signal, claimedAtMs) {
      const record: SignalRecord<S> = { signal, claimedAtMs, outcome: null, outcomeDone: false };
      const claimed = await records.ifNoExists(signal.signal_id, () => {
        records.put(signal.signal_id, record);
      });
      // Counted once the write is visible, so a reader never caches the old list as new.
      if (claimed) changed(signal.signal_id);
      return claimed;
    },
    async scheduleOutcome(signalId, entryEventId, signaledAtMs, dueMs) {
      // Checked inside the write transaction so two schedules of one signal cannot both pass.
      const scheduled = await root.transaction(() => {
        const record = records.get(signalId);
        if (record === undefined || record.outcome !== null) return false;
        if (pending >= options.pendingOutcomesMax) return false;
        const outcome: PendingOutcome<S> = {
          signal: record.signal, entryEventId, signaledAtMs, dueMs,
        };
        records.put(signalId, { ...record, outcome });
        dueIndex.put([dueMs, signalId], 1);
        pending += 1;
        return true;
      });
      if (scheduled) changed(signalId);
      return scheduled;
    },
    due(nowMs, max) {
      const out: PendingOutcome<S>[] = [];
      for (const key of dueIndex.getKeys({ end: [nowMs + 1], limit: max })) {
        const record = records.get(key[1]);
        if (record?.outcome == null) throw new Error(`due index names unknown signal ${key[1]}`);
        out.push(record.outcome);
      }
      return out;
    },
    async completeOutcome(signalId, result, baseline) {
      await root.transaction(() => {
        const record = records.get(signalId);
        if (record?.outcome == null || record.outcomeDone) return;
        records.put(signalId, {
          ...record, outcomeDone: true, ...(result === undefined ? {} : { result }),
          ...(baseline === undefined ? {} : { baseline }),
        });
        dueIndex.remove([record.outcome.dueMs, signalId]);
        pending -= 1;
      });
      changed(signalId);
    },
    get: (signalId) => records.get(signalId),
    *list() {
      for (const { value } of records.getRange({})) yield value;
    },
    pendingCount: () => pending,
    revision: () => revision,
    changedSince(since) {
      if (since < changesFromRevision - 1 || since > revision) return null;
      return changes.slice(since - changesFromRevision + 1);
    },
    async prune(nowMs) {
      const beforeMs = nowMs - options.retentionMs;
      let deleted = 0;
      await root.transaction(() => {
        for (const { key, value } of records.getRange({})) {
          const waiting = value.outcome !== null && !value.outcomeDone;
          if (value.claimedAtMs < beforeMs && !waiting) {
            records.remove(key);
            deleted += 1;
          }
        }
      });
      if (deleted > 0) changed(null);
      return deleted;
    },
  };
}
