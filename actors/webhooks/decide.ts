// What an attempt's result means for its delivery: delivered, retried when, dead-lettered, or
// the endpoint disabled (410). Pure: the caller supplies the clock reading and the jitter draw.
import type { AttemptRecord, DeliveryRecord } from '../../persistence/outbox.js';
import { HISTORY_MAX } from '../../persistence/outbox.js';
import type { AttemptResult } from './post.js';
import { nextAttemptAtMs, parseRetryAfterMs } from './schedule.js';

/** How the endpoint's health is affected: it answered 2xx, failed, or said it is gone (410). */
export type EndpointEffect = 'success' | 'failure' | 'gone';

export interface Decision {
  readonly next: DeliveryRecord;
  readonly effect: EndpointEffect;
}

export function describeResult(result: AttemptResult): string {
  if (result.kind === 'response') return `status ${result.status}`;
  return result.reason === 'address_refused' ? `address_refused: ${result.message}` : result.reason;
}

function effectOf(result: AttemptResult): EndpointEffect {
  if (result.kind !== 'response') return 'failure';
  // 2xx only: a 3xx is not followed, it is a failure like any other status (docs/decisions.md).
  if (result.status >= 200 && result.status < 300) return 'success';
  return result.status === 410 ? 'gone' : 'failure';
}

function honouredRetryAfterMs(result: AttemptResult, nowMs: number): number | null {
  if (result.kind !== 'response' || (result.status !== 429 && result.status !== 503)) return null;
  return parseRetryAfterMs(result.retryAfter, result.date, nowMs);
}

/**
 * The delivery after one attempt. attempt: what was sent (number, start time, delivery UUID);
 * random: a uniform draw in [0, 1) for the jitter.
 */
export function decideAfterAttempt(
  delivery: DeliveryRecord, result: AttemptResult,
  attempt: { readonly number: number; readonly startMs: number; readonly uuid: string },
  nowMs: number, random: number,
): Decision {
  const effect = effectOf(result);
  const label = describeResult(result);
  const record: AttemptRecord = {
    attempt: attempt.number, atMs: attempt.startMs, deliveryUuid: attempt.uuid, result: label,
    statusCode: result.kind === 'response' ? result.status : null,
    durationMs: Math.max(0, nowMs - attempt.startMs),
  };
  const base = {
    ...delivery, attempts: attempt.number, lastAttemptAtMs: attempt.startMs, lastResult: label,
    history: [...delivery.history, record].slice(-HISTORY_MAX),
  };
  if (effect === 'success') {
    return { effect, next: { ...base, status: 'delivered', nextAttemptAtMs: null } };
  }
  if (effect === 'gone') {
    return { effect, next: { ...base, status: 'dead', nextAttemptAtMs: null, deadReason: 'gone' } };
  }
  // Retry-After counts from the response, the schedule from the attempt's start.
  const retryAfterMs = honouredRetryAfterMs(result, nowMs);
  const dueMs = nextAttemptAtMs(attempt.number, attempt.startMs, random,
    retryAfterMs === null ? null : retryAfterMs + (nowMs - attempt.startMs));
  if (dueMs === null) {
    return {
      effect,
      next: { ...base, status: 'dead', nextAttemptAtMs: null, deadReason: 'attempts_exhausted' },
    };
  }
  return { effect, next: { ...base, status: 'pending', nextAttemptAtMs: dueMs } };
}

/** A pending delivery dead-lettered without an attempt (endpoint disabled or removed). */
export function deadLettered(delivery: DeliveryRecord, reason: string): DeliveryRecord {
  return { ...delivery, status: 'dead', nextAttemptAtMs: null, deadReason: reason };
}
