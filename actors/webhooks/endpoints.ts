// The endpoint registry: per-account webhook endpoints with plan limits, URL checks, secrets
// shown once and 24 h rotation. Shared by the server's supervisor and the admin command line.
import type { KeyDirectory, Plan } from '../../core/messages.js';
import type { Clock } from '../../core/clock.js';
import type { EndpointTables, WebhookEndpointRecord } from '../../persistence/webhooks.js';
import {
  ENDPOINTS_TOTAL_MAX, listEndpointRecords, updateEndpointRecord,
} from '../../persistence/webhooks.js';
import type { OutboxTables } from '../../persistence/outbox.js';
import { deadLetterPending } from './dead-letter.js';
import { WebhookError, webhookErrors } from './errors.js';
import { newEndpointId, newSecret } from './ids.js';
import { checkWebhookUrl, parseWebhookUrl, type LookupFn } from './url-check.js';

/** Spec section 8: 5 endpoints on Pro, 20 on Whale and API; lower plans have none. */
export const ENDPOINTS_PER_PLAN: Readonly<Partial<Record<Plan, number>>> =
  Object.freeze({ Pro: 5, Whale: 20, API: 20 });
export const ROTATION_OVERLAP_MS = 86_400_000;

/** An endpoint as listings show it: never its secrets. */
export type EndpointView = Omit<WebhookEndpointRecord, 'secret' | 'previousSecret'>;

export interface EndpointRegistry {
  /** Registers a URL for the account; the secret is returned here only. */
  add(accountId: string, url: string): Promise<{ id: string; secret: string }>;
  list(accountId?: string): EndpointView[];
  get(id: string): EndpointView | undefined;
  /** A new secret; the old one keeps signing for 24 h (`v1=<new>,v1=<old>`). */
  rotate(id: string): { id: string; secret: string; previousSecretExpiresAtMs: number };
  /** Deletes the endpoint and dead-letters its pending deliveries. */
  remove(id: string): Promise<void>;
  /** Re-enables an endpoint disabled by a 410 or by failing for 5 days. */
  enable(id: string): EndpointView;
  byUrl(accountId: string, url: string): EndpointView | undefined;
}

export interface EndpointRegistryDeps {
  readonly tables: EndpointTables;
  readonly outbox: OutboxTables;
  readonly keys: KeyDirectory;
  readonly clock: Clock;
  readonly allowPrivate: boolean;
  readonly lookup: LookupFn;
}

export function viewOf(record: WebhookEndpointRecord): EndpointView {
  const { secret: _secret, previousSecret: _previous, ...view } = record;
  return view;
}

function planLimit(deps: EndpointRegistryDeps, accountId: string): { plan: Plan; max: number } {
  const key = deps.keys.byPrefix(accountId);
  if (key === undefined || key.revokedAtMs !== null) throw webhookErrors.unknownAccount(accountId);
  const max = ENDPOINTS_PER_PLAN[key.plan];
  if (max === undefined) throw webhookErrors.planRequired(key.plan);
  return { plan: key.plan, max };
}

async function addEndpoint(deps: EndpointRegistryDeps, accountId: string, rawUrl: string) {
  const { plan, max } = planLimit(deps, accountId);
  const checked = await checkWebhookUrl(rawUrl, deps);
  if (!checked.ok) throw checked.error;
  const url = checked.target.url.href;
  const id = newEndpointId();
  const secret = newSecret();
  const nowMs = deps.clock.nowMs();
  // Limits are re-checked inside the write transaction: two admin commands cannot both pass.
  updateEndpointRecord(deps.tables, id, () => {
    const all = listEndpointRecords(deps.tables);
    if (all.length >= ENDPOINTS_TOTAL_MAX) throw new Error('webhook endpoint table is full');
    const own = all.filter((e) => e.accountId === accountId);
    const same = own.find((e) => e.url === url);
    if (same) throw webhookErrors.duplicateEndpoint(url, same.id);
    if (own.length >= max) throw webhookErrors.endpointLimit(plan, max);
    return {
      id, accountId, url, secret, previousSecret: null, previousSecretExpiresAtMs: null,
      createdAtMs: nowMs, rotatedAtMs: null, disabledAtMs: null, disabledReason: null,
      failingSinceMs: null,
    };
  });
  return { id, secret };
}

function mustExist(record: WebhookEndpointRecord | undefined, id: string): WebhookEndpointRecord {
  if (record === undefined) throw webhookErrors.notFound('endpoint id', id);
  return record;
}

export function createEndpointRegistry(deps: EndpointRegistryDeps): EndpointRegistry {
  const all = () => listEndpointRecords(deps.tables);
  const read = (id: string) => deps.tables.endpoints.get(id);
  return {
    add: (accountId, url) => addEndpoint(deps, accountId, url),
    list: (accountId) => all().filter((e) => !accountId || e.accountId === accountId).map(viewOf),
    get: (id) => {
      const record = read(id);
      return record && viewOf(record);
    },
    rotate(id) {
      const secret = newSecret();
      const nowMs = deps.clock.nowMs();
      const expiresMs = nowMs + ROTATION_OVERLAP_MS;
      updateEndpointRecord(deps.tables, id, (current) => ({
        ...mustExist(current, id), secret, previousSecret: mustExist(current, id).secret,
        previousSecretExpiresAtMs: expiresMs, rotatedAtMs: nowMs,
      }));
      return { id, secret, previousSecretExpiresAtMs: expiresMs };
    },
    async remove(id) {
      updateEndpointRecord(deps.tables, id, (current) => (mustExist(current, id), null));
      await deadLetterPending(deps.outbox, id, 'endpoint_removed');
    },
    enable(id) {
      const next = updateEndpointRecord(deps.tables, id, (current) => ({
        ...mustExist(current, id), disabledAtMs: null, disabledReason: null, failingSinceMs: null,
      }));
      return viewOf(next as WebhookEndpointRecord);
    },
    byUrl(accountId, url) {
      const parsed = parseWebhookUrl(url, true);
      if (parsed instanceof WebhookError) return undefined;
      const found = all().find((e) => e.accountId === accountId && e.url === parsed.href);
      return found && viewOf(found);
    },
  };
}
