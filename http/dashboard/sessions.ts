// Dashboard sessions: a 256-bit random id in the `of_session` cookie, stored only as its
// SHA-256 digest, ended after 12 h without a request or at sign-out, its dashboard key revoked
// with it. The CSRF token is an HMAC of the id, so it is bound to the session and needs no
// storage of its own.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { AccountRecord, AccountStore, SessionRecord } from '../../persistence/accounts.js';

export const SESSION_COOKIE = 'of_session';
export const SESSION_IDLE_MS = 12 * 3_600_000;
/** lastSeen is written at most this often: a poll every few seconds must not write each time. */
const TOUCH_EVERY_MS = 60_000;

export interface ActiveSession {
  readonly record: SessionRecord;
  readonly account: AccountRecord;
  readonly csrfToken: string;
}

export function sessionDigest(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

export function csrfTokenOf(id: string): string {
  return createHmac('sha256', id).update('orderflow csrf v1').digest('base64url');
}

/** The named cookie's value from a Cookie header ('' when absent). */
export function cookieValue(header: string, name: string): string {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return '';
}

/**
 * The session cookie. No Max-Age: the server ends the session after 12 h idle, and a fixed
 * browser-side age would cut off a session that is still in use.
 */
export function sessionCookie(id: string, https: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax` + (https ? '; Secure' : '');
}

export function clearedCookie(https: boolean): string {
  return `${sessionCookie('', https)}; Max-Age=0`;
}

export function tokensEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Revokes a key by prefix (the key table's revoke; idempotent). */
export type RevokeKey = (prefix: string) => Promise<unknown>;

export class SessionManager {
  constructor(private readonly accounts: AccountStore, private readonly clock: Clock,
    private readonly revokeKey: RevokeKey) {}

  /** A new session for the account: the id (for the cookie only) and its record. */
  async start(account: AccountRecord): Promise<{ id: string; record: SessionRecord }> {
    const id = randomBytes(32).toString('base64url');
    const nowMs = this.clock.nowMs();
    const record: SessionRecord = {
      digest: sessionDigest(id), accountId: account.id, createdAtMs: nowMs, lastSeenMs: nowMs,
      keyPrefix: null,
    };
    await this.accounts.putSession(record);
    return { id, record };
  }

  /** The live session the cookie names, or undefined (expired ones are removed on sight). */
  async resolve(cookieHeader: string): Promise<(ActiveSession & { id: string }) | undefined> {
    const id = cookieValue(cookieHeader, SESSION_COOKIE);
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const digest = sessionDigest(id);
    const record = this.accounts.session(digest) ?? await this.accounts.fetchSession?.(digest);
    if (record === undefined) return undefined;
    const nowMs = this.clock.nowMs();
    const account = this.accounts.byId(record.accountId);
    if (account === undefined || this.isOver(record, nowMs)) {
      await this.end(record);
      return undefined;
    }
    let current = record;
    if (nowMs - record.lastSeenMs >= TOUCH_EVERY_MS) {
      current = { ...record, lastSeenMs: nowMs };
      await this.accounts.putSession(current);
    }
    return { id, record: current, account, csrfToken: csrfTokenOf(id) };
  }

  async setKey(record: SessionRecord, keyPrefix: string): Promise<SessionRecord> {
    const next = { ...record, keyPrefix };
    await this.accounts.putSession(next);
    return next;
  }

  /** Ends the session: its key is revoked first, so no key outlives its session. */
  async end(record: SessionRecord): Promise<void> {
    if (record.keyPrefix !== null) await this.revokeKey(record.keyPrefix);
    await this.accounts.removeSession(record.digest);
  }

  /**
   * Idle past the limit, or its account disabled. (An account not known here is not enough: a
   * shared store's mirror may hear of a new account just after its first session.)
   */
  isOver(record: SessionRecord, nowMs: number,
    account: AccountRecord | undefined = this.accounts.byId(record.accountId)): boolean {
    return nowMs - record.lastSeenMs > SESSION_IDLE_MS ||
      (account !== undefined && account.disabledAtMs !== null);
  }
}
