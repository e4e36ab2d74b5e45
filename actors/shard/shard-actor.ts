// The shard actor: runs in its own worker thread (comedy "threaded" mode), owns the feed of its
// pairs, hands the feed each pair's mailbox as its lane, drains mailboxes once per event-loop
// turn and publishes the changed pairs' views to the supervisor once per cadence.
import { isMainThread, parentPort, type MessagePort } from 'node:worker_threads';
import { createLogger, type Logger } from '../../core/logger.js';
import { systemClock } from '../../core/clock.js';
import type { AssetCtx } from '../../core/messages.js';
import { pairActorName, pairTopics } from '../topics.js';
import { createPairFeed, type PairFeed } from '../feed/pair-feed.js';
import type { IngestSink } from '../feed/feed-types.js';
import { attachBudget } from '../feed/budget.js';
import { ShardBoard } from '../runtime/shard-board.js';
import { Mailbox } from './mailbox.js';
import { ShardMeters } from './shard-meters.js';
import type { PairPublish, RestoreResult } from './pair-engine.js';
import { decodeFeedSpec, type ShardParams } from './shard-params.js';
import { PastQueue } from './past-queue.js';
import { batchMessages, newBatch, type PublishBatch } from './publish-batch.js';
import {
  dispatchFrame, isHandoverPortMessage, protocolTypes, type MainToShard, type PastPull,
  type ProtocolHandlers, type SmartMoneySplits,
} from './protocol.js';
import { ShardOutbox } from './shard-outbox.js';
import { closingMember } from '../views/splice-field.js';
import { emptySmartMoneyJson } from '../positioning/pair-positioning.js';
import PairActor from './pair-actor.js';
import { lowerWorkerPriority } from '../../core/thread-priority.js';

/** The deep view's close until the main thread sent the pair's split: every category zero. */
const emptySmartMoneyClosing = closingMember('smartMoney', emptySmartMoneyJson);

interface ActorRef {
  send(topic: string, ...args: unknown[]): Promise<void>;
  sendAndReceive(topic: string, ...args: unknown[]): Promise<unknown>;
  destroy(): Promise<void>;
}
interface SelfActor {
  getCustomParameters(): ShardParams;
  createChild(definition: unknown, options: object): Promise<ActorRef>;
}

interface PairSlot {
  readonly ref: ActorRef;
  readonly mailbox: Mailbox;
  /** When the pair's state is saved next (with the first publish at or after it). */
  nextSaveAtMs: number;
  /**
   * The pair has not saved since it joined: it saves as soon as its warm-up or fill ended
   * (after its first publish, whose views /readyz waits for, once the shard's warm-ups are
   * over), so a kill -9 from then on restores it instead of warming it anew.
   */
  firstSaveDue: boolean;
  /** The pair has published since it joined (its warm-up reached the start). */
  published: boolean;
}

/** Spreads the pairs' saves over the period: the golden ratio's fraction, pair after pair. */
const saveSpread = (Math.sqrt(5) - 1) / 2;

/**
 * The pair's next save slot after `nowMs`: its own phase in the period kept (saves stay spread
 * over the pairs), and a worker behind by periods does not save at every publish to catch up.
 */
function nextSaveSlotMs(slotMs: number, nowMs: number, everyMs: number): number {
  if (!(everyMs > 0)) return Infinity;
  return slotMs + (Math.floor((nowMs - slotMs) / everyMs) + 1) * everyMs;
}

/** Saved pair states sent to the supervisor per message (with the publish they go with). */
const stateBatchPairs = 8;

/** After new pairs are set: long enough for the feed's first book and trades to reach them. */
const firstPublishDelayMs = 150;
/**
 * Pairs whose warm-up ended while others still warm publish in groups at most this far apart:
 * their first views (days of CVD history) are built and applied then, not all in the last
 * publish, which /readyz waits for (bench/log/2026-11-26-warm-start-views-first.md).
 */
