// Dashboard accounts, sessions and key ownership in Redis (scale-out): the same AccountStore as
// the embedded one, so a user signed in through one front is signed in on every front. Every
// process mirrors the three tables in memory (reads stay synchronous, as the account API expects);
// a write publishes what changed and every mirror re-reads that record at once, and a version
// counter polled each second catches a message lost in an outage (the mirror then reloads).
import type { Logger } from '../core/logger.js';
import {
  AccountError, normalizeEmail, type AccountRecord, type AccountStore, type KeyOwnership,
  type NewAccount, type SessionRecord,
} from '../persistence/accounts.js';
import { ACCOUNTS_MAX, newAccountId } from '../persistence/account-store.js';
import { redisNames, type RedisLink } from './redis-link.js';
import { MirrorFollower } from './redis-mirror.js';

const names = redisNames.accounts;

/*
 * One write, atomic with its version bump and its publish. KEYS[1] the table (hash), KEYS[2] the
 * version. ARGV: field, expected JSON ('*': any, '': absent), new JSON ('': delete), message.
 * Returns 1 written, 0 the record was not as expected.
 */
const writeScript = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[2] ~= '*' and (current or '') ~= ARGV[2] then return 0 end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1])
else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
redis.call('INCR', KEYS[2])
redis.call('PUBLISH', '${names.channel}', ARGV[4])
return 1`;

/*
 * A new account: its email must be free. KEYS[1] accounts, KEYS[2] emails, KEYS[3] version.
 * ARGV: id, email, JSON, accounts max. Returns 1 created, 0 email taken, -1 full.
 */
const createScript = `
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 0 end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
redis.call('INCR', KEYS[3])
redis.call('PUBLISH', '${names.channel}', 'a|' .. ARGV[1])
return 1`;

/** Compare-and-set attempts before an update gives up (only contention makes one fail). */
const updateAttemptsMax = 16;

/** The three mirrored tables, swapped whole on a reload. */
class Mirror {
  readonly accounts = new Map<string, AccountRecord>();
  readonly emails = new Map<string, string>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly owners = new Map<string, KeyOwnership>();

  putAccount(record: AccountRecord): void {
    this.accounts.set(record.id, record);
    this.emails.set(record.email, record.id);
  }
}

type Table = 'a' | 's' | 'o';
const tableKey: Record<Table, string> = { a: names.accounts, s: names.sessions, o: names.owners };

export class RedisAccountStore implements AccountStore {
  private mirror = new Mirror();
  private readonly follower: MirrorFollower;

  constructor(private readonly link: RedisLink, private readonly logger: Logger) {
    this.follower = new MirrorFollower(link, names.channel, names.version, {
      changed: (message) => {
        const table = message.slice(0, 1) as Table;
        if (message[1] === '|' && table in tableKey) void this.reloadOne(table, message.slice(2));
      },
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

  async create(input: NewAccount, nowMs: number): Promise<AccountRecord> {
    const email = normalizeEmail(input.email);
    const record: AccountRecord = {
      id: newAccountId(), email, plan: input.plan, passwordDigest: input.passwordDigest,
      createdAtMs: nowMs, disabledAtMs: null,
    };
    const outcome = Number(await this.link.command.eval(createScript, 3, names.accounts,
      names.emails, names.version, record.id, email, JSON.stringify(record), ACCOUNTS_MAX));
    if (outcome === 0) {
      throw new AccountError('duplicate_email', `an account with the email ${email} exists`);
    }
    if (outcome === -1) {
      throw new AccountError('accounts_full', `the store holds ${ACCOUNTS_MAX} accounts`);
    }
    this.mirror.putAccount(record);
    return record;
  }

  byId(id: string): AccountRecord | undefined {
    return this.mirror.accounts.get(id);
  }

  byEmail(email: string): AccountRecord | undefined {
    const id = this.mirror.emails.get(normalizeEmail(email));
    return id === undefined ? undefined : this.mirror.accounts.get(id);
  }

  list(): AccountRecord[] {
    return [...this.mirror.accounts.values()]
      .sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id));
  }

  async update(idOrEmail: string, change: (current: AccountRecord) => AccountRecord):
    Promise<AccountRecord> {
    const { command } = this.link;
    const id = idOrEmail.startsWith('acc_') ? idOrEmail
      : await command.hget(names.emails, normalizeEmail(idOrEmail));
    for (let attempt = 0; attempt < updateAttemptsMax; attempt++) {
      const json = id === null ? null : await command.hget(names.accounts, id);
      if (json === null) throw new AccountError('unknown_account', `no account is ${idOrEmail}`);
      const current = JSON.parse(json) as AccountRecord;
      const next = change(current);
      if (next.id !== current.id || next.email !== current.email) {
        throw new Error('an account update may not change its id or email');
      }
      if (await this.write('a', current.id, json, JSON.stringify(next))) {
        this.mirror.putAccount(next);
        return next;
      }
    }
    throw new Error(`account ${idOrEmail} kept changing under ${updateAttemptsMax} attempts`);
  }

  async putSession(session: SessionRecord): Promise<void> {
    await this.write('s', session.digest, '*', JSON.stringify(session));
    this.mirror.sessions.set(session.digest, session);
  }

  session(digest: string): SessionRecord | undefined {
    return this.mirror.sessions.get(digest);
  }

  /** A session this mirror has not heard of yet (made on another front a moment ago), and its
   *  account, read from Redis itself. */
  async fetchSession(digest: string): Promise<SessionRecord | undefined> {
    const json = await this.link.command.hget(names.sessions, digest);
    if (json === null) return undefined;
    const session = JSON.parse(json) as SessionRecord;
    if (!this.mirror.accounts.has(session.accountId)) await this.reloadOne('a', session.accountId);
    this.mirror.sessions.set(digest, session);
    return session;
  }

  async removeSession(digest: string): Promise<void> {
    await this.write('s', digest, '*', '');
    this.mirror.sessions.delete(digest);
  }

  sessionsOf(accountId: string): SessionRecord[] {
    return this.allSessions().filter((s) => s.accountId === accountId);
  }

  allSessions(): SessionRecord[] {
    return [...this.mirror.sessions.values()];
  }

  async own(ownership: KeyOwnership): Promise<void> {
    await this.write('o', ownership.prefix, '*', JSON.stringify(ownership));
    this.mirror.owners.set(ownership.prefix, ownership);
  }

  ownerOf(prefix: string): KeyOwnership | undefined {
    return this.mirror.owners.get(prefix);
  }

  keysOf(accountId: string): KeyOwnership[] {
    return this.allOwners().filter((o) => o.accountId === accountId);
  }

  allOwners(): KeyOwnership[] {
    return [...this.mirror.owners.values()];
  }

  private async write(table: Table, field: string, expected: string, json: string):
    Promise<boolean> {
    const written = await this.link.command.eval(writeScript, 2, tableKey[table], names.version,
      field, expected, json, `${table}|${field}`);
    return Number(written) === 1;
  }

  private async reloadOne(table: Table, field: string): Promise<void> {
    try {
      const json = await this.link.command.hget(tableKey[table], field);
      const { mirror } = this;
      if (table === 'a') {
        if (json !== null) mirror.putAccount(JSON.parse(json) as AccountRecord);
      } else {
        const map: Map<string, unknown> = table === 's' ? mirror.sessions : mirror.owners;
        if (json === null) map.delete(field);
        else map.set(field, JSON.parse(json));
      }
    } catch (error) {
      // Missed here, caught by the version poll once Redis answers again.
      this.logger.debug('account re-read failed', { table, error: (error as Error).message });
    }
  }

  /** Re-reads every table; swapped whole so a reader never sees a half-built mirror. */
  async reloadAll(): Promise<void> {
    try {
      const { command } = this.link;
      const version = await this.follower.version();
      const [accounts, sessions, owners] = await Promise.all([command.hgetall(names.accounts),
        command.hgetall(names.sessions), command.hgetall(names.owners)]);
      const mirror = new Mirror();
      for (const json of Object.values(accounts)) {
        mirror.putAccount(JSON.parse(json) as AccountRecord);
      }
      for (const [digest, json] of Object.entries(sessions)) {
        mirror.sessions.set(digest, JSON.parse(json) as SessionRecord);
      }
      for (const [prefix, json] of Object.entries(owners)) {
        mirror.owners.set(prefix, JSON.parse(json) as KeyOwnership);
      }
      this.mirror = mirror;
      this.follower.seen(version);
    } catch (error) {
      this.logger.warn('account reload from redis failed', { error: (error as Error).message });
    }
  }
}
