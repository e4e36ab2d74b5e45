// The key table: create, list, revoke and re-plan, plus the KeyDirectory the server reads, kept
// current with changes made by other processes (the CLI) by polling a change counter.
import type { Clock } from '../core/clock.js';
import type { KeyDirectory, KeyRecord, Plan } from '../core/messages.js';
import type { Logger } from '../core/logger.js';
import { StoreError, storeErrors } from './errors.js';
import {
  assertKeyRecord, keysChangeCountKey,
  type CreatedKey, type CreateKeyInput, type KeyChange, type KeyTables,
} from './keys.js';
import { storeLimits } from './limits.js';
import { KeyIndex } from './key-index.js';
import { createKeyWith, moveToPlan, revokeAt, type KeyWrite } from './key-transitions.js';

/** What a write-transaction body produced, and whether it wrote anything. */
interface Written<T> {
  readonly value: T;
  readonly wrote: boolean;
}
const unwritten = <T>(value: T): Written<T> => ({ value, wrote: false });

export class KeyStore implements KeyDirectory {
  private keyIndex = new KeyIndex();
  private seenChangeCount = -1;
  private pollTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly tables: KeyTables,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.refresh();
  }

  /** Starts polling for changes made by other processes (unref'd: never keeps a process up). */
  watch(pollMs: number = storeLimits.keyPollMs): void {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => this.pollOnce(), pollMs);
    this.pollTimer.unref();
  }

  close(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  byDigest(digest: string): KeyRecord | undefined {
    const record = this.keyIndex.byDigest(digest);
    if (record !== undefined) return record;
    // A key the command line created a moment ago works at once, not at the next poll: look
    // again when the change counter moved (one read when it did not, so unknown keys stay cheap).
    return this.refresh() ? this.keyIndex.byDigest(digest) : undefined;
  }

  byPrefix(prefix: string): KeyRecord | undefined {
    return this.keyIndex.byPrefix(prefix);
  }

  /** Re-reads the table when its change counter moved; true when it did. */
  refresh(): boolean {
    this.tables.root.resetReadTxn();
    const count = this.changeCount();
    if (count === this.seenChangeCount) return false;
    const records: KeyRecord[] = [];
    for (const { value } of this.tables.keys.getRange()) {
      assertKeyRecord(value);
      records.push(value);
    }
    // Swapped whole so a reader never sees a half-built directory.
    this.keyIndex = KeyIndex.of(records);
    this.seenChangeCount = count;
    return true;
  }

  /** Every key, oldest first, read from the table itself. */
  list(): KeyRecord[] {
    this.tables.root.resetReadTxn();
    const records = [...this.tables.keys.getRange()].map(({ value }) => value);
    records.forEach(assertKeyRecord);
    return records.sort((a, b) =>
      a.createdAtMs - b.createdAtMs || a.prefix.localeCompare(b.prefix));
  }

  /** Creates a key; resolves once it is durable. The full key is in the answer only. */
  create(input: CreateKeyInput): Promise<CreatedKey> {
    const claim = (record: KeyRecord) => (): Written<KeyWrite> => {
      if (this.tables.keys.get(record.prefix) !== undefined) return unwritten('taken');
      if (this.tables.keys.getCount() >= storeLimits.keysMax) return unwritten('full');
      this.tables.keys.putSync(record.prefix, record);
      return { value: 'written', wrote: true };
    };
    return createKeyWith(input, this.clock.nowMs(), (record) => this.write(claim(record)));
  }

  /** Marks a key revoked (idempotent: a revoked key keeps its first revocation time). */
  revoke(prefix: string): Promise<KeyChange> {
    return this.change(prefix, revokeAt(this.clock.nowMs()));
  }

  /** Moves a live key to another plan. */
  setPlan(prefix: string, plan: Plan): Promise<KeyChange> {
    return this.change(prefix, moveToPlan(prefix, plan));
  }

  private async change(
    prefix: string, next: (record: KeyRecord) => KeyRecord | StoreError,
  ): Promise<KeyChange> {
    return this.write((): Written<KeyChange> => {
      const current = this.tables.keys.get(prefix);
      if (current === undefined) {
        return unwritten({ ok: false, error: storeErrors.unknownPrefix(prefix) });
      }
      assertKeyRecord(current);
      const updated = next(current);
      if (updated instanceof StoreError) return unwritten({ ok: false, error: updated });
      if (updated === current) return unwritten({ ok: true, record: current, changed: false });
      assertKeyRecord(updated);
      this.tables.keys.putSync(prefix, updated);
      return { value: { ok: true, record: updated, changed: true }, wrote: true };
    });
  }

  /**
   * Runs a read-check-write in one lmdb write transaction (atomic across processes), bumps the
   * change counter when it wrote, and resolves once the commit is flushed to disk.
   */
  private async write<T>(body: () => Written<T>): Promise<T> {
    const { root, meta } = this.tables;
    const result = await root.transaction(() => {
      const outcome = body();
      if (outcome.wrote) meta.putSync(keysChangeCountKey, this.changeCount() + 1);
      return outcome;
    });
    if (result.wrote) await root.flushed;
    this.refresh();
    return result.value;
  }

  private changeCount(): number {
    const value = this.tables.meta.get(keysChangeCountKey);
    return typeof value === 'number' ? value : 0;
  }

  private pollOnce(): void {
    try {
      if (this.refresh()) {
        this.logger.debug('key directory reloaded', { keys: this.keyIndex.size });
      }
    } catch (error) {
      this.logger.error('key directory reload failed', { error });
    }
  }
}