const warmedPublishMs = 150;
/** How often the shard shows the supervisor its event loop turns (shard-board.ts). */
const pulseMs = 250;
/** How often the shard writes its feed's and mailboxes' state for the metrics (shard-meters.ts). */
const metersEveryMs = 1_000;

export default class ShardActor {
  private self!: SelfActor;
  private params!: ShardParams;
  private log!: Logger;
  private feed: PairFeed | null = null;
  private readonly pairs = new Map<string, PairSlot>();
  private readonly pending = new Set<string>();
  private drainScheduled = false;
  private publishTimer: NodeJS.Timeout | null = null;
  private pulseTimer: NodeJS.Timeout | undefined;
  private metersTimer: NodeJS.Timeout | undefined;
  /** This shard's metrics, in the buffer the main thread reads at scrape time. */
  private meters: ShardMeters | undefined;
  private firstPublishTimer: NodeJS.Timeout | undefined;
  /** A publish ahead of the cadence is set (publishSoon) and has not run yet. */
  private soonPending = false;
  private feedStarted = false;
  /** The main thread's hand-over port (protocol.ts); what is sent waits in `outbox` until then. */
  private port: MessagePort | null = null;
  private outbox!: ShardOutbox;
  /** What the main thread sends on the port: one handler per kind (protocol.ts). */
  private readonly fromMain: ProtocolHandlers<MainToShard> = {
    [protocolTypes.pastPull]: (message) => this.answerPull(message),
    [protocolTypes.stop]: () => void this.stopOnPort(),
    [protocolTypes.smartMoney]: (message) => this.setSmartMoney(message),
  };
  /** A stop began (it runs once). */
  private stopping = false;
  /** A large batch's bars, signals and history points, until the main thread pulls them. */
  private readonly past = new PastQueue();
  /** The universe's context of each pair as it was assigned (live backfill; pair-engine.ts). */
  private readonly contexts = new Map<string, AssetCtx>();
  /**
   * What closes each pair's deep view: its `smartMoney` JSON from the main thread, encoded once
   * per refresh (splice-field.ts); the deep view is closed with it as the publish is packed.
   */
  private readonly smartMoney = new Map<string, Uint8Array>();
  private readonly closeDeepView = (symbol: string) =>
    this.smartMoney.get(symbol) ?? emptySmartMoneyClosing;
  /** Pair states are saved every this often (0: never, but at a graceful stop). */
  private saveEveryMs = 0;
  /** Pairs added so far: where the next one's saves fall in the period. */
  private pairsAdded = 0;
  /** Events routed to pairs since removed (the live pairs' counts are in their mailboxes). */
  private retiredEvents = 0;
  /** The feed's sink: a symbol's lane is its pair's mailbox, resolved once by the feed. */
  private readonly sink: IngestSink = {
    lane: (symbol) => this.pairs.get(symbol)?.mailbox ?? null,
  };

