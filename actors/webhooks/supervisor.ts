// The webhook supervisor (main thread; the lead wraps it in the actor system). It owns the
// outbox: an event is persisted before anything is sent, then delivered with bounded
// concurrency per endpoint and overall, retried on the schedule, dead-lettered after the last
// attempt, and resumed from the store after any restart (kill -9 included).
import type { RootDatabase } from 'lmdb';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { KeyDirectory } from '../../core/messages.js';
import { limits } from '../../core/config.js';
import type { DeliveryRecord, WebhookEventType } from '../../persistence/outbox.js';
import {
  enqueueEvent, oldestPendingCreatedMs, openOutbox, pruneFinished, recentDeliveries,
} from '../../persistence/outbox.js';
import { openEndpointTables } from '../../persistence/webhooks.js';
import { EndpointCache } from './endpoint-cache.js';
import { createEndpointRegistry, ENDPOINTS_PER_PLAN, type EndpointRegistry } from './endpoints.js';
import { webhookErrors } from './errors.js';
import { prepareEvent } from './envelope.js';
import { createAgents } from './post.js';
import { replayEvent, type ReplayResult } from './replay.js';
import { DeliveryRunner } from './runner.js';
import type { WebhookMeters } from './meters.js';
import { systemLookup, type LookupFn } from './url-check.js';

export { eventIdForSignal } from './ids.js';
export { signPayload } from './sign.js';
export type { DeliveryRecord } from '../../persistence/outbox.js';

export interface WebhookSupervisorDeps {
  readonly root: RootDatabase;
  /** The delivery (service) clock: schedule, X-Service-Timestamp, rotation window. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly keys: KeyDirectory;
  readonly allowPrivate: boolean;
  /** Uniform [0, 1) for the jitter; tests pass () => 0. */
  readonly random?: () => number;
  readonly lookup?: LookupFn;
  /** A 2xx must arrive within this (default 10 s). */
  readonly attemptTimeoutMs?: number;
  /** How often admin-command changes and due work are looked for (default 250 ms). */
  readonly pollIntervalMs?: number;
  /** How long stop() lets in-flight attempts finish before abandoning them (default 2 s). */
  readonly stopGraceMs?: number;
  readonly outboxMax?: number;
  readonly inFlightPerEndpointMax?: number;
  readonly inFlightMax?: number;
}

export interface SupervisorStats {
  readonly state: 'ready' | 'running' | 'stopping' | 'stopped';
  /** Deliveries waiting for an attempt (the outbox bound applies to this). */
  readonly pending: number;
  readonly inFlight: number;
  /** Creation time of the oldest pending delivery (null: none), as of the last look. */
  readonly oldestPendingCreatedMs: number | null;
  /** Endpoints disabled (by a 410, by days of failures, or by their owner). */
  readonly disabledEndpoints: number;
}

export interface WebhookSupervisor {
  /** Resumes every pending delivery at its scheduled time (after a restart too). */
  start(): void;
  /** Stops timers; in-flight attempts finish within the grace or are abandoned unrecorded. */
  stop(): Promise<void>;
  /** Durable when resolved; refused with WebhookError 'outbox_full' when the outbox is full. */
  publish(type: WebhookEventType, data: Record<string, unknown>, endpointIds: readonly string[],
    options?: { eventId?: string }): Promise<{ eventId: string }>;
  readonly endpoints: EndpointRegistry;
  /** The endpoint's most recent deliveries, newest first (default 50). */
  deliveries(endpointId: string, limit?: number): DeliveryRecord[];
  /** Replays the event's finished deliveries (only those `only` accepts, when given). */
  replay(eventId: string, only?: (endpointId: string) => boolean): Promise<ReplayResult>;
  /** Picks up admin changes and starts whatever is due now (tests drive time with this). */
  tick(): Promise<void>;
  stats(): SupervisorStats;
  /** Deliveries by result and their latency (meters.ts). */
  readonly meters: WebhookMeters;
  /** Resolves when no attempt is in flight or being recorded. */
  idle(): Promise<void>;
}

