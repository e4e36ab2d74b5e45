// Reusable OpenAPI parts: headers, parameters, security schemes and error responses.
import { CVD_INTERVALS, CVD_LIMIT_DEFAULT, CVD_LIMIT_MAX } from '../handlers/cvd.js';
import { EXPORT_VIEWS } from '../handlers/export.js';
import type { Schema } from './schemas-common.js';

const problem = (description: string, headers: string[] = []): Schema => ({
  description,
  headers: Object.fromEntries(headers.map((h) => [h, { $ref: `#/components/headers/${h}` }])),
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const header = (description: string, schema: Schema = { type: 'string' }) =>
  ({ description, schema });

export const headers: Record<string, Schema> = {
  'ETag': header('Strong validator of the body; send it back in If-None-Match.'),
  'Last-Modified': header('When the producer last refreshed the view (HTTP-date).'),
  'Cache-Control': header('max-age equals the producer cadence in whole seconds.'),
  'X-Producer-Cadence-Ms': header('How often the producer refreshes the view, ms.',
    { type: 'integer' }),
  'RateLimit-Policy': header('Keyed requests: "burst";q=60;w=60, "daily";q=<limit>;w=86400.'),
  'RateLimit': header('Keyed requests: "burst";r=<left>;t=<s>, "daily";r=<left>;t=<s>.'),
  'Retry-After': header('Whole seconds; waiting this long is never too early.',
    { type: 'integer' }),
  'Allow': header('The methods the path answers.'),
  'WWW-Authenticate': header('Bearer realm="orderflow".'),
  'X-Producer-Stale': header('Scale-out fronts only (docs/scale-out.md): `true` when the view ' +
    'may be old (ingest not heard from for 3 s, or Redis unreachable); absent otherwise.',
  { type: 'string', enum: ['true'] }),
};

export const parameters: Record<string, Schema> = {
  symbol: {
    name: 'symbol', in: 'path', required: true,
    description: 'A listed pair: BTC, kPEPE, or a builder market xyz:TSLA (xyz%3ATSLA too).',
    schema: { type: 'string', pattern: '^(?:[a-z][a-z0-9]{0,15}:)?[A-Za-z0-9]{1,24}$' },
  },
  address: {
    name: 'address', in: 'path', required: true, description: 'Wallet address.',
    schema: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
  },
  view: {
    name: 'view', in: 'path', required: true, description: 'The JSON view to export.',
    schema: { type: 'string', enum: EXPORT_VIEWS },
  },
  interval: {
    name: 'interval', in: 'query', required: false, description: 'History bar interval.',
    schema: { type: 'string', enum: [...CVD_INTERVALS], default: '5m' },
  },
  limit: {
    name: 'limit', in: 'query', required: false, description: 'Newest points returned.',
    schema: { type: 'integer', minimum: 1, maximum: CVD_LIMIT_MAX, default: CVD_LIMIT_DEFAULT },
  },
  ifNoneMatch: {
    name: 'If-None-Match', in: 'header', required: false,
    description: 'An ETag from an earlier answer: 304 when the view has not changed.',
    schema: { type: 'string' },
  },
};

export const securitySchemes: Record<string, Schema> = {
  bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>.' },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key',
    description: 'Used when no Authorization header is sent.' },
  apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key',
    description: 'Last resort for clients that cannot set headers (URLs end up in logs).' },
};

export const errorResponses: Record<string, Schema> = {
  BadRequest: problem('Malformed symbol or parameter, undocumented or repeated parameter.'),
  Unauthorized: problem('Missing (where required), malformed, unknown or revoked key.',
    ['WWW-Authenticate']),
  Forbidden: problem('plan_required: the key\'s plan is below the endpoint\'s tier ' +
    '(requiredPlan names it); or host_not_allowed (see HostNotAllowed).',
  ['RateLimit', 'RateLimit-Policy']),
  HostNotAllowed: problem('host_not_allowed: the service listens on a loopback address and ' +
    'the Host is not localhost, 127.0.0.1 or [::1] (any port) or a name in ' +
    'ORDERFLOW_ALLOWED_HOSTS (DNS rebinding). /healthz and /readyz answer any Host.'),
  NotFound: problem('unknown_symbol, not_tracked (orderflow views), or not_found.'),
  MethodNotAllowed: problem('Only GET, HEAD and OPTIONS.', ['Allow']),
  UriTooLong: problem('The URL is longer than 2048 bytes.'),
  TooManyRequests: problem('rate_limited (burst, rolling 60 s) or quota_exceeded (daily).',
    ['Retry-After', 'RateLimit', 'RateLimit-Policy']),
  NotReady: problem('The view has not been computed yet (service starting).', ['Retry-After']),
  NotModified: {
    description: 'The If-None-Match tag is current: no body. Costs burst, not daily quota.',
    headers: Object.fromEntries(['ETag', 'Cache-Control', 'Last-Modified',
      'X-Producer-Cadence-Ms'].map((h) => [h, { $ref: `#/components/headers/${h}` }])),
  },
};
