// Sends one attempt of a delivery: re-checks the URL (DNS may have changed since registration),
// signs with a fresh timestamp and the endpoint's active secrets, and POSTs the stored body.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { OutboxEvent } from '../../persistence/outbox.js';
import type { WebhookEndpointRecord } from '../../persistence/webhooks.js';
import { activeSecrets } from './endpoint-cache.js';
import { postOnce, type AttemptResult, type PostAgents } from './post.js';
import { signatureHeader } from './sign.js';
import { checkWebhookUrl, type LookupFn } from './url-check.js';

export interface AttemptDeps {
  readonly clock: Clock;
  readonly allowPrivate: boolean;
  readonly lookup: LookupFn;
  readonly agents: PostAgents;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

export interface SentAttempt {
  readonly number: number;
  readonly startMs: number;
  readonly uuid: string;
  readonly result: AttemptResult;
}

export function deliveryHeaders(
  event: OutboxEvent, uuid: string, attempt: number, timestampSec: number, signature: string,
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'orderflow-webhooks/1',
    'X-Service-Event': event.type,
    'X-Service-Event-Id': event.id,
    'X-Service-Delivery': uuid,
    'X-Service-Attempt': String(attempt),
    'X-Service-Timestamp': String(timestampSec),
    'X-Service-Signature': signature,
  };
}

export async function sendAttempt(
  deps: AttemptDeps, endpoint: WebhookEndpointRecord, event: OutboxEvent, number: number,
): Promise<SentAttempt> {
  const startMs = deps.clock.nowMs();
  const uuid = randomUUID();
  const checked = await checkWebhookUrl(endpoint.url, deps);
  if (!checked.ok) {
    const reason = checked.error.code === 'unresolvable' ? 'network' : 'address_refused';
    const result = { kind: 'error', reason, message: checked.error.message } as const;
    return { number, startMs, uuid, result };
  }
  // Timestamp and signature are made at send time, afresh for every attempt.
  const nowMs = deps.clock.nowMs();
  const timestampSec = Math.floor(nowMs / 1000);
  const signature = signatureHeader(activeSecrets(endpoint, nowMs), timestampSec, event.body);
  const headers = deliveryHeaders(event, uuid, number, timestampSec, signature);
  const result = await postOnce(checked.target, headers, event.body, deps);
  return { number, startMs, uuid, result };
}
