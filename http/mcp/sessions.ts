// The open MCP sessions: bounded, least recently used first, closed after an idle time.
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { McpMode } from './types.js';

export interface McpSession {
  readonly id: string;
  readonly mode: McpMode;
  /** Key prefix that opened an API-mode session (only it may use it); '' in free mode. */
  readonly owner: string;
  lastSeenMs: number;
  /** Closes the session's server and transport (their streams end). */
  close(): Promise<void>;
}

/**
 * Map iteration order is insertion order, and a touched session is re-inserted, so the first
 * entry is always the least recently used: expiry and eviction only look at the front.
 */
export class SessionTable<S extends McpSession = McpSession> {
  private readonly byId = new Map<string, S>();
  /** Sessions dropped because the table was full (policy: drop the least recently used). */
  evictedCount = 0;
  expiredCount = 0;

  constructor(
    private readonly options: {
      readonly idleMs: number; readonly max: number; readonly clock: Clock; readonly logger: Logger;
    },
  ) {
    if (!(options.idleMs > 0)) {
      throw new TypeError(`sessionIdleMs must be a positive number (was ${options.idleMs})`);
    }
    if (!Number.isInteger(options.max) || options.max < 1) {
      throw new TypeError(`sessionsMax must be a positive integer (was ${options.max})`);
    }
  }

  get size(): number {
    return this.byId.size;
  }

  /** The live session with this id for this mode and owner, marked as used now. */
  use(id: string, mode: McpMode, owner: string): S | undefined {
    this.sweep();
    const session = this.byId.get(id);
    if (!session || session.mode !== mode || session.owner !== owner) return undefined;
    this.byId.delete(id);
    session.lastSeenMs = this.options.clock.nowMs();
    this.byId.set(id, session);
    return session;
  }

  add(session: S): void {
    this.sweep();
    while (this.byId.size >= this.options.max) {
      const oldest = this.byId.values().next().value as S;
      this.evictedCount += 1;
      this.options.logger.warn('mcp session table full, dropping the least recently used', {
        sessionsMax: this.options.max, mode: oldest.mode,
      });
      this.drop(oldest);
    }
    session.lastSeenMs = this.options.clock.nowMs();
    this.byId.set(session.id, session);
  }

  /** Forgets a session that closed itself (DELETE, transport closed); does not close it. */
  forget(id: string): void {
    this.byId.delete(id);
  }

  /** Closes every session whose last request is older than the idle time. */
  sweep(): void {
    const oldestAllowedMs = this.options.clock.nowMs() - this.options.idleMs;
    for (const session of this.byId.values()) {
      if (session.lastSeenMs > oldestAllowedMs) break;
      this.expiredCount += 1;
      this.drop(session);
    }
  }

  async closeAll(): Promise<void> {
    const all = [...this.byId.values()];
    this.byId.clear();
    await Promise.all(all.map((session) => session.close().catch(() => {})));
  }

  private drop(session: S): void {
    this.byId.delete(session.id);
    session.close().catch((error: unknown) => {
      this.options.logger.warn('mcp session close failed', { error });
    });
  }
}
