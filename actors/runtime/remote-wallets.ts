// Each wallet's view as the views worker published it (bytes, ETag, version), held on the main
// thread and served as the store's `wallets/<address>` family: a request only looks it up.
import type {
  LazyView, LazyViewListener, WatchedViewSource,
} from '../../core/view-meta.js';
import type { PublishedWalletView } from '../views-worker/protocol.js';

class RemoteWallet implements LazyView {
  constructor(readonly version: number, readonly updatedAtMs: number, readonly cadenceMs: number,
    readonly etag: string, private readonly body: Uint8Array) {}

  encode(): Uint8Array {
    return this.body;
  }
}

/**
 * Why bytes here, not records: the records live in the worker, and a request cannot wait for
 * it. Bounded by the worker's tracker: it drops the wallets it no longer tracks.
 */
export class RemoteWallets implements WatchedViewSource {
  private readonly byAddress = new Map<string, RemoteWallet>();
  private readonly listeners: LazyViewListener[] = [];

  /**
   * `bodies` holds the published views' bytes (each keeps a view of it, not a copy);
   * `versionFrom` is added to the worker's versions (it counts again from 0 after a restart).
   */
  apply(published: readonly PublishedWalletView[], bodies: Uint8Array,
    dropped: readonly string[], versionFrom: number): void {
    for (const view of published) {
      const wallet = new RemoteWallet(versionFrom + view.version, view.updatedAtMs,
        view.cadenceMs, view.etag, bodies.subarray(view.start, view.end));
      this.byAddress.set(view.address, wallet);
      for (const listener of this.listeners) listener(view.address, wallet);
    }
    for (const address of dropped) {
      if (!this.byAddress.delete(address)) continue;
      for (const listener of this.listeners) listener(address, undefined);
    }
  }

  view(address: string): LazyView | undefined {
    return this.byAddress.get(address);
  }

  keys(): Iterable<string> {
    return this.byAddress.keys();
  }

  watch(listener: LazyViewListener): void {
    this.listeners.push(listener);
  }

  get size(): number {
    return this.byAddress.size;
  }
}
