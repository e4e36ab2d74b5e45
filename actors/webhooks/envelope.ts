// The event envelope (docs/webhooks.md) and the outbox records made from it when an event is
// published: the body is serialized once here and never again.
import type { DeliveryRecord, OutboxEvent, WebhookEventType } from '../../persistence/outbox.js';
import { webhookErrors } from './errors.js';
import { EVENT_ID_PATTERN, newEventId } from './ids.js';

export const EVENT_TYPES: readonly WebhookEventType[] =
  Object.freeze(['entry_signal.created', 'signal.outcome', 'alert.triggered', 'test']);
export const ENVELOPE_VERSION = '1';
/** Bound on one event's body; receivers are told to answer quickly, so events stay small. */
export const BODY_BYTES_MAX = 262_144;
/** Bound on the endpoints one event fans out to (20 per account, several accounts per alert). */
export const FANOUT_MAX = 10_000;

export function buildEnvelope(
  id: string, type: WebhookEventType, createdAtMs: number, data: Record<string, unknown>,
): string {
  return JSON.stringify({
    id, type, version: ENVELOPE_VERSION, created_at: new Date(createdAtMs).toISOString(), data,
  });
}

export function newDelivery(event: OutboxEvent, endpointId: string, dueAtMs: number):
  DeliveryRecord {
  return {
    eventId: event.id, endpointId, type: event.type, createdAtMs: event.createdAtMs,
    status: 'pending', attempts: 0, nextAttemptAtMs: dueAtMs, lastAttemptAtMs: null,
    lastResult: null, deadReason: null, replays: 0, history: [],
  };
}

/**
 * The event and one pending delivery per endpoint, due at dueAtMs. Unknown types, malformed
 * ids and oversized fan-outs are programmer errors; an oversized body is an operating error.
 */
export function prepareEvent(
  type: WebhookEventType, data: Record<string, unknown>, endpointIds: readonly string[],
  createdAtMs: number, dueAtMs: number, eventId: string = newEventId(),
): { event: OutboxEvent; deliveries: DeliveryRecord[] } {
  if (!EVENT_TYPES.includes(type)) throw new TypeError(`unknown webhook event type ${type}`);
  if (!EVENT_ID_PATTERN.test(eventId)) {
    throw new TypeError(`eventId must be evt_ + 24 hex (was ${JSON.stringify(eventId)})`);
  }
  const unique = [...new Set(endpointIds)];
  if (unique.length > FANOUT_MAX) throw new RangeError(`an event fans out to ${FANOUT_MAX} max`);
  const body = buildEnvelope(eventId, type, createdAtMs, data);
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > BODY_BYTES_MAX) throw webhookErrors.payloadTooLarge(bytes, BODY_BYTES_MAX);
  const event: OutboxEvent = { id: eventId, type, createdAtMs, body, endpointIds: unique };
  return { event, deliveries: unique.map((id) => newDelivery(event, id, dueAtMs)) };
}

/** The data of a `test` event (its fields are not fixed by the spec; documented in docs/). */
export function testEventData(endpointId: string): Record<string, unknown> {
  return {
    message: 'Test event from orderflow: your endpoint receives webhooks.',
    endpoint_id: endpointId,
  };
}
