// Bounds and cadences of the embedded store, asserted at load (TigerStyle "a limit on everything").

export const storeLimits = Object.freeze({
  /** Named tables in the one lmdb environment (lmdb's maxDbs; every engineer's tables count). */
  tablesMax: 64,
  /** API keys, revoked ones included. Creating one more is refused with a clear error. */
  keysMax: 100_000,
  /** Attempts to draw a key whose 8-hex prefix is not taken yet (32 bits: collisions are rare). */
  keyPrefixAttemptsMax: 16,
  /** How often a process re-reads the key table's change counter (CLI changes seen within 1 s). */
  keyPollMs: 250,
  /**
   * Keyless (`ip:`) usage counters held in memory. When full, a new IP is refused (its count
   * reads as exhausted) and counted; keyed counters are bounded by keysMax and always admitted.
   */
  usageIpEntriesMax: 1_000_000,
  /** Write-behind cadence of the usage counters (the issue asks for at least once a second). */
  usageFlushMs: 250,
  /** Usage rows older than this many Rome days are pruned: the dashboard's Usage page shows
   *  today and the 30 days before (docs/decisions.md, Dashboard and accounts). One row per key
   *  a day. */
  usageRetentionDays: 31,
  /** Old usage rows removed per write-behind pass, so pruning never stalls the writer. */
  usagePruneBatchMax: 10_000,
  /** How often old usage rows are looked for. */
  usagePruneEveryMs: 3_600_000,
  /**
   * lmdb's map (address space reserved for the file, not memory, not disk: the file grows with
   * its data). lmdb-js starts at 128 KiB and maps the file again at each doubling, keeping the
   * old maps, so the pages read through each map stayed resident once per map: 56 MB of RSS
   * for a 34 MB file after the memory bench. One map this large is never remapped for the
   * store's life here (a week of 1-minute history for 100 pairs is ~35 MB); past it, lmdb-js
   * grows it as before.
   */
  mapBytes: 4 * 1024 ** 3,
  /**
   * Writes to the bulk environment (store-bulk) after which it is closed and opened again, so
   * the pages its writes made resident leave the RSS (docs/store.md, "Two environments").
   */
  bulkWritesPerReopen: 500,
});

if (storeLimits.keyPollMs >= 1_000) throw new Error('keyPollMs must be under the 1 s promise');
if (storeLimits.usageFlushMs > 1_000) throw new Error('usageFlushMs must be at most 1 s');
if (storeLimits.usageRetentionDays < 31) throw new Error('usage must be kept at least 31 days');
