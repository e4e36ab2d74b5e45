// Runs attempts for the supervisor: takes due deliveries from the dispatcher, sends them,
// records each result as one compare-and-set on the outbox, and applies what the result means
// for the endpoint (healthy again, failing since, disabled by 410 or by 5 days of failures).
import { setMaxListeners } from 'node:events';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { DeliveryRecord, DueEntry, OutboxTables } from '../../persistence/outbox.js';
import {
  getDelivery, getEvent, pendingCount, transitionDeliveries,
} from '../../persistence/outbox.js';
import type { EndpointTables, WebhookEndpointRecord } from '../../persistence/webhooks.js';
import { updateEndpointRecord } from '../../persistence/webhooks.js';
import { sendAttempt } from './attempt.js';
import { deadLetterPending } from './dead-letter.js';
import { deadLettered, decideAfterAttempt, type EndpointEffect } from './decide.js';
import { Dispatcher } from './dispatcher.js';
import { PendingCount } from './pending-count.js';
import { WebhookMeters } from './meters.js';
import type { EndpointCache } from './endpoint-cache.js';
import type { PostAgents } from './post.js';
import type { LookupFn } from './url-check.js';

/** An endpoint whose every attempt failed for this long is disabled (docs/decisions.md). */
export const FAILING_DISABLE_MS = 5 * 86_400_000;

export interface RunnerDeps {
  readonly outbox: OutboxTables;
  readonly tables: EndpointTables;
  readonly cache: EndpointCache;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly allowPrivate: boolean;
  readonly lookup: LookupFn;
  readonly random: () => number;
  readonly timeoutMs: number;
  readonly agents: PostAgents;
  readonly perEndpointMax: number;
  readonly totalMax: number;
}

export class DeliveryRunner {
  /** Deliveries waiting in the outbox (kept in memory, recounted on admin changes). */
  readonly pending: PendingCount;
  /** Deliveries by result and their latency, for the metrics. */
  readonly meters = new WebhookMeters();
  private readonly dispatcher: Dispatcher;
  private readonly attempts = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private readonly isActive = (id: string) => this.deps.cache.isActive(id);

  constructor(private readonly deps: RunnerDeps) {
    // Every attempt on the wire listens on this one signal: allow the in-flight bound.
    setMaxListeners(deps.totalMax + 16, this.abort.signal);
    this.pending = new PendingCount(() => pendingCount(deps.outbox));
    this.dispatcher = new Dispatcher(deps.outbox, deps.perEndpointMax, deps.totalMax,
      (endpointId, entry) => this.launch(endpointId, entry));
  }

  start(): void {
    this.syncEndpoints();
    this.dispatcher.paused = false;
    this.pumpAll();
  }

  get inFlight(): number {
    return this.dispatcher.inFlightTotal;
  }

  syncEndpoints(): void {
    this.dispatcher.syncEndpoints([...this.deps.cache.all()].map((e) => e.id));
    this.dispatcher.markAllUnknown();
  }

  pumpAll(): void {
    this.dispatcher.pumpAll(this.deps.clock.nowMs(), this.isActive);
  }

  /** New work due at dueMs on these endpoints (a publish or a replay). */
  wake(endpointIds: readonly string[], dueMs: number): void {
    const nowMs = this.deps.clock.nowMs();
    for (const id of endpointIds) {
      this.dispatcher.markDue(id, dueMs);
      this.dispatcher.pumpLane(id, nowMs, this.isActive);
    }
  }

  private launch(endpointId: string, entry: DueEntry): void {
    const attempt = this.execute(endpointId, entry);
    this.attempts.add(attempt);
    void attempt.finally(() => this.attempts.delete(attempt));
  }