/** Finished deliveries and their events are kept this long, then pruned. */
export const OUTBOX_RETENTION_MS = 30 * 86_400_000;
const PRUNE_PERIOD_MS = 3_600_000;
const PRUNE_BATCH_MAX = 1_000;
/** The oldest pending delivery is looked up this often at most (a scan of the due index). */
const OLDEST_PERIOD_MS = 5_000;

export function createWebhookSupervisor(deps: WebhookSupervisorDeps): WebhookSupervisor {
  return new Supervisor(deps);
}

class Supervisor implements WebhookSupervisor {
  readonly endpoints: EndpointRegistry;
  private state: SupervisorStats['state'] = 'ready';
  private readonly outbox;
  private readonly cache;
  private readonly runner: DeliveryRunner;
  private readonly outboxMax: number;
  private timer: NodeJS.Timeout | null = null;
  private lastPruneMs = -Infinity;
  private oldestAtMs = -Infinity;
  private oldestPendingMs: number | null = null;

  constructor(private readonly deps: WebhookSupervisorDeps) {
    const lookup = deps.lookup ?? systemLookup;
    const tables = openEndpointTables(deps.root);
    this.outbox = openOutbox(deps.root);
    this.cache = new EndpointCache(tables);
    this.outboxMax = deps.outboxMax ?? limits.webhookOutboxMax;
    const perEndpoint = deps.inFlightPerEndpointMax ?? limits.webhookInFlightPerEndpointMax;
    const total = deps.inFlightMax ?? limits.webhookInFlightMax;
    this.runner = new DeliveryRunner({
      outbox: this.outbox, tables, cache: this.cache, clock: deps.clock, logger: deps.logger,
      allowPrivate: deps.allowPrivate, lookup, random: deps.random ?? Math.random,
      timeoutMs: deps.attemptTimeoutMs ?? 10_000, agents: createAgents(total),
      perEndpointMax: perEndpoint, totalMax: total,
    });
    const store = createEndpointRegistry({
      tables, outbox: this.outbox, keys: deps.keys, clock: deps.clock,
      allowPrivate: deps.allowPrivate, lookup,
    });
    this.endpoints = this.cachedRegistry(store);
    this.refresh();
  }

  /** Writes go to the store (and bump its change counter); reads come from the cache. */
  private cachedRegistry(store: EndpointRegistry): EndpointRegistry {
    const after = <T>(value: T): T => (this.refresh(), value);
    return {
      add: async (accountId, url) => after(await store.add(accountId, url)),
      rotate: (id) => after(store.rotate(id)),
      remove: async (id) => after(await store.remove(id)),
      enable: (id) => after(store.enable(id)),
      list: (accountId) => store.list(accountId),
      get: (id) => store.get(id),
      byUrl: (accountId, url) => {
        // The command line registers endpoints from another process, and the cache sees that
        // on its next tick: a miss looks again after a refresh (cheap when nothing changed), or
        // an alert evaluated before that tick would fire into no endpoint and be lost.
        let found = this.cache.byUrl(accountId, url);
        if (found === undefined) {
          this.refresh();
          found = this.cache.byUrl(accountId, url);
        }
        return found && store.get(found.id);
      },
    };
  }

  private refresh(): void {
    if (!this.cache.refreshIfChanged()) return;
    this.runner.pending.recount();
    this.runner.syncEndpoints();
  }

  start(): void {
    if (this.state !== 'ready') throw new Error(`start() in state ${this.state}`);
    this.state = 'running';
    const periodMs = this.deps.pollIntervalMs ?? 250;
    this.timer = setInterval(() => {
      this.tick().catch((error) => this.deps.logger.error('webhook tick failed', { error }));
    }, periodMs);
    this.timer.unref();
    this.runner.start();
  }

