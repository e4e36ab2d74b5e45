// The connection to Redis for scale-out (docs/scale-out.md): one client for commands and one for
// subscriptions, set to fail fast while Redis is away (callers fall back to local state) and to
// reconnect quickly, so a front catches up within seconds of Redis returning.
import type { Command, Redis } from 'ioredis';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../core/logger.js';
import { Subscriptions } from './redis-subscriptions.js';

/** Every name this service uses in Redis starts with this. */
export const redisNames = Object.freeze({
  /** Hash: view name -> snapshot frame (each view's latest bytes, written every few hundred ms
   *  and when a front asks: scale-out/snapshot-hash.ts). */
  snapshots: 'orderflow:snap',
  /** Channel: snapshot frames as ingest puts them, and its heartbeats. */
  snapshotChannel: 'orderflow:snap',
  /** Channel: a front's ask (a random id) that ingest write the hash now. */
  snapshotAsk: 'orderflow:snap:ask',
  /** Channel: the id of an ask, published once the hash holds every view put before it. */
  snapshotFlushed: 'orderflow:snap:flushed',
  /** Stream: closed 1-minute history points as ingest records them (msgpack batches). */
  history: 'orderflow:history',
  /** Channel: a front's ask for the next chunk of its bulk copy of ingest's history (JSON). */
  historyCopyAsk: 'orderflow:history-copy:ask',
  /** Channel: the key of a chunk ingest has just written (the ask's key). */
  historyCopyReady: 'orderflow:history-copy:ready',
  /** String, short-lived: one chunk of a bulk history copy (msgpack), deleted when read. */
  historyCopyChunk: (id: string) => `orderflow:history-copy:${id}`,
  /** Hash: signal_id -> stored signal record (msgpack), the fronts' track record. */
  signals: 'orderflow:signals',
  /** Channel: JSON list of the signal ids that changed, or "*" for all. */
  signalsChannel: 'orderflow:signals:changed',
  /** Hash: key prefix -> KeyRecord as JSON. */
  keys: 'orderflow:keys',
  /** Channel: the prefix of a key that changed (created, revoked, re-planned). */
  keysChannel: 'orderflow:keys:changed',
  /**
   * Hash per usage identity (`key:<prefix>`, `account:<id>`, `ip:<address>`): its burst windows,
   * its day's count (redis-limits.ts). Not the `orderflow:window:` strings nor the
   * `orderflow:burst:` sorted sets of earlier versions: a front of either kind never meets the
   * other's type (WRONGTYPE would fail a whole batch) while a deployment is upgraded.
   */
  limits: (identity: string) => `orderflow:limits:${identity}`,
  /** Counter per Europe/Rome day and usage identity of earlier versions (read when a day
   *  starts in a limits hash, so an upgrade keeps the day's counts). */
  daily: (dayKey: string, identity: string) => `orderflow:daily:${dayKey}:${identity}`,
  /** The dashboard's tables (hashes of JSON records), their version and change channel. */
  accounts: Object.freeze({
    accounts: 'orderflow:accounts',
    emails: 'orderflow:account-emails',
    sessions: 'orderflow:sessions',
    owners: 'orderflow:key-owners',
    version: 'orderflow:accounts:version',
    channel: 'orderflow:accounts:changed',
  }),
  /** Sorted set of failed sign-in times per subject (`email:<e>` or `ip:<address>`). */
  signIn: (subject: string) => `orderflow:signin:${subject}`,
});

/** How long a command may take before the caller treats Redis as away. */
const commandTimeoutMs = 500;
/** Reconnect back-off ceiling: Redis returning is seen within this (plus the reconnect). */
const reconnectMaxMs = 500;

