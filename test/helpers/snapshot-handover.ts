// Ingest's publisher and fronts' subscribers on a real Redis, as the scale-out roles wire them,
// for the tests of how snapshots travel (the hash, patches). One ingest at a time, as in a
// deployment: an earlier test's publisher still listening would answer a front's ask too.
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { SnapshotStore } from '../../http/snapshots.js';
import type { RedisLink } from '../../scale-out/redis-link.js';
import { SnapshotPublisher, type PublisherOptions } from '../../scale-out/publisher.js';
import { SnapshotSubscriber } from '../../scale-out/subscriber.js';
import { eventually } from './eventually.js';
import { readyLink, type RedisServer } from './redis-server.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface Ingest {
  readonly store: SnapshotStore;
  readonly sink: ReturnType<SnapshotPublisher['sink']>;
  readonly publisher: SnapshotPublisher;
}

export interface Front { readonly store: SnapshotStore; readonly subscriber: SnapshotSubscriber }

export class HandoverRig {
  private readonly links: RedisLink[] = [];
  readonly publishers: SnapshotPublisher[] = [];
  private readonly proxies: TcpProxy[] = [];

  constructor(private readonly redis: RedisServer, private readonly options: PublisherOptions) {}

  link(url = this.redis.url): Promise<RedisLink> {
    return readyLink(url, this.links);
  }

  /** A proxy to this Redis that a test can cut and restore. */
  async proxy(): Promise<TcpProxy> {
    const proxy = await startTcpProxy(this.redis.port);
    this.proxies.push(proxy);
    return proxy;
  }

  /** A new ingest; every earlier one stops. */
  async ingest(): Promise<Ingest> {
    for (const earlier of this.publishers) earlier.stop();
    const publisher = new SnapshotPublisher(await this.link(), silentLogger, this.options);
    this.publishers.push(publisher);
    const store = new SnapshotStore();
    const sink = publisher.sink(store);
    publisher.start();
    return { store, sink, publisher };
  }

  /** A front, once it has loaded; `url`: the Redis it talks to (a proxy to cut it). */
  async front(askTimeoutMs = 1_000, url = this.redis.url): Promise<Front> {
    const store = new SnapshotStore();
    const subscriber = new SnapshotSubscriber(await this.link(url), store, systemClock,
      silentLogger, { askTimeoutMs });
    subscriber.start();
    await eventually(() => subscriber.loaded(), { message: 'front loaded' });
    return { store, subscriber };
  }

  async close(): Promise<void> {
    for (const publisher of this.publishers) publisher.stop();
    for (const link of this.links) await link.close();
    for (const proxy of this.proxies) await proxy.close();
  }
}

/** Whether the front holds every named view with ingest's ETag. */
export function holdsAll(front: Front, from: Ingest, names: readonly string[]): boolean {
  return names.every((name) => front.store.get(name)?.etag === from.store.get(name)?.etag &&
    front.store.get(name) !== undefined);
}
