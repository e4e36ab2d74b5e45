// The error factory table of the HTTP front: every problem (RFC 9457) the REST API answers.
import type { Plan } from '../core/messages.js';
import type { Problem } from './access-types.js';

type Headers = readonly (readonly [string, string])[];
type Extensions = Readonly<Record<string, unknown>>;

function make(
  status: number, code: Problem['code'], title: string, detail: string,
  extensions?: Extensions, headers?: Headers,
): Problem {
  return { status, code, title, detail, extensions, headers };
}

/** Problems by cause; details name the field, what was expected and what was found. */
export const problems = {
  badRequest: (detail: string, status = 400) => make(status, 'bad_request', 'Bad request', detail),
  invalidKey: (detail: string) => make(401, 'invalid_key', 'Invalid API key', detail, undefined,
    [['WWW-Authenticate', 'Bearer realm="orderflow"']]),
  planRequired: (requiredPlan: Plan, plan: Plan, endpoint: string) => make(
    403, 'plan_required', 'Plan required',
    `${endpoint} needs the ${requiredPlan} plan or above (the key's plan was ${plan})`,
    { requiredPlan, plan }),
  notFound: (detail: string) => make(404, 'not_found', 'Not found', detail),
  unknownSymbol: (symbol: string) => make(404, 'unknown_symbol', 'Unknown symbol',
    `symbol must be a listed pair (was ${JSON.stringify(symbol)})`),
  notTracked: (symbol: string, what: string) => make(404, 'not_tracked', 'Pair not tracked',
    `${what} is computed for the tracked pairs only (${JSON.stringify(symbol)} was not one)`),
  methodNotAllowed: (method: string, allow: string) => make(
    405, 'method_not_allowed', 'Method not allowed',
    `method must be one of ${allow} (was ${method.toUpperCase()})`, undefined, [['Allow', allow]]),
  rateLimited: (scope: string, limit: number, retryAfterSeconds: number) => make(
    429, 'rate_limited', 'Too many requests',
    `the ${scope} burst limit is ${limit} requests per rolling 60 seconds; ` +
    `retry in ${retryAfterSeconds} s`,
    { scope, limit, windowSeconds: 60, retryAfterSeconds },
    [['Retry-After', String(retryAfterSeconds)]]),
  quotaExceeded: (limit: number, used: number, resetsAt: string, retryAfterSeconds: number) => make(
    429, 'quota_exceeded', 'Daily quota exceeded',
    `the daily quota of ${limit} requests is used up; it resets at ${resetsAt} ` +
    '(midnight Europe/Rome)',
    { limit, used, resetsAt }, [['Retry-After', String(retryAfterSeconds)]]),
  hostNotAllowed: (host: string) => make(403, 'host_not_allowed', 'Host not allowed',
    'Host must be localhost, 127.0.0.1 or [::1] (any port) or a name in ' +
    'ORDERFLOW_ALLOWED_HOSTS while the service listens on a loopback address ' +
    `(was ${JSON.stringify(host.slice(0, 200))})`),
  originNotAllowed: (origin: string) => make(403, 'origin_not_allowed', 'Origin not allowed',
    'Origin must be the service\'s own or one in ORDERFLOW_ALLOWED_ORIGINS on MCP and the ' +
    `account API (was ${JSON.stringify(origin.slice(0, 200))})`),
  notReady: (what: string) => make(503, 'internal', 'Not ready',
    `${what} has not been computed yet; retry shortly`, undefined, [['Retry-After', '1']]),
  internal: () => make(500, 'internal', 'Internal error', 'the request could not be served'),
} as const;

/** The problem's JSON body: type, title, status, detail, code and its extension members. */
export function problemBody(problem: Problem): string {
  return JSON.stringify({
    type: `urn:orderflow:problem:${problem.code}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    ...problem.extensions,
  });
}
