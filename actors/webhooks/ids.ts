// Identifiers and secrets of the webhook part: event ids, endpoint ids, signing secrets.
import { createHash, randomBytes } from 'node:crypto';

/** `evt_` + 24 lower-case hex (docs/decisions.md). */
export const EVENT_ID_PATTERN = /^evt_[0-9a-f]{24}$/;
export const ENDPOINT_ID_PATTERN = /^we_[0-9a-f]{16}$/;
export const SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

export function newEventId(): string {
  return 'evt_' + randomBytes(12).toString('hex');
}

/**
 * The event id of an entry signal, derived from its signal_id so that a restart that detects
 * the same signal again publishes it under the same id (and the outbox ignores the duplicate).
 */
export function eventIdForSignal(signalId: string): string {
  if (typeof signalId !== 'string' || signalId.length === 0) {
    throw new TypeError(`signalId must be a non-empty string (was ${JSON.stringify(signalId)})`);
  }
  const digest = createHash('sha256').update('entry_signal.created\n' + signalId).digest('hex');
  return 'evt_' + digest.slice(0, 24);
}

export function newEndpointId(): string {
  return 'we_' + randomBytes(8).toString('hex');
}

/** `whsec_` + 32 random bytes in base64url (43 characters, no padding). */
export function newSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64url');
}
