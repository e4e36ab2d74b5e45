// The lmdb account store: accounts keyed by id with an email index, sessions keyed by their
// digest, and key ownership keyed by key prefix. Writes are transactions, so the command line
// and a running server never lose each other's change.
import { randomBytes } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import {
  AccountError, normalizeEmail, type AccountRecord, type AccountStore, type KeyOwnership,
  type NewAccount, type SessionRecord,
} from './accounts.js';
import { openTable } from './table.js';

/** Bound on accounts in one store (the command line and open sign-up both stop there). */
export const ACCOUNTS_MAX = 100_000;

export function newAccountId(): string {
  return `acc_${randomBytes(8).toString('hex')}`;
}

export function openAccountStore(root: RootDatabase): AccountStore {
  const accounts = openTable<AccountRecord, string>(root, 'accounts');
  const emails = openTable<string, string>(root, 'account_emails');
  const sessions = openTable<SessionRecord, string>(root, 'account_sessions');
  const owners = openTable<KeyOwnership, string>(root, 'account_keys');
  // Another process (the command line) may have written since this process's read began.
  const fresh = () => root.resetReadTxn();
  const allOf = <T>(table: Database<T, string>): T[] => {
    fresh();
    return [...table.getRange({})].map((e) => e.value);
  };
  const find = (idOrEmail: string) => {
    fresh();
    const id = idOrEmail.startsWith('acc_') ? idOrEmail : emails.get(normalizeEmail(idOrEmail));
    return id === undefined ? undefined : accounts.get(id);
  };
  return {
    async create(input: NewAccount, nowMs: number) {
      const email = normalizeEmail(input.email);
      const record: AccountRecord = {
        id: newAccountId(), email, plan: input.plan, passwordDigest: input.passwordDigest,
        createdAtMs: nowMs, disabledAtMs: null,
      };
      await root.transaction(() => {
        if (emails.get(email) !== undefined) {
          throw new AccountError('duplicate_email', `an account with the email ${email} exists`);
        }
        if (accounts.getCount() >= ACCOUNTS_MAX) {
          throw new AccountError('accounts_full', `the store holds ${ACCOUNTS_MAX} accounts`);
        }
        accounts.putSync(record.id, record);
        emails.putSync(email, record.id);
      });
      return record;
    },
    byId: (id) => (fresh(), accounts.get(id)),
    byEmail: (email) => find(normalizeEmail(email)),
    list() {
      fresh();
      return [...accounts.getRange({})].map((e) => e.value)
        .sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id));
    },
    async update(idOrEmail, change) {
      let next: AccountRecord | undefined;
      await root.transaction(() => {
        const current = find(idOrEmail);
        if (current === undefined) {
          throw new AccountError('unknown_account', `no account is ${idOrEmail}`);
        }
        next = change(current);
        if (next.id !== current.id || next.email !== current.email) {
          throw new Error('an account update may not change its id or email');
        }
        accounts.putSync(current.id, next);
      });
      return next as AccountRecord;
    },
    putSession: async (session) => { await sessions.put(session.digest, session); },
    session: (digest) => sessions.get(digest),
    removeSession: async (digest) => { await sessions.remove(digest); },
    sessionsOf: (accountId) => allOf(sessions).filter((s) => s.accountId === accountId),
    allSessions: () => allOf(sessions),
    own: async (ownership) => { await owners.put(ownership.prefix, ownership); },
    ownerOf: (prefix) => (fresh(), owners.get(prefix)),
    keysOf: (accountId) => allOf(owners).filter((o) => o.accountId === accountId),
    allOwners: () => allOf(owners),
  };
}
