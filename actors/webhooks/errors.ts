// Operating errors of the webhook part (bad URL, plan, limits, full outbox): one class with a
// stable code, built only through the factory table below so messages stay uniform.

export type WebhookErrorCode =
  | 'invalid_url' | 'url_refused' | 'unresolvable' | 'unknown_account' | 'plan_required'
  | 'endpoint_limit' | 'duplicate_endpoint' | 'not_found' | 'outbox_full' | 'payload_too_large'
  | 'nothing_to_replay';

export class WebhookError extends Error {
  readonly code: WebhookErrorCode;
  constructor(code: WebhookErrorCode, message: string) {
    super(message);
    this.name = 'WebhookError';
    this.code = code;
  }
}

const shown = (value: unknown) => JSON.stringify(value) ?? String(value);

export const webhookErrors = {
  invalidUrl: (found: string, expected: string) => new WebhookError('invalid_url',
    `url must be ${expected} (was ${shown(found)})`),
  urlRefused: (found: string, address: string, why: string) => new WebhookError('url_refused',
    `url must point at a public address; ${shown(found)} resolves to ${address} (${why}); ` +
    'set ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS=1 to allow private addresses'),
  unresolvable: (host: string, cause: string) => new WebhookError('unresolvable',
    `url host must resolve in DNS (was ${shown(host)}: ${cause})`),
  unknownAccount: (prefix: string) => new WebhookError('unknown_account',
    `key must be the prefix of an active API key, ofk_ + 8 hex (was ${shown(prefix)})`),
  planRequired: (plan: string) => new WebhookError('plan_required',
    `webhooks need the Pro plan or above (plan was ${plan})`),
  endpointLimit: (plan: string, limit: number) => new WebhookError('endpoint_limit',
    `the ${plan} plan allows at most ${limit} webhook endpoints (all ${limit} are in use)`),
  duplicateEndpoint: (url: string, id: string) => new WebhookError('duplicate_endpoint',
    `url must not already be registered for this account (was ${shown(url)}, endpoint ${id})`),
  notFound: (what: string, id: string) => new WebhookError('not_found',
    `${what} must exist (was ${shown(id)})`),
  outboxFull: (pending: number, max: number) => new WebhookError('outbox_full',
    `webhook outbox is full: ${pending} deliveries pending, limit ${max}; event refused`),
  payloadTooLarge: (bytes: number, max: number) => new WebhookError('payload_too_large',
    `event body must be at most ${max} bytes (was ${bytes})`),
  nothingToReplay: (eventId: string, why: string) => new WebhookError('nothing_to_replay',
    `event ${eventId} has no delivery to replay (${why})`),
} as const;
