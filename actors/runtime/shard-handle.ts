// One shard as the supervisor sees it: its threaded actor, its worker, its heartbeat, and the
// restart path that covers comedy's gaps (no respawn, hung calls after exit, worker errors).
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import type { Logger } from '../../core/logger.js';
import type { AssetCtx } from '../../core/messages.js';
import { limits } from '../config.js';
import { shardActorName, shardTopics } from '../topics.js';
import type { ShardParams } from '../shard/shard-params.js';
import { withDeadline } from './deadline.js';
import { shardBundlePath } from './shard-bundle.js';
import { handoverPortMessage } from '../shard/handover.js';
import { pastPullAllMessage, pastPullMessage } from '../shard/past-queue.js';

export interface ThreadedRef {
  sendAndReceive(topic: string, ...args: unknown[]): Promise<unknown>;
  send(topic: string, ...args: unknown[]): Promise<void>;
  destroy(): Promise<void>;
  /** comedy keeps the worker on the proxied actor; read defensively. */
  actor?: { worker?: Worker; timeoutWorkerInterval?: NodeJS.Timeout };
}

export interface ShardSpawner {
  createChild(definition: string, options: object): Promise<ThreadedRef>;
}

/** How long a heartbeat answer that missed its deadline may still be on its way. */
const heartbeatGraceMs = 50;

export type ShardState = 'starting' | 'running' | 'restarting' | 'stopping' | 'stopped';


/**
 * comedy clears its per-actor response-timeout interval only when the worker confirms its own
 * destruction, which a terminated or crashed worker never does; clear it so nothing leaks.
 */
function release(ref: ThreadedRef | null): void {
  const interval = ref?.actor?.timeoutWorkerInterval;
  if (interval) clearInterval(interval);
}

/** A promise and its resolve (Promise.withResolvers needs Node 22). */
function lostSignal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => { resolve = done; });
  return { promise, resolve };
}

export class ShardHandle {
  state: ShardState = 'starting';
  restarts = 0;
  generation = 0;
  private ref: ThreadedRef | null = null;
  private worker: Worker | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private pingSeq = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Settles when the running generation fails: what is still waiting on it stops waiting. */
  private lost = lostSignal();
  /** This generation's hand-over port (actors/shard/handover.ts); closed when it ends. */
  private port: MessagePort | null = null;
  /** Messages that came over the hand-over port rather than comedy's bus. */
  portMessages = 0;

  constructor(
    readonly shardId: number,
    private symbols: readonly string[],
    private readonly base: Omit<ShardParams, 'shardId' | 'generation' | 'symbols'>,
    private readonly spawner: ShardSpawner,
    private readonly log: Logger,
    private readonly onRestarted: (shardId: number) => void = () => {},
    /** A publish or history message from this generation's hand-over port. */
    private readonly onHandover: (message: unknown) => void = () => {},
    /** Saved pair states to restore new pairs from (persistence/pair-states.ts); none: fresh. */
    private readonly loadStates?: (symbols: readonly string[]) =>
      Readonly<Record<string, Uint8Array>>,
    /** The universe's context of pairs about to be created (live backfill); none: no seed. */
    private readonly contextsOf?: (symbols: readonly string[]) =>
      Readonly<Record<string, AssetCtx>>,
  ) {}

  async start(): Promise<void> {
    this.generation++;
    const params: ShardParams = {
      ...this.base, shardId: this.shardId, generation: this.generation, symbols: this.symbols,
      states: this.loadStates?.(this.symbols), contexts: this.contextsOf?.(this.symbols),
    };
    // comedy takes a module-path definition as `//` + absolute path.
    const ref = await this.spawner.createChild('/' + await shardBundlePath(), {
      mode: 'threaded', name: shardActorName(this.shardId), customParameters: params,
    });
    this.ref = ref;
    this.lost = lostSignal();
    this.worker = ref.actor?.worker ?? null;
    // Without an 'error' listener a worker's uncaught error is rethrown in the main thread.
    this.worker?.on('error', (error) => this.failed(`worker error: ${error.message}`));
    this.worker?.once('exit', (code) => this.failed(`worker exited with code ${code}`));
    this.openHandover();
    this.state = 'running';
    this.heartbeat = setInterval(() => void this.beat(), limits.shardHeartbeatTimeoutMs / 4);
  }

