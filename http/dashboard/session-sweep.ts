// Ends expired dashboard sessions on a timer and revokes their keys, so a session's key stops
// working when its session does (not at the account's next sign-in); and revokes any session
// key left without a live session (a process that stopped between two steps, earlier versions).
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { AccountRecord, AccountStore } from '../../persistence/accounts.js';
import { isLive, type AccountKeys } from './account-deps.js';
import type { SessionManager } from './sessions.js';

/** How often the sweep runs (wall time); a key outlives its session by at most this much. */
export const SESSION_SWEEP_MS = 60_000;
/**
 * A session key with no live session is revoked only once it is this old (service clock): a
 * sign-in on another front makes its key a moment before its session names it.
 */
export const ORPHAN_KEY_GRACE_MS = 5 * 60_000;

export interface SweepDeps {
  readonly accounts: AccountStore;
  readonly keys: Pick<AccountKeys, 'revoke' | 'byPrefix'>;
  readonly sessions: SessionManager;
  readonly clock: Clock;
  readonly logger: Logger;
}

export class SessionSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SweepDeps) {}

  /** Sweeps every `everyMs` (unref'd: never keeps a process up). */
  start(everyMs: number = SESSION_SWEEP_MS): void {
    if (!(everyMs > 0)) throw new TypeError(`everyMs must be a positive number (was ${everyMs})`);
    if (this.timer !== null) return;
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.sweepLogged());
    }, everyMs);
    this.timer.unref();
  }

  /** Stops the timer; resolves once a sweep under way has finished. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass: the sessions ended and the orphaned keys revoked. */
  async sweep(): Promise<{ sessionsEnded: number; orphansRevoked: number }> {
    const { accounts, keys, sessions, clock } = this.deps;
    const nowMs = clock.nowMs();
    const named = new Set<string>();
    // One read per account, not per session (each read of the lmdb store renews its snapshot).
    const seen = new Map<string, AccountRecord | undefined>();
    const accountOf = (id: string) => {
      if (!seen.has(id)) seen.set(id, accounts.byId(id));
      return seen.get(id);
    };
    let sessionsEnded = 0;
    for (const session of accounts.allSessions()) {
      if (sessions.isOver(session, nowMs, accountOf(session.accountId))) {
        await sessions.end(session);
        sessionsEnded += 1;
      } else if (session.keyPrefix !== null) named.add(session.keyPrefix);
    }
    // The two scans in two turns: each is ~30-60 ms at 10,000 sessions on the lmdb store.
    await new Promise((resolve) => setImmediate(resolve));
    let orphansRevoked = 0;
    for (const owner of accounts.allOwners()) {
      if (!owner.session || named.has(owner.prefix)) continue;
      const key = keys.byPrefix(owner.prefix);
      if (!isLive(key) || nowMs - key.createdAtMs < ORPHAN_KEY_GRACE_MS) continue;
      await keys.revoke(owner.prefix);
      orphansRevoked += 1;
    }
    return { sessionsEnded, orphansRevoked };
  }

  private async sweepLogged(): Promise<void> {
    try {
      const swept = await this.sweep();
      if (swept.sessionsEnded + swept.orphansRevoked > 0) {
        this.deps.logger.info('dashboard sessions swept', swept);
      }
    } catch (error) {
      // The next pass tries again (a store or Redis that did not answer this time).
      this.deps.logger.warn('dashboard session sweep failed', { error: (error as Error).message });
    }
  }
}
