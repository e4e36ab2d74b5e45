// The webhook outbox: each event's exact body, one delivery record per (event, endpoint), and a
// due index of the pending deliveries ordered per endpoint by due time. An event is written here
// before its first attempt; every later state change is a compare-and-set on the delivery.
import type { Database, RootDatabase } from 'lmdb';
import { openTable } from './table.js';

export type WebhookEventType =
  | 'entry_signal.created' | 'signal.outcome' | 'alert.triggered' | 'test';

export interface OutboxEvent {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly createdAtMs: number;
  /** The envelope exactly as sent: unchanged across retries, restarts and replays. */
  readonly body: string;
  readonly endpointIds: readonly string[];
}

export interface AttemptRecord {
  readonly attempt: number;
  readonly atMs: number;
  /** X-Service-Delivery of this attempt. */
  readonly deliveryUuid: string;
  /** 'status 200', 'timeout', 'connection_refused', 'address_refused: ...', ... */
  readonly result: string;
  readonly statusCode: number | null;
  readonly durationMs: number;
}

export interface DeliveryRecord {
  readonly eventId: string;
  readonly endpointId: string;
  readonly type: WebhookEventType;
  readonly createdAtMs: number;
  readonly status: 'pending' | 'delivered' | 'dead';
  /** Attempts made in the current round (a replay starts a new round at 0). */
  readonly attempts: number;
  /** Due time of the next attempt while pending, else null. */
  readonly nextAttemptAtMs: number | null;
  readonly lastAttemptAtMs: number | null;
  readonly lastResult: string | null;
  readonly deadReason: string | null;
  readonly replays: number;
  /** The most recent attempts, oldest first, at most HISTORY_MAX. */
  readonly history: readonly AttemptRecord[];
}

/** [endpointId, createdAtMs, eventId]: lists an endpoint's deliveries in creation order. */
export type DeliveryKey = [string, number, string];
/** [endpointId, dueAtMs, createdAtMs, eventId]: present exactly while a delivery is pending. */
type DueKey = [string, number, number, string];

export const HISTORY_MAX = 16;
const KEY_MAX = Number.MAX_SAFE_INTEGER;

export interface OutboxTables {
  readonly root: RootDatabase;
  readonly events: Database<OutboxEvent, string>;
  readonly eventsByTime: Database<true, [number, string]>;
  readonly deliveries: Database<DeliveryRecord, DeliveryKey>;
  readonly due: Database<true, DueKey>;
}

export function openOutbox(root: RootDatabase): OutboxTables {
  return {
    root,
    events: openTable<OutboxEvent, string>(root, 'outbox_events'),
    eventsByTime: openTable<true, [number, string]>(root, 'outbox_events_by_time'),
    deliveries: openTable<DeliveryRecord, DeliveryKey>(root, 'outbox_deliveries'),
    due: openTable<true, DueKey>(root, 'outbox_due'),
  };
}

export function deliveryKeyOf(d: Pick<DeliveryRecord, 'endpointId' | 'createdAtMs' | 'eventId'>):
  DeliveryKey {
  return [d.endpointId, d.createdAtMs, d.eventId];
}

function dueKeyOf(d: DeliveryRecord): DueKey {
  if (d.status !== 'pending' || d.nextAttemptAtMs === null) {
    throw new Error(`delivery ${d.eventId}/${d.endpointId} is not pending with a due time`);
  }
  return [d.endpointId, d.nextAttemptAtMs, d.createdAtMs, d.eventId];
}

/**
 * Writes an event and its deliveries atomically; false (and nothing written) when an event with
 * this id exists already, so a re-published event id is never delivered twice over.
 */
export function enqueueEvent(
  tables: OutboxTables, event: OutboxEvent, deliveries: readonly DeliveryRecord[],
): Promise<boolean> {
  return tables.root.transaction(() => {
    if (tables.events.get(event.id) !== undefined) return false;
    tables.events.put(event.id, event);
    tables.eventsByTime.put([event.createdAtMs, event.id], true);
    for (const d of deliveries) {
      tables.deliveries.put(deliveryKeyOf(d), d);
      if (d.status === 'pending') tables.due.put(dueKeyOf(d), true);
    }
    return true;
  });
}

const sameState = (a: DeliveryRecord, b: DeliveryRecord) =>
  a.status === b.status && a.attempts === b.attempts && a.replays === b.replays &&
  a.nextAttemptAtMs === b.nextAttemptAtMs;

