// Dead-letters every pending delivery of an endpoint (removed, or disabled by a 410 or by
// 5 days of failures) in bounded batches, leaving alone those an attempt is working on.
import type { OutboxTables } from '../../persistence/outbox.js';
import { dueEntries, getDelivery, transitionDeliveries } from '../../persistence/outbox.js';
import { limits } from '../../core/config.js';
import { deadLettered } from './decide.js';

const BATCH_MAX = 500;

/** Token of a delivery in memory: `createdAtMs:eventId` (the endpoint is known from context). */
export function deliveryToken(key: readonly [string, number, string]): string {
  return `${key[1]}:${key[2]}`;
}

/** Returns how many deliveries were dead-lettered. */
export async function deadLetterPending(
  outbox: OutboxTables, endpointId: string, reason: string,
  busy: ReadonlySet<string> = new Set(),
): Promise<number> {
  let total = 0;
  const roundsMax = Math.ceil(limits.webhookOutboxMax / BATCH_MAX) + 1;
  for (let round = 0; round < roundsMax; round++) {
    // Read the newest commit: a stale `previous` would fail the compare-and-set every round and
    // leave the deliveries pending.
    outbox.root.resetReadTxn();
    const entries = dueEntries(outbox, endpointId, BATCH_MAX + busy.size);
    const changes = [];
    for (const entry of entries) {
      if (busy.has(deliveryToken(entry.key))) continue;
      const previous = getDelivery(outbox, entry.key);
      if (previous?.status === 'pending') {
        changes.push({ previous, next: deadLettered(previous, reason) });
      }
    }
    if (changes.length === 0) break;
    const applied = await transitionDeliveries(outbox, changes);
    total += applied.filter(Boolean).length;
  }
  return total;
}
