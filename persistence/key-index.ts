// The in-memory directory of keys by digest (authentication) and by prefix (listing, burst
// guard), shared by the lmdb key store and the Redis key table. Rebuilt whole and swapped, so
// a reader never sees a half-built directory.
import type { KeyRecord } from '../core/messages.js';

export class KeyIndex {
  private readonly digests = new Map<string, KeyRecord>();
  private readonly prefixes = new Map<string, KeyRecord>();

  static of(records: Iterable<KeyRecord>): KeyIndex {
    const index = new KeyIndex();
    for (const record of records) index.put(record);
    return index;
  }

  /** Adds or replaces a key's record (a replaced record's old digest is dropped). */
  put(record: KeyRecord): void {
    const previous = this.prefixes.get(record.prefix);
    if (previous !== undefined) this.digests.delete(previous.digest);
    this.prefixes.set(record.prefix, record);
    this.digests.set(record.digest, record);
  }

  byDigest(digest: string): KeyRecord | undefined {
    return this.digests.get(digest);
  }

  byPrefix(prefix: string): KeyRecord | undefined {
    return this.prefixes.get(prefix);
  }

  get size(): number {
    return this.prefixes.size;
  }
}
