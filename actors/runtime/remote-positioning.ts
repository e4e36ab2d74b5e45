// The wallet views as the main thread holds them when the views worker builds them: the wallets'
// states and the shards' whale prints are sent on (and kept, bounded, for a restarted worker),
// the finished views swapped into the store, each wallet's bytes served from `wallets`, and each
// tracked pair's smart money kept for the shards. The live poller asks the worker's tracker.
import { limits } from '../../core/config.js';
import type { WalletStateEvent, WhalePrint } from '../../core/messages.js';
import { emptySmartMoneyJson } from '../positioning/pair-positioning.js';
import type { WalletPollTarget } from '../positioning/wallet-poller.js';
import { viewName } from '../topics.js';
import type { ProtocolHandlers } from '../shard/protocol.js';
import {
  viewsTypes, type FinishedView, type MainToViews, type ViewsToMain,
} from '../views-worker/protocol.js';
import type { PositioningSink } from './positioning-views.js';
import { RemoteWallets } from './remote-wallets.js';

/** Whale prints kept for a restarted worker: the newest, about a cadence of a busy market's. */
const printsKeptMax = 20_000;

type WalletAnswers = Extract<ViewsToMain, { type: typeof viewsTypes.wallets |
  typeof viewsTypes.smartMoney | typeof viewsTypes.pollDueAnswer }>;

export interface WalletWorkerLink {
  running(): boolean;
  /** Posts after the inputs applied before it. */
  send(message: MainToViews): void;
  /** Asks for a refresh `id`-answered with `ViewsRefreshed` (resolved when the worker is gone). */
  ask(message: (id: number) => MainToViews): Promise<void>;
}

export class RemotePositioning implements WalletPollTarget {
  readonly wallets = new RemoteWallets();
  private readonly smartMoney = new Map<string, string>();
  /** Each address's newest state, and the newest prints: what a restarted worker is sent. */
  private readonly states = new Map<string, WalletStateEvent>();
  private prints: WhalePrint[] = [];
  private statesPending: WalletStateEvent[] = [];
  private printsPending: WhalePrint[] = [];
  private readonly due = new Map<number, (addresses: string[]) => void>();
  private dueId = 0;
  /** The highest version stored: a restarted worker's versions are counted on from it. */
  private versionMax = 0;
  private versionFrom = 0;
  /** After a restart, the wallets the new worker published; the others go at its first refresh. */
  private republished: Set<string> | null = null;
  private refreshing: Promise<void> | null = null;
  /** A refresh asked for while the worker was down: run once it is up. */
  private deferred: { nowMs: number; tracked: readonly string[] } | null = null;
  private smartMoneyListener: () => void = () => {};

  constructor(private readonly sink: PositioningSink, private readonly link: WalletWorkerLink) {
    sink.mount(viewName('wallets', ''), this.wallets);
  }

  /** The worker's answers about wallets, one handler per kind. */
  readonly handlers: ProtocolHandlers<WalletAnswers> = {
    [viewsTypes.wallets]: (message) => {
      for (const view of message.published) {
        this.versionMax = Math.max(this.versionMax, this.versionFrom + view.version);
        this.republished?.add(view.address);
      }
      this.wallets.apply(message.published, message.bodies, message.dropped, this.versionFrom);
    },
    [viewsTypes.smartMoney]: (message) => {
      this.smartMoney.clear();
      for (const [symbol, json] of Object.entries(message.bySymbol)) {
        this.smartMoney.set(symbol, json);
      }
      this.smartMoneyListener();
      if (this.republished === null) return;
      const gone = [...this.wallets.keys()].filter((a) => !this.republished!.has(a));
      this.wallets.apply([], new Uint8Array(0), gone, this.versionFrom);
      this.republished = null;
    },
    [viewsTypes.pollDueAnswer]: (message) => {
      this.due.get(message.id)?.([...message.addresses]);
      this.due.delete(message.id);
    },
  };