  /** Gives the worker its end of a new channel: from then on it publishes over it. */
  private openHandover(): void {
    if (!this.worker) return;
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (message: unknown) => {
      this.portMessages++;
      this.onHandover(message);
    });
    // The heartbeat and the service keep the process alive, not an open port.
    port1.unref();
    this.port = port1;
    this.worker.postMessage(handoverPortMessage(port2), [port2]);
  }

  /** Asks the worker for its next held past message, or all (past-queue.ts); false: no port. */
  pullPast(all = false): boolean {
    if (!this.port || this.state !== 'running') return false;
    this.port.postMessage(all ? pastPullAllMessage : pastPullMessage);
    return true;
  }

  private closeHandover(): void {
    this.port?.close();
    this.port = null;
  }

  /** Sends a request to the shard; rejects instead of hanging when the shard is gone. */
  request(topic: string, ...args: unknown[]): Promise<unknown> {
    return this.requestWithin(limits.shardRequestTimeoutMs, topic, ...args);
  }

  private requestWithin(deadlineMs: number, topic: string, ...args: unknown[]):
    Promise<unknown> {
    if (!this.ref || this.state !== 'running') {
      return Promise.reject(new Error(`shard ${this.shardId} is ${this.state}`));
    }
    return withDeadline(this.ref.sendAndReceive(topic, ...args), deadlineMs,
      `shard ${this.shardId} ${topic}`);
  }

  async setSymbols(symbols: readonly string[]): Promise<void> {
    const had = new Set(this.symbols);
    const added = symbols.filter((s) => !had.has(s));
    this.symbols = symbols;
    // Wrapped: comedy spreads an array argument into several handler arguments.
    if (this.state !== 'running') return;
    const generation = this.generation;
    try {
      await Promise.race([this.lost.promise,
        this.requestWithin(limits.shardAssignTimeoutMs, shardTopics.setPairs,
          { symbols, states: this.loadStates?.(added), contexts: this.contextsOf?.(added) })]);
    } catch (error) {
      // A shard that failed meanwhile (a missed heartbeat on a loaded machine while it created
      // its pairs) never answers; its restart starts it with `symbols`: not an error.
      if (this.generation !== generation || this.state !== 'running') return;
      throw error;
    }
  }

  get pairs(): readonly string[] {
    return this.symbols;
  }

  async stop(): Promise<void> {
    this.state = 'stopping';
    this.clearTimers();
    const ref = this.ref;
    const worker = this.worker;
    this.closeHandover();
    this.ref = null;
    this.worker = null;
    // Bounded, but long enough for the last publish and the pairs' saved states (pair-state.ts).
    if (ref) await withDeadline(ref.sendAndReceive(shardTopics.stop), 3_000, 'shard stop')
      .catch(() => {});
    // comedy's destroy() leaves the worker running; end it ourselves.
    await worker?.terminate().catch(() => {});
    release(ref);
    this.state = 'stopped';
  }

  private async beat(): Promise<void> {
    if (this.state !== 'running' || !this.ref) return;
    const seq = ++this.pingSeq;
    let answered = false;
    const reply = this.ref.sendAndReceive(shardTopics.ping, seq).then(() => { answered = true; });
    const what = `shard ${this.shardId} heartbeat`;
    const deadlineMs = limits.shardHeartbeatTimeoutMs;
    const sentAtMs = performance.now();
    try {
      await withDeadline(reply, deadlineMs, what);
    } catch (error) {
      // Timers run before I/O in a loop turn, and comedy settles a reply a few turns after it
      // arrives: an answer may be queued behind this thread's own work. When the deadline fired
      // late, this thread itself was stalled (a long GC, a large view): that is not the shard's
      // silence, so it gets a whole new deadline from now; otherwise a short grace.
      const stalledMs = performance.now() - sentAtMs - deadlineMs;
      const graceMs = stalledMs > deadlineMs / 4 ? deadlineMs : heartbeatGraceMs;
      await withDeadline(reply, graceMs, what).catch(() => {});
      if (!answered) this.failed((error as Error).message);
    }
  }

  private failed(reason: string): void {
    if (this.state !== 'running') return;
    this.state = 'restarting';
    this.lost.resolve();
    this.clearTimers();
    // What the failed generation still sends is dropped, as its comedy publishes are.
    this.closeHandover();
    this.log.error('shard failed; restarting it', { shardId: this.shardId, reason });
    const worker = this.worker;
    release(this.ref);
    this.ref = null;
    this.worker = null;
    void worker?.terminate().catch(() => {});
    // Back off when a shard keeps failing, so a crash loop cannot spin the CPU.
    const delayMs = Math.min(5_000, 50 * 2 ** Math.min(this.restarts, 7));
    this.restarts++;
    this.restartTimer = setTimeout(() => void this.restart(), delayMs);
  }

  private async restart(): Promise<void> {
    this.restartTimer = null;
    if (this.state !== 'restarting') return;
    try {
      await this.start();
      this.onRestarted(this.shardId);
    } catch (error) {
      this.state = 'running';
      this.failed(`restart failed: ${(error as Error).message}`);
    }
  }

  private clearTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.heartbeat = null;
    this.restartTimer = null;
  }
}