  async initialize(self: SelfActor): Promise<void> {
    this.self = self;
    this.params = self.getCustomParameters();
    if (!isMainThread) parentPort?.on('message', this.onParentMessage);
    lowerWorkerPriority(this.params.workerNice);
    this.log = createLogger({ level: this.params.logLevel }, { shard: this.params.shardId });
    this.outbox = new ShardOutbox(this.log);
    const shardId = this.params.shardId;
    const board = this.params.boardBuffer && new ShardBoard(this.params.boardBuffer);
    // Liveness: a timer runs only when the event loop turns, however much work is queued.
    if (board) this.pulseTimer = setInterval(() => board.bump(shardId), pulseMs);
    this.saveEveryMs = this.params.stateSaveEveryMs ?? 0;
    const metersBuffer = this.params.metersBuffer;
    if (metersBuffer) {
      this.meters = new ShardMeters(metersBuffer, shardId);
      this.metersTimer = setInterval(() => this.writeMeters(), metersEveryMs);
    }
    this.keepContexts(this.params.contexts);
    // Concurrently, as in setPairs (comedy's promise hops, not work, are most of a creation).
    await Promise.all(this.params.symbols.map((symbol) => this.addPair(symbol)));
    const budget = this.params.budgetBuffer
      ? attachBudget(this.params.budgetBuffer, systemClock) : undefined;
    const spec = decodeFeedSpec(this.params.feed, this.params.feedAnchorWallMs, Date.now(),
      board?.furthestMs());
    this.feed = createPairFeed(spec, {
      clock: systemClock, logger: this.log, budget, meters: this.meters,
      groupMs: board && (() => board.slowestMs(shardId)),
      onPaced: board && ((reachedMs) => board.report(shardId, reachedMs)),
      onBackfill: (report) => {
        this.outbox.send({ type: protocolTypes.backfill, shardId: this.params.shardId,
          generation: this.params.generation, report });
      },
      // Warmed pairs publish at once, not up to a cadence later: /readyz waits for them.
      onWarmedUp: () => this.publishSoon(0),
      onPairsWarmed: () => { if (!this.soonPending) this.publishSoon(warmedPublishMs); },
    });
    for (const [symbol, ctx] of this.contexts) this.feed.seedContext?.(symbol, ctx);
    // A shard started before the first universe has no pairs yet: its feed starts with its
    // first pairs, so a replay does not play into a shard that would drop every event.
    await this.restorePairs(this.params.states ?? {});
    if (this.pairs.size > 0) this.startFeed();
    this.publishTimer = setInterval(() => void this.publish(), this.params.cadenceMs);
    // Pairs given at creation publish as soon as their first events are in, as setPairs' do.
    if (this.pairs.size > 0) this.publishSoon(firstPublishDelayMs);
    this.log.debug('shard started', { pairs: this.pairs.size, generation: this.params.generation });
    if (this.params.allowCrash && this.params.crashAtStartShardId === shardId) {
      setTimeout(() => this.crash('exit'), firstPublishDelayMs);
    }
  }

  private readonly onParentMessage = (message: unknown): void => {
    if (!isHandoverPortMessage(message)) return;
    this.port?.close();
    this.port = message.port;
    this.port.on('message', (frame: unknown) =>
      dispatchFrame(this.fromMain, frame, this.log, 'main thread'));
    // The worker lives by its timers and comedy's bus, not by this port.
    this.port.unref();
    this.outbox.attach(this.port);
  };

  /** The main thread pulls the next held message, or all of them (past-queue.ts). */
  private answerPull(message: PastPull): void {
    do {
      const next = this.past.take();
      this.outbox.send({ type: protocolTypes.past, shardId: this.params.shardId,
        generation: this.params.generation, left: this.past.size,
        message: next?.message ?? null }, next?.transfer);
    } while (message.all && this.past.size > 0);
  }

  /**
   * The main thread's smart-money split per pair (after each wallet refresh, and to each new
   * generation of this shard). Closing the deep view here spares the main thread a copy and a
   * hash of ~20 KB per pair and publish.
   */
  private setSmartMoney(message: SmartMoneySplits): void {
    for (const [symbol, json] of Object.entries(message.bySymbol)) {
      if (this.pairs.has(symbol)) this.smartMoney.set(symbol, closingMember('smartMoney', json));
    }
  }

  /** Heartbeat: proves the worker's event loop turns, and reports counters. */
  ping(seq: number): { seq: number; pairs: number; events: number; dropped: number } {
    let events = this.retiredEvents;
    for (const slot of this.pairs.values()) events += slot.mailbox.pushed;
    return { seq, pairs: this.pairs.size, events, dropped: this.droppedEvents() };
  }