  applyWallet(event: WalletStateEvent): void {
    // One entry per wallet however its address is cased (the tracker's key is lowercase).
    const key = event.address.toLowerCase();
    this.states.delete(key);
    this.states.set(key, event);
    if (this.states.size > limits.walletsTrackedMax) {
      this.states.delete(this.states.keys().next().value!);
    }
    this.sendSoon();
    this.statesPending.push(event);
  }

  applyWhalePrints(prints: readonly WhalePrint[]): void {
    if (prints.length === 0) return;
    this.prints.push(...prints);
    if (this.prints.length > 2 * printsKeptMax) this.prints = this.prints.slice(-printsKeptMax);
    this.sendSoon();
    this.printsPending.push(...prints);
  }

  /**
   * A polled state: kept and sent like the simulator's. True once sent: whether the tracker
   * takes it is decided in the worker, so the poller's `applied` counts states handed on.
   */
  applyState(event: WalletStateEvent): boolean {
    this.applyWallet(event);
    return true;
  }

  dueForPoll(nowMs: number, max: number): Promise<string[]> {
    if (!this.link.running()) return Promise.resolve([]);
    const id = ++this.dueId;
    const answer = new Promise<string[]>((resolve) => this.due.set(id, resolve));
    this.link.send({ type: viewsTypes.pollDue, id, nowMs, max });
    return answer;
  }

  pollFailed(address: string, nowMs: number): void {
    this.link.send({ type: viewsTypes.pollFailed, address, nowMs });
  }

  /** `"smartMoney":{...}` for a pair's deep view (all categories zero when nothing is known). */
  smartMoneyJson(symbol: string): string {
    return this.smartMoney.get(symbol) ?? emptySmartMoneyJson;
  }

  /**
   * Asks the worker to rebuild the wallet views as of `nowMs` (market time); settles once their
   * bytes are in the store. One at a time: a call while one runs is skipped.
   */
  refreshWallets(nowMs: number, tracked: readonly string[]): Promise<void> {
    if (!this.link.running()) {
      this.deferred = { nowMs, tracked };
      return Promise.resolve();
    }
    this.refreshing ??= this.link.ask((id) => ({ type: viewsTypes.refreshWallets, id, nowMs,
      tracked })).finally(() => { this.refreshing = null; });
    return this.refreshing;
  }

  /** Told each time the tracked pairs' smart money is new (the shards splice it). */
  onSmartMoney(listener: () => void): void {
    this.smartMoneyListener = listener;
  }

  /** A wallet-level view (smart money, wallets, a liquidation map) into the store. */
  swapIn(view: FinishedView): void {
    const version = this.versionFrom + view.version!;
    this.versionMax = Math.max(this.versionMax, version);
    this.sink.put(view.name, view.body, { version, updatedAtMs: view.updatedAtMs,
      cadenceMs: view.cadenceMs, etag: view.etag, moved: true });
  }

  /** The inputs applied in this task go in one message once it ends. */
  sendPending(): void {
    if (this.statesPending.length === 0 && this.printsPending.length === 0) return;
    const message = { type: viewsTypes.walletInputs, states: this.statesPending,
      prints: this.printsPending } as const;
    // Cleared first: `send` posts what is pending before its message.
    this.statesPending = [];
    this.printsPending = [];
    this.link.send(message);
  }

  /** A (re)started worker: every state and print kept, versions counted on from the last. */
  sendAll(restarted: boolean): void {
    this.statesPending = [];
    this.printsPending = [];
    this.versionFrom = this.versionMax;
    if (restarted) this.republished = new Set();
    const prints = this.prints.slice(-printsKeptMax);
    const states = [...this.states.values()];
    if (prints.length + states.length > 0) {
      this.link.send({ type: viewsTypes.walletInputs, states, prints });
    }
    const deferred = this.deferred;
    this.deferred = null;
    if (deferred !== null) void this.refreshWallets(deferred.nowMs, deferred.tracked);
  }

  /** The worker is gone: nothing waits for its answers. */
  settleAll(): void {
    for (const resolve of this.due.values()) resolve([]);
    this.due.clear();
  }

  private sendSoon(): void {
    if (this.statesPending.length === 0 && this.printsPending.length === 0) {
      queueMicrotask(() => this.sendPending());
    }
  }
}
