// Dashboard accounts: who may sign in (email, plan, scrypt digest), their sessions (by digest
// only) and which API keys each account owns. An interface, so the lmdb store here can be
// replaced by a shared one (Redis) when the front scales out.
import type { Plan } from '../core/messages.js';

export interface AccountRecord {
  /** `acc_` + 16 hex. */
  readonly id: string;
  /** Lower case, trimmed: the sign-in name. */
  readonly email: string;
  /** Caps the plans of the keys the account creates. */
  readonly plan: Plan;
  /** persistence/passwords.ts format; never the password. */
  readonly passwordDigest: string;
  readonly createdAtMs: number;
  readonly disabledAtMs: number | null;
}

export interface SessionRecord {
  /** SHA-256 of the 256-bit session id (hex): the id itself is only in the cookie. */
  readonly digest: string;
  readonly accountId: string;
  readonly createdAtMs: number;
  readonly lastSeenMs: number;
  /** The key the session's pages read the data endpoints with (revoked when the session ends
   *  or expires). */
  readonly keyPrefix: string | null;
}

export interface KeyOwnership {
  readonly prefix: string;
  readonly accountId: string;
  /** A session's own dashboard key: not listed under API Keys. */
  readonly session: boolean;
}

export type AccountErrorCode = 'duplicate_email' | 'unknown_account' | 'accounts_full';

export class AccountError extends Error {
  constructor(readonly code: AccountErrorCode, message: string) {
    super(message);
    this.name = 'AccountError';
  }
}

export interface NewAccount {
  readonly email: string;
  readonly plan: Plan;
  readonly passwordDigest: string;
}

export interface AccountStore {
  create(input: NewAccount, nowMs: number): Promise<AccountRecord>;
  byId(id: string): AccountRecord | undefined;
  byEmail(email: string): AccountRecord | undefined;
  /** Every account, oldest first. */
  list(): AccountRecord[];
  /** Applies `change` to the account found by id or email; AccountError when none. */
  update(idOrEmail: string, change: (current: AccountRecord) => AccountRecord):
    Promise<AccountRecord>;

  putSession(session: SessionRecord): Promise<void>;
  session(digest: string): SessionRecord | undefined;
  /** A shared store's read of a session `session` did not know yet (made by another process
   *  a moment ago); absent where `session` already sees every session. */
  fetchSession?(digest: string): Promise<SessionRecord | undefined>;
  removeSession(digest: string): Promise<void>;
  sessionsOf(accountId: string): SessionRecord[];
  /** Every account's sessions (the sweep ends the expired ones). */
  allSessions(): SessionRecord[];

  own(ownership: KeyOwnership): Promise<void>;
  ownerOf(prefix: string): KeyOwnership | undefined;
  keysOf(accountId: string): KeyOwnership[];
  /** Every account's keys (the sweep revokes session keys left without their session). */
  allOwners(): KeyOwnership[];
}

/** Emails are compared in one form. */
export function normalizeEmail(text: string): string {
  return text.trim().toLowerCase();
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,60}$/;

export function isEmail(text: string): boolean {
  return EMAIL.test(text);
}
