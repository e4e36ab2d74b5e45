// Webhook endpoints for the signed-in account: add (secret in this answer only), list, rotate,
// Send test event (waits for the receiver's answer: status and latency), remove, the delivery
// log, and replay of an event's finished deliveries to this account's endpoints.
import { testEventData } from '../../actors/webhooks/envelope.js';
import type { EndpointView } from '../../actors/webhooks/endpoints.js';
import { WebhookError } from '../../actors/webhooks/errors.js';
import type { DeliveryRecord } from '../../persistence/outbox.js';
import type { AccountRecord } from '../../persistence/accounts.js';
import {
  BadField, iso, notFound, problemAnswer, stringField, type AccountCall, type Answer,
} from './account-context.js';
import type { IngestAccountDeps } from './account-deps.js';
import { ownedKeys, ownedLiveKey } from './account-keys.js';
import { accountProblems } from './account-problems.js';

const POLL_MS = 100;
const DELIVERIES_MAX = 50;
const EVENT_ID = /^evt_[0-9a-f]{24}$/;

function endpointJson(view: EndpointView) {
  return {
    id: view.id, keyPrefix: view.accountId, url: view.url, createdAt: iso(view.createdAtMs),
    rotatedAt: iso(view.rotatedAtMs), previousSecretExpiresAt: iso(view.previousSecretExpiresAtMs),
    disabledAt: iso(view.disabledAtMs), disabledReason: view.disabledReason,
    failingSince: iso(view.failingSinceMs),
  };
}

function deliveryJson(d: DeliveryRecord) {
  return {
    eventId: d.eventId, endpointId: d.endpointId, type: d.type, createdAt: iso(d.createdAtMs),
    status: d.status, attempts: d.attempts, nextAttemptAt: iso(d.nextAttemptAtMs),
    lastAttemptAt: iso(d.lastAttemptAtMs), lastResult: d.lastResult, deadReason: d.deadReason,
    replays: d.replays,
    history: d.history.map((a) => ({ attempt: a.attempt, at: iso(a.atMs), result: a.result,
      statusCode: a.statusCode, durationMs: a.durationMs })),
  };
}

/** Every endpoint of the account's keys (revoked keys' too: their log stays readable). */
export function ownedEndpoints(deps: IngestAccountDeps, account: AccountRecord): EndpointView[] {
  const prefixes = new Set(ownedKeys(deps, account).map((k) => k.prefix));
  return deps.webhooks.endpoints.list().filter((e) => prefixes.has(e.accountId));
}

function ownedEndpoint(deps: IngestAccountDeps, account: AccountRecord, id: string):
  EndpointView | undefined {
  return ownedEndpoints(deps, account).find((e) => e.id === id);
}

/** Operating errors of the webhook part as problems (the message names the field). */
export function webhookProblem(error: unknown): Answer {
  if (!(error instanceof WebhookError)) throw error;
  switch (error.code) {
    case 'plan_required': return problemAnswer(accountProblems.planRequired(error.message));
    case 'duplicate_endpoint': case 'endpoint_limit': case 'nothing_to_replay':
      return problemAnswer(accountProblems.conflict(error.message));
    case 'outbox_full': return problemAnswer(accountProblems.bad(error.message, 503));
    default: return problemAnswer(accountProblems.bad(error.message));
  }
}

export function listEndpoints(deps: IngestAccountDeps, call: AccountCall): Answer {
  return { status: 200, json: { endpoints: ownedEndpoints(deps, call.account).map(endpointJson) } };
}

export async function addEndpoint(deps: IngestAccountDeps, call: AccountCall): Promise<Answer> {
  const prefix = stringField(call.body, 'keyPrefix', undefined, 12);
  const url = stringField(call.body, 'url');
  if (ownedLiveKey(deps, call.account, prefix) === undefined) {
    throw new BadField(`keyPrefix must be one of this account's live keys (was '${prefix}')`);
  }
  try {
    const { id, secret } = await deps.webhooks.endpoints.add(prefix, url);
    const view = deps.webhooks.endpoints.get(id) as EndpointView;
    return { status: 201, json: { ...endpointJson(view), secret } };
  } catch (error) {
    return webhookProblem(error);
  }
}

export function rotateEndpoint(deps: IngestAccountDeps, call: AccountCall): Answer {
  if (ownedEndpoint(deps, call.account, call.param) === undefined) {
    return notFound('endpoint', call.param);
  }
  const rotated = deps.webhooks.endpoints.rotate(call.param);
  return { status: 200, json: { id: rotated.id, secret: rotated.secret,
    previousSecretExpiresAt: iso(rotated.previousSecretExpiresAtMs) } };
}

export async function removeEndpoint(deps: IngestAccountDeps, call: AccountCall): Promise<Answer> {
  if (ownedEndpoint(deps, call.account, call.param) === undefined) {
    return notFound('endpoint', call.param);
  }
  await deps.webhooks.endpoints.remove(call.param);
  return { status: 200, json: { id: call.param, removed: true } };
}

export function endpointDeliveries(deps: IngestAccountDeps, call: AccountCall): Answer {
  if (ownedEndpoint(deps, call.account, call.param) === undefined) {
    return notFound('endpoint', call.param);
  }
  return { status: 200, json: {
    deliveries: deps.webhooks.deliveries(call.param, DELIVERIES_MAX).map(deliveryJson) } };
}

/** Queues a signed `test` event and waits (bounded) for the first attempt's outcome. */
export async function sendTestEvent(deps: IngestAccountDeps, call: AccountCall): Promise<Answer> {
  const endpoint = ownedEndpoint(deps, call.account, call.param);
  if (endpoint === undefined) return notFound('endpoint', call.param);
  if (endpoint.disabledAtMs !== null) {
    return problemAnswer(accountProblems.conflict(`endpoint ${endpoint.id} is disabled ` +
      `(${endpoint.disabledReason}); re-enable it first`));
  }
  let eventId: string;
  try {
    ({ eventId } = await deps.webhooks.publish('test', testEventData(endpoint.id), [endpoint.id]));
  } catch (error) {
    return webhookProblem(error);
  }
  // Wall time on purpose: the wait is for a real receiver, even under a travelling clock.
  const deadlineMs = Date.now() + (deps.testWaitMs ?? 12_000);
  for (;;) {
    const delivery = deps.webhooks.deliveries(endpoint.id, 20).find((d) => d.eventId === eventId);
    const first = delivery?.history[0];
    if (first !== undefined || Date.now() >= deadlineMs) {
      return { status: 200, json: {
        eventId, delivered: delivery?.status === 'delivered',
        statusCode: first?.statusCode ?? null, latencyMs: first?.durationMs ?? null,
        result: first?.result ?? 'no answer yet (the attempt is still running)',
        nextAttemptAt: iso(delivery?.nextAttemptAtMs ?? null),
      } };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function replayEvent(deps: IngestAccountDeps, call: AccountCall): Promise<Answer> {
  if (!EVENT_ID.test(call.param)) return notFound('event', call.param);
  const own = new Set(ownedEndpoints(deps, call.account).map((e) => e.id));
  const seen = [...own].some((id) => deps.webhooks.deliveries(id, 500)
    .some((d) => d.eventId === call.param));
  if (!seen) return notFound('event', call.param);
  try {
    const result = await deps.webhooks.replay(call.param, (id) => own.has(id));
    return { status: 200, json: { eventId: call.param, deliveries: result.deliveries,
      endpointIds: result.endpointIds } };
  } catch (error) {
    return webhookProblem(error);
  }
}