export interface RedisLink {
  /** Commands (auto-pipelined: commands made in one turn leave in one write). */
  readonly command: Redis;
  /** Subscriptions only (a subscribed connection takes no other commands): use `listen`. */
  readonly subscriber: Redis;
  /** ioredis' command class, for commands written at once (publisher, limits). */
  readonly Command: typeof Command;
  /** Subscribes to a channel and calls `listener` with each message's bytes; returns the
   *  listener's removal. */
  listen(channel: string, listener: (message: Buffer) => void): () => void;
  /** Both connections up. */
  ready(): boolean;
  /** Called each time both connections are (again) up, and at once if they are. */
  onReady(listener: () => void): void;
  close(): Promise<void>;
}

type RedisClass = typeof Redis;

export interface RedisLinkOptions {
  /**
   * Tests only (ORDERFLOW_TEST_REDIS_READY_BLOCK_MS, read by bin/scale-out/start.ts): each
   * (re)connect of the subscriber connection holds the event loop this long right after its
   * SUBSCRIBE left, as slow reconnect work would, past that command's timeout. 0 in service.
   */
  readonly testReadyBlockMs?: number;
}

/** Reconnect handlers that together held the event loop longer than this are logged. */
const readyHandlersSlowMs = 100;

function connect(Client: RedisClass, url: string, name: string, logger: Logger): Redis {
  const client = new Client(url, {
    connectionName: `orderflow-${name}`,
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    enableAutoPipelining: true,
    // The subscriptions are made again by Subscriptions, which catches and retries them.
    autoResubscribe: false,
    retryStrategy: (times) => Math.min(50 * times, reconnectMaxMs),
  });
  let down = false;
  const lost = (why: string) => {
    if (down || client.status === 'end') return; // 'end': closed on purpose
    down = true;
    logger.warn('redis unreachable; serving from local state', { connection: name, error: why });
  };
  client.on('error', (error: Error) => lost(error.message));
  // A server that stops closes the socket, often with no error on it.
  client.on('close', () => lost('connection closed'));
  client.on('ready', () => {
    if (down) logger.info('redis back', { connection: name });
    down = false;
  });
  return client;
}

/** Holds the event loop for `ms` (the test hook of RedisLinkOptions). */
function holdEventLoop(ms: number): void {
  const untilMs = performance.now() + ms;
  while (performance.now() < untilMs) { /* held on purpose */ }
}

/**
 * Connects both clients; does not wait for Redis (a front starts and serves without it).
 * ioredis is loaded here, not with the service: a single box never needs it, and its modules
 * would cost the main thread time at every start.
 */
export async function openRedisLink(url: string, logger: Logger,
  options: RedisLinkOptions = {}): Promise<RedisLink> {
  const { Redis: Client, Command: CommandClass } = await import('ioredis');
  const command = connect(Client, url, 'command', logger);
  const subscriber = connect(Client, url, 'subscriber', logger);
  // Before the ready handlers below: a (re)connect's SUBSCRIBE leaves before their work.
  const subscriptions = new Subscriptions(subscriber, logger);
  const blockMs = options.testReadyBlockMs ?? 0;
  if (blockMs > 0) subscriber.on('ready', () => holdEventLoop(blockMs));
  const listeners: (() => void)[] = [];
  const ready = () => command.status === 'ready' && subscriber.status === 'ready';
  const fire = () => {
    if (!ready()) return;
    const startMs = performance.now();
    for (const listener of listeners) {
      // One handler's fault is said and does not keep the others from running.
      try {
        listener();
      } catch (error) {
        logger.error('a redis reconnect handler failed', { error: (error as Error).message,
          stack: (error as Error).stack });
      }
    }
    const heldMs = performance.now() - startMs;
    if (heldMs > readyHandlersSlowMs) {
      logger.warn('redis reconnect handlers held the event loop', { heldMs: Math.round(heldMs) });
    }
  };
  command.on('ready', fire);
  subscriber.on('ready', fire);
  return {
    command, subscriber, ready, Command: CommandClass,
    listen: (channel, listener) => subscriptions.listen(channel, listener),
    onReady(listener) {
      listeners.push(listener);
      if (ready()) listener();
    },
    async close() {
      command.disconnect();
      subscriber.disconnect();
    },
  };
}
