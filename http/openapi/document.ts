// The OpenAPI 3.1 document of the REST API: every endpoint, parameter, response and error, and
// the key requirement exactly where the access rule puts it (docs/decisions.md, "Plans and
// access").
import type { Schema } from './schemas-common.js';
import { opsSchemas } from './schemas-ops.js';
import { viewSchemas } from './schemas-views.js';
import { errorResponses, headers, parameters, securitySchemes } from './responses.js';
import { operations, type Operation } from './operations.js';
import { webhookSection } from './webhooks.js';
import { accountPaths, accountSecuritySchemes } from './account.js';
import { historyParameters, historySchemas } from './schemas-history.js';
import { footprintParameters, footprintSchemas } from './schemas-footprint.js';

const KEYED = [{ bearer: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }];
const refTo = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const headerRefs = (names: string[]) =>
  Object.fromEntries(names.map((n) => [n, refTo('headers', n)]));

function okResponse(op: Operation): Schema {
  const feedHeaders = op.feed ? ['ETag', 'Last-Modified', 'Cache-Control',
    'X-Producer-Cadence-Ms'] : ['Cache-Control'];
  const rate = op.key === 'none' ? [] : ['RateLimit', 'RateLimit-Policy'];
  const content = op.csv
    ? { 'text/csv': { schema: { type: 'string' } } }
    : { [op.contentType ?? 'application/json']: { schema: op.schema },
      ...op.alternates };
  return { description: op.okDescription ?? 'OK', headers: headerRefs([...feedHeaders, ...rate]),
    content };
}

function responsesOf(op: Operation): Schema {
  const r: Record<string, unknown> = { '200': okResponse(op) };
  if (op.feed) r['304'] = refTo('responses', 'NotModified');
  r['400'] = refTo('responses', 'BadRequest');
  if (op.key !== 'none') r['401'] = refTo('responses', 'Unauthorized');
  if (op.plan !== undefined) r['403'] = refTo('responses', 'Forbidden');
  else if (op.path !== '/healthz' && op.path !== '/readyz') {
    r['403'] = refTo('responses', 'HostNotAllowed');
  }
  r['404'] = refTo('responses', 'NotFound');
  r['405'] = refTo('responses', 'MethodNotAllowed');
  r['414'] = refTo('responses', 'UriTooLong');
  if (op.key !== 'none') r['429'] = refTo('responses', 'TooManyRequests');
  if (op.feed) r['503'] = refTo('responses', 'NotReady');
  for (const [status, response] of Object.entries(op.extraResponses ?? {})) r[status] = response;
  return r;
}

function operationOf(op: Operation): Schema {
  const gate = op.key === 'required' ? `Key required; ${op.plan ?? 'any'} plan or above.`
    : op.key === 'optional' ? 'Key optional: without one, the per-IP daily quota applies.'
      : 'No key, outside quotas.';
  const burst = op.burst === undefined ? '' : ` Burst: ${op.burst} per rolling minute.`;
  return {
    operationId: op.id,
    summary: op.summary,
    description: `${op.description ?? ''} ${gate}${burst}`.trim(),
    tags: [op.tag],
    security: op.key === 'required' ? KEYED : op.key === 'optional' ? [{}, ...KEYED] : [],
    parameters: [...op.parameters.map((p) => refTo('parameters', p)),
      ...(op.feed ? [refTo('parameters', 'ifNoneMatch')] : [])],
    responses: responsesOf(op),
    ...(op.plan === undefined ? {} : { 'x-required-plan': op.plan }),
  };
}

export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Schema> = {};
  for (const op of operations) paths[op.path] = { get: operationOf(op) };
  Object.assign(paths, accountPaths());
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'orderflow REST API',
      version: '1.0.0',
      description: 'Orderflow analytics for perpetual futures. Errors are RFC 9457 problem ' +
        'details with a stable code. Daily quotas reset at midnight Europe/Rome. Every GET ' +
        'path also answers HEAD, and OPTIONS for CORS preflight (204, no quota).',
    },
    servers: [{ url: '/' }],
    paths,
    webhooks: webhookSection(),
    components: {
      schemas: { ...viewSchemas, ...opsSchemas, ...historySchemas, ...footprintSchemas },
      parameters: { ...parameters, ...historyParameters, ...footprintParameters }, headers,
      securitySchemes: { ...securitySchemes, ...accountSecuritySchemes },
      responses: errorResponses,
    },
  };
}
