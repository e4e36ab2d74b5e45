// How a process keeps an in-memory mirror of a Redis table current (the key table, the
// dashboard's accounts): a change channel names each changed record, every (re)connect reloads
// the table, and a version counter polled each second catches what a lost message hid.
import type { RedisLink } from './redis-link.js';

export interface MirrorHooks {
  /** A record changed: the channel's message names it. */
  changed(message: string): void;
  /** Re-read the whole table (reads the version first, then calls `seen` with it). */
  reload(): Promise<void>;
}

const versionPollMs = 1_000;

export class MirrorFollower {
  private seenVersion: string | null = null;
  private pollTimer: NodeJS.Timeout | null = null;

  constructor(private readonly link: RedisLink, private readonly channel: string,
    private readonly versionKey: string, private readonly hooks: MirrorHooks) {}

  watch(): void {
    this.link.listen(this.channel, (message) => this.hooks.changed(message.toString('utf8')));
    this.link.onReady(() => void this.hooks.reload());
    this.pollTimer = setInterval(() => void this.poll(), versionPollMs);
    this.pollTimer.unref();
  }

  close(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  /** The table's version now (read before the table, so a change in between reloads again). */
  version(): Promise<string | null> {
    return this.link.command.get(this.versionKey);
  }

  /** The mirror now holds the table as of `version`. */
  seen(version: string | null): void {
    this.seenVersion = version;
  }

  private async poll(): Promise<void> {
    if (!this.link.ready()) return;
    try {
      if (await this.version() !== this.seenVersion) await this.hooks.reload();
    } catch {
      // Redis away: the mirror keeps serving; the next ready reloads it.
    }
  }
}
