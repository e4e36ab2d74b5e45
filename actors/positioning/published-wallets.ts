// Each tracked wallet's view as last published (on a change of its state), kept as the record it
// was built from and encoded only when a request asks: the HTTP store mounts this as the
// `wallets/<address>` family.
import type { LazyViewListener, WatchedViewSource } from '../../core/view-meta.js';
import { stringifyRounded } from '../../core/json-numbers.js';
import { isoMs } from '../views/encode.js';
import type { WalletRecord } from './types.js';
import { buildWalletView } from './views.js';

/** `{...view, updatedAt, cadenceMs}` from the view's JSON: the bytes encodeFeedView makes. */
export function withFreshness(json: string, updatedAtMs: number, cadenceMs: number): string {
  return `${json.slice(0, -1)},"updatedAt":"${isoMs(updatedAtMs)}","cadenceMs":${cadenceMs}}`;
}

/** The wallet view's JSON (item of the wallets view); null before the wallet's first state. */
export function walletJson(record: WalletRecord): string | null {
  const view = buildWalletView(record);
  return view === null ? null : stringifyRounded(view);
}

/** One wallet's published view: what a snapshot entry holds, less the bytes and validators. */
export class PublishedWallet {
  /** `record` is a snapshot (never mutated), so its JSON is the same whenever it is made. */
  constructor(readonly record: WalletRecord, readonly updatedAtMs: number,
    readonly version: number, readonly cadenceMs: number) {}

  encode(): Buffer {
    return Buffer.from(withFreshness(walletJson(this.record)!, this.updatedAtMs,
      this.cadenceMs));
  }
}

/**
 * Why records, not bytes: a Buffer, an ETag and an entry for each of thousands of wallets would
 * be held on the main thread, and made again on every refresh, for views rarely asked for; the
 * record is held anyway. Bounded by the tracker: a refresh drops the
 * wallets it no longer tracks (retainOnly).
 */
export class PublishedWallets implements WatchedViewSource {
  private readonly byAddress = new Map<string, PublishedWallet>();
  private readonly listeners: LazyViewListener[] = [];
  private published = 0;

  /** `nextVersion` numbers every publish, like the producer's other views. */
  constructor(private readonly cadenceMs: number, private readonly nextVersion: () => number) {}

  /** Publishes the record as of nowMs unless its state is the one last published; false then
   *  (and for a wallet with no state yet). */
  publish(record: WalletRecord, nowMs: number): boolean {
    if (record.state === null) return false;
    const known = this.byAddress.get(record.address);
    if (known !== undefined && known.record.state?.tsMs === record.state.tsMs) return false;
    const wallet = new PublishedWallet(record, nowMs, this.nextVersion(), this.cadenceMs);
    this.byAddress.set(record.address, wallet);
    this.published++;
    for (const listener of this.listeners) listener(record.address, wallet);
    return true;
  }

  /** The wallet's published view (the store's lazy source: the key is the address). */
  view(address: string): PublishedWallet | undefined {
    return this.byAddress.get(address);
  }

  retainOnly(addresses: ReadonlySet<string>): void {
    for (const address of this.byAddress.keys()) {
      if (addresses.has(address)) continue;
      this.byAddress.delete(address);
      for (const listener of this.listeners) listener(address, undefined);
    }
  }

  /** The addresses with a published view. */
  keys(): Iterable<string> {
    return this.byAddress.keys();
  }

  /** Told of each publish and drop from now on (a scale-out ingest's publisher). */
  watch(listener: LazyViewListener): void {
    this.listeners.push(listener);
  }

  /** Publishes so far (for the refresh's debug log and the tests). */
  get publishedCount(): number {
    return this.published;
  }

  get size(): number {
    return this.byAddress.size;
  }
}