  /** The tracked set of this shard changed: create and destroy pair actors, resubscribe. */
  async setPairs(message: { symbols: readonly string[];
    states?: Readonly<Record<string, Uint8Array>>;
    contexts?: Readonly<Record<string, AssetCtx>> }): Promise<number> {
    const wanted = new Set(message.symbols);
    for (const symbol of [...this.pairs.keys()]) {
      if (wanted.has(symbol)) continue;
      await this.removePair(symbol);
      this.contexts.delete(symbol);
    }
    this.keepContexts(message.contexts);
    // Created concurrently: each creation is mostly waiting on comedy's promise hops, which in
    // turn would add up over a shard's pairs.
    const added = [...wanted].filter((s) => !this.pairs.has(s));
    await Promise.all(added.map((s) => this.addPair(s)));
    const states = message.states ?? {};
    await this.restorePairs(Object.fromEntries(added.filter((s) => states[s] !== undefined)
      .map((s) => [s, states[s]])));
    if (this.feedStarted) this.feed?.setSymbols([...this.pairs.keys()]);
    else if (this.pairs.size > 0) this.startFeed();
    // New pairs publish their first snapshot as soon as their first events are in, not a whole
    // cadence later: /readyz waits for every tracked pair's first snapshot.
    if (added.length > 0) this.publishSoon(firstPublishDelayMs);
    return this.pairs.size;
  }

  /** Pairs about to be created start from these (their engine's V, their feed's fill order). */
  private keepContexts(contexts: Readonly<Record<string, AssetCtx>> | undefined): void {
    for (const [symbol, ctx] of Object.entries(contexts ?? {})) {
      this.contexts.set(symbol, ctx);
      this.feed?.seedContext?.(symbol, ctx);
    }
  }

  /** A publish `delayMs` from now, ahead of the cadence (a later call replaces a pending one). */
  private publishSoon(delayMs: number): void {
    if (!this.publishTimer) return;
    clearTimeout(this.firstPublishTimer);
    this.soonPending = true;
    this.firstPublishTimer = setTimeout(() => {
      this.soonPending = false;
      void this.publish();
    }, delayMs);
  }

  private startFeed(): void {
    if (!this.feed || this.feedStarted) return;
    this.feedStarted = true;
    this.feed.setSymbols([...this.pairs.keys()]);
    this.feed.start(this.sink);
  }

