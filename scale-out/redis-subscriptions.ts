// The channels a process listens to on its subscriber connection (redis-link.ts). Each is
// subscribed here, on `listen` and again on every (re)connect, with every failure caught and
// retried while the connection is up. Not by ioredis's own re-subscribe (autoResubscribe): its
// promise is held by nobody, so a SUBSCRIBE that timed out because the event loop was busy past
// the command timeout (the reconnect work) became an unhandled rejection, which ended the process.
import type { Redis } from 'ioredis';
import type { Logger } from '../core/logger.js';

/** First wait before a failed SUBSCRIBE is tried again; doubled per failure up to the max. */
const retryMsMin = 100;
const retryMsMax = 2_000;

export type ChannelListener = (message: Buffer) => void;

export class Subscriptions {
  private readonly channels = new Map<string, Set<ChannelListener>>();
  /** Channels Redis confirmed on the current connection. */
  private confirmed = new Set<string>();
  /** Counts connections: a SUBSCRIBE answered on an older one confirms nothing. */
  private connection = 0;
  private syncing = false;
  /** SUBSCRIBE attempts that failed (each retried while the connection is up). */
  failures = 0;

  constructor(private readonly client: Redis, private readonly logger: Logger) {
    // Only `messageBuffer`: with any 'message' listener on the connection, ioredis decodes every
    // message as UTF-8 first, and the snapshot channel carries batches of binary frames many
    // times a second, all of which would be decoded for nothing.
    client.on('messageBuffer', (channel: Buffer, message: Buffer) => {
      const listeners = this.channels.get(channel.toString('latin1'));
      if (listeners !== undefined) for (const listener of listeners) listener(message);
    });
    client.on('ready', () => {
      this.connection++;
      this.confirmed = new Set();
      this.sync();
    });
  }

  /** Calls `listener` with each message's bytes from now on; returns the listener's removal
   *  (the channel stays subscribed: a second SUBSCRIBE of it would be a no-op anyway). */
  listen(channel: string, listener: ChannelListener): () => void {
    let listeners = this.channels.get(channel);
    if (listeners === undefined) this.channels.set(channel, listeners = new Set());
    listeners.add(listener);
    this.sync();
    return () => listeners.delete(listener);
  }

  /** Subscribes whatever is not confirmed yet; one loop at a time picks up every channel. */
  private sync(): void {
    if (this.syncing || this.client.status !== 'ready') return;
    this.syncing = true;
    this.subscribeMissing().catch((error: Error) => {
      // Not expected (every attempt is caught below): said, never left to the process.
      this.logger.error('redis subscription loop failed', { error: error.message });
    }).finally(() => {
      this.syncing = false;
      if (this.missing().length > 0) this.sync();
    });
  }

  private missing(): string[] {
    return [...this.channels.keys()].filter((channel) => !this.confirmed.has(channel));
  }

  private async subscribeMissing(): Promise<void> {
    let retryMs = retryMsMin;
    for (;;) {
      const missing = this.missing();
      if (missing.length === 0 || this.client.status !== 'ready') return;
      const connection = this.connection;
      try {
        await this.client.subscribe(...missing);
        if (connection === this.connection) for (const channel of missing) {
          this.confirmed.add(channel);
        }
        retryMs = retryMsMin;
      } catch (error) {
        this.failures++;
        this.logger.warn('subscribing to redis channels failed; retrying', {
          channels: missing.length, retryMs, error: (error as Error).message });
        await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
        retryMs = Math.min(retryMs * 2, retryMsMax);
      }
    }
  }
}
