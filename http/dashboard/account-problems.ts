// The account API's problems (RFC 9457, like the rest of the front): no session, a refused
// CSRF token or Origin, a clash, throttled sign-ins, and the generic ones reused from problems.
import type { Problem } from '../access-types.js';

function make(status: number, code: Problem['code'], title: string, detail: string,
  headers?: readonly (readonly [string, string])[], extensions?: Record<string, unknown>):
  Problem {
  return { status, code, title, detail, headers, extensions };
}

export const accountProblems = {
  signedOut: () => make(401, 'unauthorized', 'Not signed in',
    'this needs a dashboard session (sign in at /signin; the of_session cookie was missing, ' +
    'expired or ended)'),
  badCredentials: () => make(401, 'unauthorized', 'Sign-in failed',
    'the email or the password is wrong, or the account is disabled'),
  csrf: (why: string) => make(403, 'forbidden', 'Request refused', why),
  throttled: (retryAfterSeconds: number) => make(429, 'rate_limited', 'Too many sign-in attempts',
    `five failed sign-ins in 15 minutes for this account or address; retry in ` +
    `${retryAfterSeconds} s`, [['Retry-After', String(retryAfterSeconds)]],
    { retryAfterSeconds }),
  conflict: (detail: string) => make(409, 'conflict', 'Conflict', detail),
  bad: (detail: string, status = 400) => make(status, 'bad_request', 'Bad request', detail),
  planRequired: (detail: string) => make(403, 'plan_required', 'Plan required', detail),
  onIngest: () => make(503, 'internal', 'Served by the ingest process',
    'webhook endpoints, deliveries and alerts are managed on the ingest process of this ' +
    'scale-out deployment; the proxy should send /api/v1/account/endpoints, /events and ' +
    '/alerts there (docs/scale-out.md)'),
  notFound: (what: string, id: string) => make(404, 'not_found', 'Not found',
    `${what} ${JSON.stringify(id.slice(0, 80))} is not one of this account's`),
} as const;