  /** Test hook: crash this worker on purpose, by throwing or by exiting; or hang its loop. */
  crash(kind: 'throw' | 'exit' | 'hang'): string {
    if (!this.params.allowCrash) return 'refused';
    setTimeout(() => {
      if (kind === 'exit') process.exit(7);
      if (kind === 'hang') for (;;);
      throw new Error('shard crash requested by test');
    }, 1);
    return 'crashing';
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.pulseTimer);
    clearInterval(this.metersTimer);
    if (this.publishTimer) clearInterval(this.publishTimer);
    this.publishTimer = null;
    clearTimeout(this.firstPublishTimer);
    parentPort?.off('message', this.onParentMessage);
    if (this.params.hangOnStop) hangThisThread();
    await this.feed?.stop();
    // The last publish saves every pair's state: a restart resumes from them. What it brings
    // waits behind what is held, for the main thread to pull (stopOnPort).
    if (this.saveEveryMs > 0) await this.publish(true);
    this.saveEveryMs = 0;
    this.feed = null;
    for (const symbol of [...this.pairs.keys()]) await this.removePair(symbol);
  }

  /**
   * The stop the main thread asked for on the port. It says when it is done and how much it
   * holds; the main thread then pulls it one message at a time, writing each before the next:
   * all at once, a warm-up's past stayed alive on the main thread until written, and its
   * young-generation collections copied it over and over (a second of a stop).
   */
  private async stopOnPort(): Promise<void> {
    try {
      await this.stop();
    } catch (error) {
      this.log.error('shard stop failed', { error: (error as Error).message });
    }
    this.outbox.send({ type: protocolTypes.stopped, shardId: this.params.shardId,
      held: this.past.size });
  }

  async destroy(): Promise<void> {
    await this.stop();
  }

  private async addPair(symbol: string): Promise<void> {
    const mailbox = new Mailbox(this.params.mailboxCapacity, symbol);
    mailbox.onWake = () => this.wake(symbol);
    const ref = await this.self.createChild(PairActor, {
      mode: 'in-memory',
      name: pairActorName(symbol),
      customParameters: {
        symbol, mailbox, cadenceMs: this.params.cadenceMs, context: this.contexts.get(symbol),
        meters: this.meters,
      },
    });
    // Each pair saves at its own time in the period: a shard saving all its pairs' states in one
    // publish would deflate them in one go, and that publish's views (and every other process
    // on the box) would wait behind it.
    const offsetMs = this.saveEveryMs * ((this.pairsAdded++ * saveSpread) % 1);
    this.pairs.set(symbol, { ref, mailbox, nextSaveAtMs: Date.now() + offsetMs,
      firstSaveDue: true, published: false });
  }

  /**
   * Restores pairs just created from their saved states, before the feed serves them: the feed
   * then fills the market time since each state (or the pair sees a gap, or starts fresh).
   */
  private async restorePairs(states: Readonly<Record<string, Uint8Array>>): Promise<void> {
    const symbols = Object.keys(states).filter((s) => this.pairs.has(s));
    if (symbols.length === 0 || !this.feed) return;
    const resumeFrom = this.feed.resumeFrom?.bind(this.feed);
    if (!resumeFrom) {
      this.log.info('saved pair states not used: a replay plays its tape from its start',
        { pairs: symbols.length });
      return;
    }
    const counts = { fill: 0, gap: 0, refuse: 0, discarded: 0 };
    for (const symbol of symbols) {
      const slot = this.pairs.get(symbol)!;
      const result = (await slot.ref.sendAndReceive(pairTopics.restore, states[symbol])) as
        RestoreResult;
      if (!result.restored) {
        this.log.warn('saved pair state discarded', { symbol, reason: result.reason });
        counts.discarded++;
        continue;
      }
      const answer = resumeFrom(symbol, result.marketMs);
      counts[answer]++;
      if (answer === 'refuse') {
        this.log.warn('saved pair state discarded: outside what the feed can fill',
          { symbol, marketMs: result.marketMs });
        await this.removePair(symbol);
        await this.addPair(symbol);
        continue;
      }
      if (answer === 'gap') {
        slot.mailbox.event({ type: 'gap', symbol, tsMs: result.marketMs, reason: 'restart' });
      }
      this.log.debug('pair restored', { symbol, marketMs: result.marketMs, answer });
    }
    this.log.info('pairs restored from saved state', counts);
  }

  private async removePair(symbol: string): Promise<void> {
    const slot = this.pairs.get(symbol);
    if (!slot) return;
    this.pairs.delete(symbol);
    this.pending.delete(symbol);
    this.smartMoney.delete(symbol);
    this.retiredEvents += slot.mailbox.pushed;
    slot.mailbox.onWake = null;
    await slot.ref.destroy();
  }

  /** A pair's mailbox received its first event since it was drained: drain it this turn. */
  private wake(symbol: string): void {
    this.pending.add(symbol);
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** One batch per event-loop turn: every pair with queued events drains them. */
  private drain(): void {
    this.drainScheduled = false;
    for (const symbol of this.pending) {
      const slot = this.pairs.get(symbol);
      slot?.ref.sendAndReceive(pairTopics.drain).catch((error: Error) => this.fault(symbol, error));
    }
    this.pending.clear();
  }

  /** A pair that hit corrupt state is recreated through the same path as at start. */
  private fault(symbol: string, error: Error): void {
    this.log.error('pair faulted; recreating it', { symbol, error: error.message });
    // The feed resolved the old mailbox as the symbol's lane: it resolves the new one.
    void this.removePair(symbol).then(() => this.addPair(symbol))
      .then(() => this.feed?.setSymbols([...this.pairs.keys()]));
  }

  private async publish(save = false): Promise<void> {
    const nowMs = Date.now();
    let batch = newBatch();
    let firstSavesLeft = this.firstSavesNow();
    for (const [symbol, slot] of this.pairs) {
      // A pair still warming up publishes once its warm-up reached the start, with everything
      // it detected meanwhile: its views mid-way (CVD history of days) would cost the shard
      // and the main thread much and tell a client nothing it should act on. Its save slots
      // wait for it: it saves soon after that first publish (firstSaveDue, firstSavesNow),
      // then on its own slots.
      if (this.feed?.isWarming?.(symbol)) continue;
      const first = slot.firstSaveDue && slot.published && firstSavesLeft > 0;
      const saving = save || (this.saveEveryMs > 0 && slot.published &&
        (first || nowMs >= slot.nextSaveAtMs));
      if (first) firstSavesLeft--;
      slot.published = true;
      if (saving && nowMs >= slot.nextSaveAtMs) {
        slot.nextSaveAtMs = nextSaveSlotMs(slot.nextSaveAtMs, nowMs, this.saveEveryMs);
      }
      try {
        let out: PairPublish | null;
        if (saving) {
          const both = (await slot.ref.sendAndReceive(pairTopics.publishAndSave, nowMs)) as
            { out: PairPublish | null; state: Uint8Array | null };
          out = both.out;
          // No state before the pair's first event: the first save waits for one.
          if (both.state) {
            batch.states.push({ symbol, bytes: both.state });
            slot.firstSaveDue = false;
          }
        } else {
          out = (await slot.ref.sendAndReceive(pairTopics.publish, nowMs)) as PairPublish | null;
        }
        if (out) {
          batch.pairs.push(out.views);
          batch.whalePrints.push(...out.whalePrints);
          batch.outbound.push(...out.outbound);
          if (out.history !== undefined) for (const point of out.history) batch.history.push(point);
        }
      } catch (error) {
        this.fault(symbol, error as Error);
      }
      // Saved states leave in small batches (~0.5 MB each): a stop cut short by its deadline
      // keeps what was sent, and no message grows to tens of megabytes.
      if (batch.states.length >= stateBatchPairs) {
        this.sendBatch(batch);
        batch = newBatch();
      }
    }
    this.sendBatch(batch);
  }

  /**
   * First saves this publish may take: none while a pair of the shard still warms (its state
   * encoded now would take the cores from the warm-ups /readyz waits for), then a batch a
   * publish, so fifty pairs that ended their warm-up together do not deflate at once.
   */
  private firstSavesNow(): number {
    for (const symbol of this.pairs.keys()) if (this.feed?.isWarming?.(symbol)) return 0;
    return stateBatchPairs;
  }

  /**
   * A publish, its history points, then the states taken with it: the store never holds a state
   * ahead of them. The views go first: after a warm-up the points are days of minutes, and the
   * main thread reads the messages in order. A warm-up's past is held and pulled (past-queue.ts).
   */
  private sendBatch(b: PublishBatch): void {
    const messages = batchMessages(b, { shardId: this.params.shardId,
      generation: this.params.generation, attached: this.outbox.attached, past: this.past,
      droppedEvents: () => this.droppedEvents(), closeDeepView: this.closeDeepView });
    for (const { message, transfer } of messages) this.outbox.send(message, transfer);
  }

  /** The feed's counters and the mailboxes' depth, for the main thread's scrape. */
  private writeMeters(): void {
    const stats = this.feed?.stats();
    let mailboxDepth = 0;
    for (const slot of this.pairs.values()) mailboxDepth += slot.mailbox.length;
    this.meters?.write({ connected: stats ? Number(stats.connected) : NaN,
      reconnects: stats?.reconnects ?? 0, eventsByType: stats?.eventsByType ?? {},
      mailboxDepth, dropped: this.droppedEvents(), marketMs: stats?.lastEventMs ?? NaN });
  }

  private droppedEvents(): number {
    let dropped = 0;
    for (const slot of this.pairs.values()) dropped += slot.mailbox.dropped;
    return dropped;
  }
}

/** Test hook: a shard stuck in work (no timer, no message, no stop runs on this thread again). */
function hangThisThread(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

