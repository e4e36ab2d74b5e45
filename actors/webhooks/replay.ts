// Replay by event id: every finished delivery of the event (dead-lettered, or delivered and
// asked for again) whose endpoint is active starts a new round of attempts.
import type { OutboxTables } from '../../persistence/outbox.js';
import {
  deliveriesOfEvent, getEvent, pendingCount, transitionDeliveries,
} from '../../persistence/outbox.js';
import { limits } from '../../core/config.js';
import { webhookErrors } from './errors.js';

export interface ReplayResult {
  readonly deliveries: number;
  readonly endpointIds: readonly string[];
}

export async function replayEvent(
  outbox: OutboxTables, isActive: (endpointId: string) => boolean, eventId: string,
  dueAtMs: number, outboxMax: number = limits.webhookOutboxMax,
): Promise<ReplayResult> {
  const event = getEvent(outbox, eventId);
  if (event === undefined) throw webhookErrors.notFound('event id', eventId);
  const all = deliveriesOfEvent(outbox, event);
  const finished = all.filter((d) => d.status !== 'pending');
  const candidates = finished.filter((d) => isActive(d.endpointId));
  if (candidates.length === 0) {
    const why = all.length === 0 ? 'it was sent to no endpoint'
      : finished.length === 0 ? 'its deliveries are still pending'
        : 'its endpoints are removed or disabled';
    throw webhookErrors.nothingToReplay(eventId, why);
  }
  const pending = pendingCount(outbox);
  if (pending + candidates.length > outboxMax) throw webhookErrors.outboxFull(pending, outboxMax);
  const changes = candidates.map((previous) => ({
    previous,
    next: {
      ...previous, status: 'pending' as const, attempts: 0, nextAttemptAtMs: dueAtMs,
      deadReason: null, replays: previous.replays + 1,
    },
  }));
  const applied = await transitionDeliveries(outbox, changes);
  const endpointIds = candidates.filter((_, i) => applied[i]).map((d) => d.endpointId);
  return { deliveries: endpointIds.length, endpointIds };
}