  async stop(): Promise<void> {
    if (this.state === 'stopped' || this.state === 'stopping') return;
    this.state = 'stopping';
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.runner.shutdown(this.deps.stopGraceMs ?? 2_000);
    this.state = 'stopped';
  }

  async publish(
    type: WebhookEventType, data: Record<string, unknown>, endpointIds: readonly string[],
    options: { eventId?: string } = {},
  ): Promise<{ eventId: string }> {
    if (this.state === 'stopping' || this.state === 'stopped') {
      throw new Error(`publish() after stop (state ${this.state})`);
    }
    if (endpointIds.some((id) => this.cache.get(id) === undefined)) this.refresh();
    const targets = endpointIds.filter((id) => this.mayReceive(id));
    const pending = this.runner.pending.value;
    if (pending + targets.length > this.outboxMax) {
      this.runner.meters.dropped(targets.length);
      throw webhookErrors.outboxFull(pending, this.outboxMax);
    }
    const nowMs = this.deps.clock.nowMs();
    const { event, deliveries } = prepareEvent(type, data, targets, nowMs, nowMs, options.eventId);
    const written = await this.runner.pending.write(deliveries.length,
      () => enqueueEvent(this.outbox, event, deliveries),
      (done) => (done ? deliveries.length : 0));
    if (written) this.runner.wake(event.endpointIds, nowMs);
    return { eventId: event.id };
  }

  /** Active endpoint of an account that still has a webhook plan and a live key. */
  private mayReceive(endpointId: string): boolean {
    const record = this.cache.get(endpointId);
    if (record === undefined || record.disabledAtMs !== null) return false;
    const key = this.deps.keys.byPrefix(record.accountId);
    return key !== undefined && key.revokedAtMs === null && key.plan in ENDPOINTS_PER_PLAN;
  }

  deliveries(endpointId: string, limit = 50): DeliveryRecord[] {
    return recentDeliveries(this.outbox, endpointId, limit);
  }

  async replay(eventId: string, only?: (endpointId: string) => boolean): Promise<ReplayResult> {
    this.refresh();
    const nowMs = this.deps.clock.nowMs();
    const result = await this.runner.pending.write(0, () => replayEvent(this.outbox,
      (id) => this.cache.isActive(id) && (only === undefined || only(id)), eventId, nowMs,
      this.outboxMax), (replayed) => replayed.deliveries);
    this.runner.wake(result.endpointIds, nowMs);
    return result;
  }

  async tick(): Promise<void> {
    if (this.state !== 'running') return;
    this.refresh();
    this.runner.pumpAll();
    const nowMs = this.deps.clock.nowMs();
    if (nowMs - this.lastPruneMs >= PRUNE_PERIOD_MS) {
      this.lastPruneMs = nowMs;
      await pruneFinished(this.outbox, nowMs - OUTBOX_RETENTION_MS, PRUNE_BATCH_MAX);
    }
  }

  get meters(): WebhookMeters {
    return this.runner.meters;
  }

  stats(): SupervisorStats {
    const { pending, inFlight } = this.runner;
    let disabledEndpoints = 0;
    for (const e of this.cache.all()) if (e.disabledAtMs !== null) disabledEndpoints++;
    return { state: this.state, pending: pending.value, inFlight,
      oldestPendingCreatedMs: this.oldestPending(pending.value), disabledEndpoints };
  }

  /** Looked up again at most every OLDEST_PERIOD_MS while deliveries wait (service clock). */
  private oldestPending(pending: number): number | null {
    if (pending === 0) return (this.oldestPendingMs = null);
    const nowMs = this.deps.clock.nowMs();
    if (this.oldestPendingMs === null || nowMs - this.oldestAtMs >= OLDEST_PERIOD_MS) {
      this.oldestAtMs = nowMs;
      this.oldestPendingMs = oldestPendingCreatedMs(this.outbox);
    }
    return this.oldestPendingMs;
  }

  idle(): Promise<void> {
    return this.runner.idle();
  }
}