  private async execute(endpointId: string, entry: DueEntry): Promise<void> {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.dispatcher.release(endpointId, this.deps.clock.nowMs(), this.isActive);
    };
    let nextDueMs: number | null = null;
    try {
      nextDueMs = await this.attemptOnce(endpointId, entry, release);
    } catch (error) {
      this.deps.logger.error('webhook attempt failed unexpectedly', { endpointId, error });
    } finally {
      release();
      this.dispatcher.settled(endpointId, entry.key, nextDueMs);
      this.dispatcher.pumpLane(endpointId, this.deps.clock.nowMs(), this.isActive);
    }
    // An endpoint disabled while this attempt was on the wire: its disable skipped this
    // delivery (busy then), so sweep again now that it is settled.
    if (nextDueMs !== null && !this.deps.cache.isActive(endpointId)) {
      await this.sweep(endpointId);
    }
  }

  private async sweep(endpointId: string): Promise<void> {
    const dead = await this.pending.write(0, () => deadLetterPending(this.deps.outbox,
      endpointId, 'endpoint_disabled', this.dispatcher.busyTokens(endpointId)), (n) => -n);
    this.meters.dropped(dead);
  }

  /** One attempt end to end; returns when the delivery is due again, or null. */
  private async attemptOnce(endpointId: string, entry: DueEntry, release: () => void):
    Promise<number | null> {
    const { outbox, cache, clock } = this.deps;
    const delivery = getDelivery(outbox, entry.key);
    const event = delivery && getEvent(outbox, delivery.eventId);
    if (delivery?.status !== 'pending' || event === undefined) return null;
    const endpoint = cache.get(endpointId);
    if (endpoint === undefined || endpoint.disabledAtMs !== null) {
      release();
      return this.record(delivery, deadLettered(delivery, inactiveReason(endpoint)));
    }
    const sent = await sendAttempt({
      ...this.deps, signal: this.abort.signal,
    }, endpoint, event, delivery.attempts + 1);
    release();
    // Abandoned at shutdown: nothing is recorded, so a restart repeats this attempt number.
    if (sent.result.kind === 'error' && sent.result.reason === 'aborted') return null;
    const decision = decideAfterAttempt(delivery, sent.result, sent, clock.nowMs(),
      this.deps.random());
    const now = cache.get(endpointId);
    const inactive = now === undefined || now.disabledAtMs !== null;
    const next = decision.next.status === 'pending' && inactive
      ? deadLettered(decision.next, inactiveReason(now)) : decision.next;
    this.deps.logger.debug('webhook attempt', {
      endpointId, eventId: event.id, attempt: sent.number, result: next.lastResult,
      status: next.status,
    });
    const nextDueMs = await this.record(delivery, next);
    await this.applyEffect(endpointId, decision.effect);
    return nextDueMs;
  }

  private async record(previous: DeliveryRecord, next: DeliveryRecord): Promise<number | null> {
    const finished = next.status !== 'pending';
    const [applied] = await this.pending.write(0,
      () => transitionDeliveries(this.deps.outbox, [{ previous, next }]),
      ([done]) => (done && finished ? -1 : 0));
    if (!applied) return null;
    this.meters.recorded(previous, next, this.deps.clock.nowMs());
    if (next.status === 'dead') {
      this.deps.logger.warn('webhook delivery dead-lettered', {
        eventId: next.eventId, endpointId: next.endpointId, reason: next.deadReason,
      });
    }
    return finished ? null : next.nextAttemptAtMs;
  }

  private async applyEffect(endpointId: string, effect: EndpointEffect): Promise<void> {
    const record = this.deps.cache.get(endpointId);
    if (record === undefined || record.disabledAtMs !== null) return;
    const nowMs = this.deps.clock.nowMs();
    if (effect === 'success') {
      if (record.failingSinceMs !== null) this.patch(endpointId, { failingSinceMs: null });
    } else if (effect === 'gone') {
      await this.disable(endpointId, 'gone', nowMs);
    } else if (record.failingSinceMs === null) {
      this.patch(endpointId, { failingSinceMs: nowMs });
    } else if (nowMs - record.failingSinceMs >= FAILING_DISABLE_MS) {
      await this.disable(endpointId, 'failing', nowMs);
    }
  }

  private patch(endpointId: string, change: Partial<WebhookEndpointRecord>): void {
    const next = updateEndpointRecord(this.deps.tables, endpointId,
      (current) => current && { ...current, ...change });
    if (next) this.deps.cache.set(next);
  }

  private async disable(endpointId: string, reason: 'gone' | 'failing', nowMs: number) {
    this.patch(endpointId, { disabledAtMs: nowMs, disabledReason: reason });
    this.deps.logger.warn('webhook endpoint disabled', { endpointId, reason });
    await this.sweep(endpointId);
  }

  /** Resolves when nothing is in flight or being recorded (bounded: attempts end by timeout). */
  async idle(): Promise<void> {
    for (let round = 0; round < 1_000 && this.attempts.size > 0; round++) {
      await Promise.allSettled([...this.attempts]);
    }
  }

  async shutdown(graceMs: number): Promise<void> {
    this.dispatcher.paused = true;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => { timer = setTimeout(resolve, graceMs); });
    await Promise.race([this.idle(), grace]);
    clearTimeout(timer);
    this.abort.abort();
    await this.idle();
    this.deps.agents.http.destroy();
    this.deps.agents.https.destroy();
  }
}

function inactiveReason(endpoint: WebhookEndpointRecord | undefined): string {
  return endpoint === undefined ? 'endpoint_removed' : 'endpoint_disabled';
}
