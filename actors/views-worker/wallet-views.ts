// The wallet views in the views worker: the tracker fed with the wallets' states and the shards'
// whale prints, and the views built from it (positioning-views.ts, as the main thread built them):
// smart money, wallets, each wallet, each tracked pair's smart-money split and liquidation map.
// Their bytes go to the main thread with their ETags and the producer's versions.
import type { MessagePort } from 'node:worker_threads';
import { strongEtag } from '../../core/etag.js';
import { ownedBytes } from '../../core/owned-bytes.js';
import type { Logger } from '../../core/logger.js';
import type { LazyViewSource, ViewMeta } from '../../core/view-meta.js';
import { isWatchedSource } from '../../core/view-meta.js';
import { postFrame, type ProtocolHandlers } from '../shard/protocol.js';
import { PositioningViews, type PositioningSink } from '../runtime/positioning-views.js';
import type { Market } from '../runtime/wallet-refresh.js';
import {
  viewsTypes, type FinishedView, type MainToViews, type PublishedWalletView,
} from './protocol.js';

/** Wallets' views per message: the main thread's turn reading one stays well under 1 ms. */
const walletsPerMessageMax = 256;

type WalletMessages = Extract<MainToViews, { type: typeof viewsTypes.walletInputs |
  typeof viewsTypes.refreshWallets | typeof viewsTypes.pollDue | typeof viewsTypes.pollFailed }>;

/** Collects the wallet views' puts and each wallet's publishes; `flush` posts them. */
class WalletSink implements PositioningSink {
  private readonly known = new Map<string, { etag: string; version: number }>();
  private views: FinishedView[] = [];
  private readonly published = new Map<string, { view: Omit<PublishedWalletView, 'start' |
    'end'>; body: Uint8Array }>();
  private readonly dropped = new Set<string>();

  put(name: string, body: Uint8Array, meta: ViewMeta): void {
    const etag = meta.etag ?? strongEtag(body);
    this.known.set(name, { etag, version: meta.version });
    this.views.push({ name, body: ownedBytes(body), etag, updatedAtMs: meta.updatedAtMs,
      cadenceMs: meta.cadenceMs, version: meta.version });
  }

  get(name: string): { etag: string; version: number } | undefined {
    return this.known.get(name);
  }

  delete(name: string): void {
    this.known.delete(name);
  }

  /** The wallets' family: each publish encoded and hashed here, not on the main thread. */
  mount(_prefix: string, source: LazyViewSource): void {
    if (!isWatchedSource(source)) throw new TypeError('the wallets family must be watched');
    source.watch((address, view) => {
      if (view === undefined) {
        this.published.delete(address);
        this.dropped.add(address);
        return;
      }
      const body = view.encode();
      this.dropped.delete(address);
      this.published.set(address, { body, view: { address, etag: strongEtag(body),
        updatedAtMs: view.updatedAtMs, cadenceMs: view.cadenceMs, version: view.version } });
    });
  }

  flush(port: MessagePort): void {
    if (this.views.length > 0) {
      const views = this.views;
      this.views = [];
      postFrame(port, { type: viewsTypes.put, views }, views.map((v) => v.body.buffer as
        ArrayBuffer));
    }
    if (this.published.size === 0 && this.dropped.size === 0) return;
    const all = [...this.published.values()];
    this.published.clear();
    for (let i = 0; i < all.length || i === 0; i += walletsPerMessageMax) {
      const chunk = all.slice(i, i + walletsPerMessageMax);
      const last = i + walletsPerMessageMax >= all.length;
      const bodies = new Uint8Array(chunk.reduce((sum, w) => sum + w.body.byteLength, 0));
      let at = 0;
      const published = chunk.map(({ view, body }) => {
        bodies.set(body, at);
        at += body.byteLength;
        return { ...view, start: at - body.byteLength, end: at };
      });
      const dropped = last ? [...this.dropped] : [];
      postFrame(port, { type: viewsTypes.wallets, published, bodies, dropped }, [bodies.buffer]);
    }
    this.dropped.clear();
  }
}

/** The wallet messages' handlers; `markets` is the newest universe the worker holds. */
export function walletViewsHandlers(port: MessagePort, cadenceMs: number, log: Logger,
  markets: () => readonly Market[]): ProtocolHandlers<WalletMessages> {
  const sink = new WalletSink();
  const positioning = new PositioningViews(sink, cadenceMs, log);
  return {
    [viewsTypes.walletInputs]: (message) => {
      for (const state of message.states) positioning.applyWallet(state);
      positioning.applyWhalePrints(message.prints);
    },
    [viewsTypes.refreshWallets]: (message) => {
      positioning.refreshWallets(message.nowMs, markets(), message.tracked);
      void positioning.settled().then(() => {
        sink.flush(port);
        const bySymbol: Record<string, string> = {};
        for (const symbol of message.tracked) bySymbol[symbol] = positioning.smartMoneyJson(symbol);
        postFrame(port, { type: viewsTypes.smartMoney, bySymbol });
        postFrame(port, { type: viewsTypes.refreshed, id: message.id });
      });
    },
    [viewsTypes.pollDue]: (message) => {
      const addresses = positioning.tracker.dueForPoll(message.nowMs, message.max);
      postFrame(port, { type: viewsTypes.pollDueAnswer, id: message.id, addresses });
    },
    [viewsTypes.pollFailed]: (message) => {
      positioning.tracker.pollFailed(message.address, message.nowMs);
    },
  };
}
