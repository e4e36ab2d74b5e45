// The key table in Redis (scale-out): the same operations as the embedded KeyStore, and a
// KeyDirectory mirrored in memory on every front so a lookup never waits on Redis. A change
// publishes the key's prefix; every mirror re-reads that one key at once, and a version counter
// polled each second catches anything a lost message or an outage hid (the mirror then reloads).
import type { Clock } from '../core/clock.js';
import type { KeyDirectory, KeyRecord, Plan } from '../core/messages.js';
import type { Logger } from '../core/logger.js';
import { StoreError, storeErrors } from '../persistence/errors.js';
import {
  assertKeyRecord,
  type CreatedKey, type CreateKeyInput, type KeyChange,
} from '../persistence/keys.js';
import { storeLimits } from '../persistence/limits.js';
import { KeyIndex } from '../persistence/key-index.js';
import { createKeyWith, moveToPlan, revokeAt } from '../persistence/key-transitions.js';
import { redisNames, type RedisLink } from './redis-link.js';
import { MirrorFollower } from './redis-mirror.js';

const versionKey = `${redisNames.keys}:version`;

/*
 * Writes are compare-and-set on the record's JSON, so two admins changing one key at once both
 * see a consistent record; the version bump and the publish are in the same atomic step.
 * KEYS[1] keys hash, KEYS[2] version. ARGV: prefix, expected JSON ('' = absent), new JSON,
 * channel, keysMax. Returns 1 written, 0 conflict, -1 full.
 */
const writeScript = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if (current or '') ~= ARGV[2] then return 0 end
if ARGV[2] == '' and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[5]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[4], ARGV[1])
return 1`;

/** Compare-and-set attempts before a change gives up (only contention makes one fail). */
const changeAttemptsMax = 16;

function parseRecord(json: string): KeyRecord {
  const record = JSON.parse(json) as KeyRecord;
  assertKeyRecord(record);
  return record;
}

export class RedisKeyStore implements KeyDirectory {
  private keyIndex = new KeyIndex();
  private readonly follower: MirrorFollower;

  constructor(
    private readonly link: RedisLink,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.follower = new MirrorFollower(link, redisNames.keysChannel, versionKey, {
      changed: (prefix) => void this.reloadOne(prefix),
      reload: () => this.reloadAll(),
    });
  }

  /** Follows changes: subscribes, reloads on every (re)connect and polls the version. */
  watch(): void {
    this.follower.watch();
  }

  close(): void {
    this.follower.close();
  }

  byDigest(digest: string): KeyRecord | undefined {
    return this.keyIndex.byDigest(digest);
  }

  byPrefix(prefix: string): KeyRecord | undefined {
    return this.keyIndex.byPrefix(prefix);
  }

  /** Every key, oldest first, read from Redis itself. */
  async list(): Promise<KeyRecord[]> {
    const all = await this.link.command.hgetall(redisNames.keys);
    return Object.values(all).map(parseRecord).sort((a, b) =>
      a.createdAtMs - b.createdAtMs || a.prefix.localeCompare(b.prefix));
  }

  /** Creates a key; the full key is in the answer only (Redis holds its digest). */
  async create(input: CreateKeyInput): Promise<CreatedKey> {
    return createKeyWith(input, this.clock.nowMs(), async (record) => {
      const outcome = await this.write(record.prefix, '', JSON.stringify(record));
      if (outcome === 1) this.index(record);
      return outcome === 1 ? 'written' : outcome === -1 ? 'full' : 'taken';
    });
  }

  /** Marks a key revoked (idempotent: a revoked key keeps its first revocation time). */
  revoke(prefix: string): Promise<KeyChange> {
    return this.change(prefix, revokeAt(this.clock.nowMs()));
  }

  /** Moves a live key to another plan. */
  setPlan(prefix: string, plan: Plan): Promise<KeyChange> {
    return this.change(prefix, moveToPlan(prefix, plan));
  }

  private async change(prefix: string, next: (record: KeyRecord) => KeyRecord | StoreError):
    Promise<KeyChange> {
    for (let attempt = 0; attempt < changeAttemptsMax; attempt++) {
      const json = await this.link.command.hget(redisNames.keys, prefix);
      if (json === null) return { ok: false, error: storeErrors.unknownPrefix(prefix) };
      const current = parseRecord(json);
      const updated = next(current);
      if (updated instanceof StoreError) return { ok: false, error: updated };
      if (updated === current) return { ok: true, record: current, changed: false };
      assertKeyRecord(updated);
      if (await this.write(prefix, json, JSON.stringify(updated)) === 1) {
        this.index(updated);
        return { ok: true, record: updated, changed: true };
      }
    }
    throw new Error(`key ${prefix} kept changing under ${changeAttemptsMax} attempts`);
  }

  private async write(prefix: string, expected: string, json: string): Promise<number> {
    const result = await this.link.command.eval(writeScript, 2, redisNames.keys, versionKey,
      prefix, expected, json, redisNames.keysChannel, storeLimits.keysMax);
    return Number(result);
  }

  private index(record: KeyRecord): void {
    this.keyIndex.put(record);
  }

  private async reloadOne(prefix: string): Promise<void> {
    try {
      const json = await this.link.command.hget(redisNames.keys, prefix);
      if (json !== null) this.index(parseRecord(json));
    } catch (error) {
      // Missed here, caught by the version poll once Redis answers again.
      this.logger.debug('key re-read failed', { prefix, error: (error as Error).message });
    }
  }

  /** Re-reads the whole table; swapped whole so a reader never sees a half-built directory. */
  async reloadAll(): Promise<void> {
    try {
      const version = await this.follower.version();
      const all = await this.link.command.hgetall(redisNames.keys);
      this.keyIndex = KeyIndex.of(Object.values(all).map(parseRecord));
      this.follower.seen(version);
    } catch (error) {
      this.logger.warn('key directory reload from redis failed', {
        error: (error as Error).message });
    }
  }
}
