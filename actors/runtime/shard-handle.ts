// One shard as the supervisor sees it: its threaded actor, its worker, its liveness, and the
// restart path that covers comedy's gaps (no respawn, hung calls after exit, worker errors).
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import type { Logger } from '../../core/logger.js';
import type { AssetCtx } from '../../core/messages.js';
import { limits } from '../../core/config.js';
import { shardActorName, shardTopics } from '../topics.js';
import type { ShardParams } from '../shard/shard-params.js';
import { withDeadline } from './deadline.js';
import { shardBundlePath } from './shard-bundle.js';
import {
  dispatchFrame, handoverPortMessage, pastPullAllMessage, pastPullMessage, postFrame,
  protocolTypes, shardStopRequest, type ProtocolHandlers, type ShardStopped, type ShardToMain,
  type SmartMoneySplits,
} from '../shard/protocol.js';
import { signal, type Signal } from './signal.js';
import type { ShardBoard } from './shard-board.js';
import { FailureRecord } from './failure-record.js';

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

/** How long a stop waits for a shard by default (the service's stop passes its own bound). */
const stopWaitMsDefault = 3_000;

/** What a shard's port brings for the service: every kind but the handle's own stop. */
export type ToHost = ProtocolHandlers<Exclude<ShardToMain, ShardStopped>>;

/** Pulls of held past a stop keeps in flight (past-queue.ts). */
const stopPullsAhead = 4;
/** How often the shard's progress is read (shard-board.ts). */
const livenessCheckMs = 1_000;

/** 'degraded': failed too often within the window; it stays down, the service runs without it. */
export type ShardState = 'starting' | 'running' | 'restarting' | 'stopping' | 'stopped' |
  'degraded';


/**
 * comedy clears its per-actor response-timeout interval only when the worker confirms its own
 * destruction, which a terminated or crashed worker never does; clear it so nothing leaks.
 */
function release(ref: ThreadedRef | null): void {
  const interval = ref?.actor?.timeoutWorkerInterval;
  if (interval) clearInterval(interval);
}

const lostSignal = () => signal<void>();

export class ShardHandle {
  state: ShardState = 'starting';
  restarts = 0;
  generation = 0;
  private ref: ThreadedRef | null = null;
  private worker: Worker | null = null;
  private liveness: NodeJS.Timeout | null = null;
  /** The progress counter last read, and when (performance.now()) it last changed. */
  private progressSeen = 0;
  private progressAtMs = 0;
  private checkedAtMs = 0;
  /** This shard's recent failures: the restart delay and the point of giving up. */
  readonly failures = new FailureRecord(limits.shardFailuresMax, limits.shardFailureWindowMs);
  private restartTimer: NodeJS.Timeout | null = null;
  /** Settles when the running generation fails: what is still waiting on it stops waiting. */
  private lost = lostSignal();
  /** This generation's hand-over port (actors/shard/protocol.ts); closed when it ends. */
  private port: MessagePort | null = null;
  /** The last smart-money splits sent, for the next generation. */
  private smartMoney: SmartMoneySplits | null = null;
  /** Messages that came over the hand-over port rather than comedy's bus. */
  portMessages = 0;
  /** Settles when the shard says on its port that its stop is done, with what it holds. */
  private stopped: Signal<number> = signal<number>();
  /** Settles with what the shard still holds when it answers a pull. */
  private pastAnswer: Signal<number> = signal<number>();
  /** Everything a shard sends the main thread: one handler per kind (protocol.ts). */
  private readonly fromShard: ProtocolHandlers<ShardToMain>;