function applyTransition(tables: OutboxTables, previous: DeliveryRecord, next: DeliveryRecord):
  boolean {
  const key = deliveryKeyOf(previous);
  const current = tables.deliveries.get(key);
  if (current === undefined || !sameState(current, previous)) return false;
  if (previous.status === 'pending') tables.due.remove(dueKeyOf(previous));
  tables.deliveries.put(key, next);
  if (next.status === 'pending') tables.due.put(dueKeyOf(next), true);
  return true;
}

/**
 * Moves deliveries from `previous` to `next` state in one transaction. Each is a compare-and-
 * set: one whose stored state no longer equals `previous` (another process changed it) is left
 * alone. Resolves with a flag per transition: true where it was applied.
 */
export function transitionDeliveries(
  tables: OutboxTables, changes: readonly { previous: DeliveryRecord; next: DeliveryRecord }[],
): Promise<boolean[]> {
  for (const { previous, next } of changes) {
    if (previous.eventId !== next.eventId || previous.endpointId !== next.endpointId) {
      throw new Error('a delivery transition must keep its event and endpoint');
    }
  }
  return tables.root.transaction(() =>
    changes.map(({ previous, next }) => applyTransition(tables, previous, next)));
}

export interface DueEntry {
  readonly dueAtMs: number;
  readonly key: DeliveryKey;
}

/** The endpoint's pending deliveries, earliest due first. */
export function dueEntries(tables: OutboxTables, endpointId: string, limit: number): DueEntry[] {
  const out: DueEntry[] = [];
  const range = tables.due.getKeys({ start: [endpointId], end: [endpointId, KEY_MAX], limit });
  for (const [, dueAtMs, createdAtMs, eventId] of range) {
    out.push({ dueAtMs, key: [endpointId, createdAtMs, eventId] });
  }
  return out;
}

/**
 * Creation time of the oldest pending delivery (null: none pending), from the due index's keys
 * alone: no record is read. Bounded by the outbox's size (limits.webhookOutboxMax).
 */
export function oldestPendingCreatedMs(tables: OutboxTables): number | null {
  tables.root.resetReadTxn();
  let oldest = Infinity;
  for (const key of tables.due.getKeys()) if (key[2] < oldest) oldest = key[2];
  return oldest === Infinity ? null : oldest;
}

export function pendingCount(tables: OutboxTables): number {
  tables.root.resetReadTxn();
  return tables.due.getKeysCount();
}

export function getDelivery(tables: OutboxTables, key: DeliveryKey): DeliveryRecord | undefined {
  return tables.deliveries.get(key);
}

export function getEvent(tables: OutboxTables, eventId: string): OutboxEvent | undefined {
  return tables.events.get(eventId);
}

/** The endpoint's most recent deliveries, newest first. */
export function recentDeliveries(
  tables: OutboxTables, endpointId: string, limit: number,
): DeliveryRecord[] {
  tables.root.resetReadTxn();
  const range = tables.deliveries.getRange({
    start: [endpointId, KEY_MAX], end: [endpointId], reverse: true, limit,
  });
  return [...range].map(({ value }) => value);
}

export function deliveriesOfEvent(tables: OutboxTables, event: OutboxEvent): DeliveryRecord[] {
  const out: DeliveryRecord[] = [];
  for (const endpointId of event.endpointIds) {
    const d = tables.deliveries.get([endpointId, event.createdAtMs, event.id]);
    if (d !== undefined) out.push(d);
  }
  return out;
}

/**
 * Deletes events created before `beforeMs` whose deliveries are all finished, at most `limit`
 * per call (a bounded batch, run periodically). Returns how many events were removed.
 */
export async function pruneFinished(
  tables: OutboxTables, beforeMs: number, limit: number,
): Promise<number> {
  const old = [...tables.eventsByTime.getKeys({ start: [0], end: [beforeMs], limit })];
  return tables.root.transaction(() => {
    let removed = 0;
    for (const [createdAtMs, eventId] of old) {
      const event = tables.events.get(eventId);
      const deliveries = event === undefined ? [] : deliveriesOfEvent(tables, event);
      if (deliveries.some((d) => d.status === 'pending')) continue;
      for (const d of deliveries) tables.deliveries.remove(deliveryKeyOf(d));
      tables.events.remove(eventId);
      tables.eventsByTime.remove([createdAtMs, eventId]);
      removed += 1;
    }
    return removed;
  });
}