  constructor(
    readonly shardId: number,
    private symbols: readonly string[],
    private readonly base: Omit<ShardParams, 'shardId' | 'generation' | 'symbols'>,
    private readonly spawner: ShardSpawner,
    private readonly log: Logger,
    private readonly onRestarted: (shardId: number) => void = () => {},
    /** The service's handlers of what this shard's hand-over port brings (protocol.ts). */
    toHost: ToHost,
    /** Saved pair states to restore new pairs from (persistence/pair-states.ts); none: fresh. */
    private readonly loadStates?: (symbols: readonly string[]) =>
      Readonly<Record<string, Uint8Array>>,
    /** Where the worker shows its progress (its buffer travels in `base`). */
    private readonly board?: ShardBoard,
    /** The shard failed too often and stays down. */
    private readonly onDegraded: (shardId: number) => void = () => {},
    /** The universe's context of pairs about to be created (live backfill); none: no seed. */
    private readonly contextsOf?: (symbols: readonly string[]) =>
      Readonly<Record<string, AssetCtx>>,
  ) {
    this.fromShard = {
      ...toHost,
      [protocolTypes.past]: (message) => {
        toHost[protocolTypes.past](message);
        this.pastAnswer.resolve(message.left);
      },
      [protocolTypes.stopped]: (message) => this.stopped.resolve(message.held),
    };
  }

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
    this.progressSeen = this.board?.progress(this.shardId) ?? 0;
    this.progressAtMs = this.checkedAtMs = performance.now();
    if (this.board) this.liveness = setInterval(() => this.checkProgress(), livenessCheckMs);
  }

  /** Gives the worker its end of a new channel: from then on it publishes over it. */
  private openHandover(): void {
    if (!this.worker) return;
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (frame: unknown) => {
      this.portMessages++;
      dispatchFrame(this.fromShard, frame, this.log, `shard ${this.shardId}`);
    });
    // The heartbeat and the service keep the process alive, not an open port.
    port1.unref();
    this.port = port1;
    this.worker.postMessage(handoverPortMessage(port2), [port2]);
    // Queued on the channel until the worker listens on its end.
    if (this.smartMoney) postFrame(port1, this.smartMoney);
  }

  /**
   * Hands the shard its pairs' smart-money splits (protocol.ts `SmartMoneySplits`); the last
   * ones go again to each new generation, so a restarted shard closes deep views with them too.
   */
  setSmartMoney(bySymbol: Readonly<Record<string, string>>): void {
    this.smartMoney = { type: protocolTypes.smartMoney, bySymbol };
    if (this.port && this.state === 'running') postFrame(this.port, this.smartMoney);
  }

  /** Asks the worker for its next held past message, or all (past-queue.ts); false: no port. */
  pullPast(all = false): boolean {
    if (!this.port || this.state !== 'running') return false;
    postFrame(this.port, all ? pastPullAllMessage : pastPullMessage);
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

  /**
   * Stops the shard: it sends what it holds, its last outputs and its pairs' states, on its port
   * (asked on comedy's bus when it has none: a worker comedy did not show us). Waits until
   * `untilMs` (performance.now) at most, then ends the worker anyway; resolves true when the
   * shard finished its stop in time.
   */
  async stop(untilMs = performance.now() + stopWaitMsDefault): Promise<boolean> {
    const wasRunning = this.state === 'running';
    this.state = 'stopping';
    this.clearTimers();
    const ref = this.ref;
    const worker = this.worker;
    this.ref = null;
    this.worker = null;
    this.board?.leave(this.shardId);
    // A worker that dies meanwhile sends nothing more: no reason to wait out the bound.
    const exited = new Promise<false>((resolve) => worker?.once('exit', () => resolve(false)));
    const within = <T>(work: Promise<T>) => withDeadline(Promise.race([work, exited]),
      Math.max(0, untilMs - performance.now()), `shard ${this.shardId} stop`)
      .catch(() => false as const);
    let clean = !wasRunning;
    if (wasRunning && this.port) clean = await within(this.stopOnPort());
    else if (wasRunning && ref) clean = await within(ref.sendAndReceive(shardTopics.stop)
      .then(() => true));
    if (!clean) {
      this.log.warn('shard did not finish its stop in time; ending it', { shardId: this.shardId });
    }
    this.closeHandover();
    // comedy's destroy() leaves the worker running; end it ourselves.
    await worker?.terminate().catch(() => {});
    release(ref);
    this.state = 'stopped';
    return clean;
  }

  /**
   * Asks for the stop on the port and pulls what the shard held before, one message at a time,
   * while it makes its last publish; once it says it stopped, pulls the rest (that publish's
   * outputs and states) a few messages ahead: the next ones cross while this thread writes.
   */
  private async stopOnPort(): Promise<true> {
    this.stopped = signal<number>();
    let held: number | null = null;
    const stopped = this.stopped.promise.then((count) => { held = count; });
    postFrame(this.port!, shardStopRequest);
    let left = 1;
    while (held === null && left > 0 && this.port) left = await this.pull();
    await stopped;
    // An answer that crossed the shard's "stopped" took one of `held`: `left` says when done.
    left = held!;
    let asked = 0;
    while (left > 0 && this.port) {
      this.pastAnswer = signal<number>();
      while (asked < held! && asked - (held! - left) < stopPullsAhead) {
        postFrame(this.port, pastPullMessage);
        asked++;
      }
      left = await this.pastAnswer.promise;
    }
    return true;
  }

  /** One pull of held past; resolves with what the shard still holds after it. */
  private pull(): Promise<number> {
    this.pastAnswer = signal<number>();
    postFrame(this.port!, pastPullMessage);
    return this.pastAnswer.promise;
  }

  /**
   * A shard whose counter did not move for shardStallTimeoutMs is hung. When this thread itself
   * was held (its check came late), the silence is not the shard's: its clock starts again.
   */
  /** Seconds since the liveness check last saw the shard's event loop turn (metrics). */
  get heartbeatAgeS(): number {
    return this.state === 'running' ? (performance.now() - this.progressAtMs) / 1000 : 0;
  }

  private checkProgress(): void {
    if (this.state !== 'running' || !this.board) return;
    const nowMs = performance.now();
    const lateMs = nowMs - this.checkedAtMs - livenessCheckMs;
    this.checkedAtMs = nowMs;
    const progress = this.board.progress(this.shardId);
    if (progress !== this.progressSeen || lateMs > livenessCheckMs) {
      this.progressSeen = progress;
      this.progressAtMs = nowMs;
      return;
    }
    const silentMs = nowMs - this.progressAtMs;
    if (silentMs >= limits.shardStallTimeoutMs) {
      this.failed(`no progress for ${Math.round(silentMs)} ms (its event loop is held)`);
    }
  }

  private failed(reason: string): void {
    if (this.state !== 'running') return;
    this.state = 'restarting';
    this.lost.resolve();
    this.clearTimers();
    this.board?.leave(this.shardId);
    // What the failed generation still sends is dropped, as its comedy publishes are.
    this.closeHandover();
    const worker = this.worker;
    release(this.ref);
    this.ref = null;
    this.worker = null;
    void worker?.terminate().catch(() => {});
    const recent = this.failures.add(performance.now(), reason);
    if (this.failures.exhausted) {
      this.state = 'degraded';
      this.log.error('shard gave up; the service runs degraded without its pairs', {
        shardId: this.shardId, reason, failures: recent,
        windowS: limits.shardFailureWindowMs / 1000, pairs: this.symbols.length });
      this.onDegraded(this.shardId);
      return;
    }
    // Backs off exponentially while a shard keeps failing, so a crash loop cannot spin the CPU.
    const delayMs = Math.min(limits.shardRestartDelayMsMax,
      limits.shardRestartDelayMs * 2 ** (recent - 1));
    this.log.error('shard failed; restarting it', { shardId: this.shardId, reason,
      delayMs, failures: recent });
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
    if (this.liveness) clearInterval(this.liveness);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.liveness = null;
    this.restartTimer = null;
  }
}
