// The account API's operations (/api/v1/account/...): the dashboard's JSON, authenticated by
// the session cookie only; every state-changing request carries X-CSRF-Token and the service's
// own Origin. Documented here, merged into the document's paths and components.
import { PLANS } from '../../core/messages.js';
import {
  array, bool, int, nullable, object, oneOf, ref, str, time, type Schema,
} from './schemas-common.js';

const SESSION = [{ session: [] }];
const CHANGING = [{ session: [], csrf: [] }];
const problem = (description: string): Schema => ({ description,
  content: { 'application/problem+json': { schema: ref('Problem') } } });
const json = (schema: Schema, description = 'OK'): Schema => ({ description,
  content: { 'application/json': { schema } } });
const body = (schema: Schema): Schema => ({ required: true,
  content: { 'application/json': { schema } } });
const idParam = (name: string, description: string): Schema =>
  ({ name, in: 'path', required: true, description, schema: str });

const key = object({
  prefix: str, label: nullable(str), plan: oneOf(PLANS), createdAt: time,
  revokedAt: nullable(time), lastUsedDay: nullable(str), usedToday: int, limit: int,
  resetsAt: time,
});
const endpoint = object({
  id: str, keyPrefix: str, url: str, createdAt: time, rotatedAt: nullable(time),
  previousSecretExpiresAt: nullable(time), disabledAt: nullable(time),
  disabledReason: nullable(oneOf(['gone', 'failing'])), failingSince: nullable(time),
});
const delivery = object({
  eventId: str, endpointId: str, type: str, createdAt: time,
  status: oneOf(['pending', 'delivered', 'dead']), attempts: int, nextAttemptAt: nullable(time),
  lastAttemptAt: nullable(time), lastResult: nullable(str), deadReason: nullable(str),
  replays: int, history: array(object({ attempt: int, at: time, result: str,
    statusCode: nullable(int), durationMs: int })),
});
const alert = object({ id: str, kind: str, symbol: nullable(str), keyPrefix: str,
  endpointId: nullable(str), webhookUrl: str, createdAt: time, options: { type: 'object' } });
const account = object({ id: str, email: str, plan: oneOf(PLANS), createdAt: time });
const signedIn = object({ account, csrfToken: str,
  dashboardKey: object({ key: str, prefix: str }) });

interface AccountOp {
  method: 'get' | 'post' | 'delete';
  path: string;
  id: string;
  summary: string;
  ok: Schema;
  status?: number;
  request?: Schema;
  params?: Schema[];
  open?: boolean;
  extra?: Record<string, Schema>;
}

const P = '/api/v1/account/';
const keyPrefix = idParam('prefix', 'The key prefix, ofk_ + 8 hex.');
const endpointId = idParam('id', 'The endpoint id, we_ + 16 hex.');

const ops: AccountOp[] = [
  { method: 'post', path: 'session', id: 'signIn', open: true, ok: signedIn,
    summary: 'Sign in: sets the of_session cookie (HttpOnly, SameSite=Lax, Path=/, Secure ' +
      'over https) and answers the CSRF token and the session\'s dashboard key. Every ' +
      'session key of an account counts against one daily quota and burst window, the ' +
      'account\'s; the key is revoked when its session ends (sign-out, 12 h idle).',
    request: object({ email: str, password: str }),
    extra: { '429': problem('Five failed sign-ins for the account or address in 15 minutes; ' +
      'Retry-After says when to try again.') } },
  { method: 'post', path: 'signup', id: 'signUp', open: true, ok: signedIn,
    summary: 'Create a Free account and sign in (only with `orderflow serve --signup open`).',
    request: object({ email: str, password: str }) },
  { method: 'get', path: 'session', id: 'getSession', summary: 'Who is signed in, and the ' +
    'CSRF token of this session.', ok: object({ account, csrfToken: str, signupOpen: bool,
    sessionKeyPrefix: nullable(str) }) },
  { method: 'delete', path: 'session', id: 'signOut', ok: object({ signedOut: bool }),
    summary: 'Sign out: ends the session on the server and revokes its dashboard key.' },
  { method: 'post', path: 'session/key', id: 'newSessionKey', status: 201,
    ok: object({ key: str, prefix: str, plan: oneOf(PLANS) }),
    summary: 'A new key for this session\'s pages to read the data endpoints with (the ' +
      'session\'s previous one is revoked). Data endpoints never take the cookie.' },
  { method: 'get', path: 'keys', id: 'listKeys', ok: object({ keys: array(key) }),
    summary: 'The account\'s API keys, newest first (prefix only, never the key).' },
  { method: 'post', path: 'keys', id: 'createKey', status: 201, ok: { allOf: [key,
    object({ key: str })] }, request: object({ plan: oneOf(PLANS), label: str },
    ['plan', 'label']),
    summary: 'Create a key; the full key is in this answer only. Its plan is at most the ' +
      'account\'s (403 otherwise).' },
  { method: 'delete', path: 'keys/{prefix}', id: 'revokeKey', ok: key, params: [keyPrefix],
    summary: 'Revoke a key: it answers 401 from now on.' },
  { method: 'get', path: 'usage', id: 'accountUsage', summary: 'Per live key: today\'s count ' +
    'of the limit, the reset (midnight Europe/Rome) and the last 30 days as kept. The row ' +
    'with session true counts every dashboard session of the account together.',
  ok: object({ timeZone: str, keys: array({ allOf: [key, object({ session: bool,
    days: array(object({ day: str, used: int })) })] }) }) },
  { method: 'get', path: 'endpoints', id: 'listEndpoints', ok: object({
    endpoints: array(endpoint) }), summary: 'The webhook endpoints of the account\'s keys.' },
  { method: 'post', path: 'endpoints', id: 'addEndpoint', status: 201,
    ok: { allOf: [endpoint, object({ secret: str })] },
    request: object({ keyPrefix: str, url: str }),
    summary: 'Register an https endpoint for one of the account\'s keys (Pro or above); the ' +
      'signing secret is in this answer only.',
    extra: { '409': problem('The URL is registered already, or the plan\'s endpoints are ' +
      'all in use.') } },
  { method: 'delete', path: 'endpoints/{id}', id: 'removeEndpoint', params: [endpointId],
    ok: object({ id: str, removed: bool }), summary: 'Remove an endpoint.' },
  { method: 'post', path: 'endpoints/{id}/rotate', id: 'rotateEndpointSecret',
    params: [endpointId], ok: object({ id: str, secret: str, previousSecretExpiresAt: time }),
    summary: 'A new signing secret, in this answer only; the old one signs for 24 h more.' },
  { method: 'post', path: 'endpoints/{id}/test', id: 'sendTestEvent', params: [endpointId],
    ok: object({ eventId: str, delivered: bool, statusCode: nullable(int),
      latencyMs: nullable(int), result: str, nextAttemptAt: nullable(time) }),
    summary: 'Send test event: a signed `test` event; waits up to 12 s for the receiver and ' +
      'answers its status code and the latency.' },
  { method: 'get', path: 'endpoints/{id}/deliveries', id: 'listDeliveries',
    params: [endpointId], ok: object({ deliveries: array(delivery) }),
    summary: 'The endpoint\'s delivery log, newest first (attempts, status, next retry).' },
  { method: 'post', path: 'events/{id}/replay', id: 'replayEvent',
    params: [idParam('id', 'The event id, evt_ + 24 hex.')],
    ok: object({ eventId: str, deliveries: int, endpointIds: array(str) }),
    summary: 'Send a dead-lettered (or delivered) event again to this account\'s endpoints.' },
  { method: 'get', path: 'alerts', id: 'listAlerts', ok: object({ kinds: array(str),
    alerts: array(alert) }), summary: 'The alerts of the account\'s keys.' },
  { method: 'post', path: 'alerts', id: 'addAlert', status: 201, ok: alert,
    request: { type: 'object', required: ['endpointId', 'kind'], properties: {
      endpointId: str, kind: oneOf(['entry_signal', 'price', 'screener', 'sweep', 'delta_flip',
        'drawing']) }, additionalProperties: str },
    summary: 'Add an alert delivered to one of the account\'s endpoints; the kind\'s options ' +
      'are the command line\'s (docs/signals.md), checked the same way (400 names the field).' },
  { method: 'delete', path: 'alerts/{id}', id: 'removeAlert', ok: object({ id: str,
    removed: bool }), params: [idParam('id', 'The alert id, alr_ + 16 hex.')],
    summary: 'Remove an alert.' },
];

function operationOf(op: AccountOp): Schema {
  const changing = op.method !== 'get';
  const responses: Record<string, Schema> = {
    [String(op.status ?? 200)]: json(op.ok),
    '400': problem('A field is missing or wrong (the detail names it); or the body is not a ' +
      'JSON object.'),
    '401': problem(op.open ? 'Wrong email or password, or a disabled account.'
      : 'No live session (sign in first).'),
    '403': problem(changing ? 'No X-CSRF-Token of this session, or an Origin other than the ' +
      'service; or a plan too low for the request; or host_not_allowed / origin_not_allowed.'
      : 'host_not_allowed (a foreign Host on a loopback listener) or origin_not_allowed (an ' +
        'Origin other than the service\'s own or one in ORDERFLOW_ALLOWED_ORIGINS).'),
    ...(op.params ? { '404': problem('No such id among this account\'s (another account\'s ' +
      'ids answer the same).') } : {}),
    ...op.extra,
    ...(/^(endpoints|events|alerts)\b/.test(op.path) ? { '503': problem('On a scale-out ' +
      'front: webhook endpoints and alerts are served by the ingest process (docs/scale-out.md).')
    } : {}),
  };
  return {
    operationId: op.id, summary: op.summary, tags: ['Account'],
    security: op.open ? [] : changing ? CHANGING : SESSION,
    ...(op.params ? { parameters: op.params } : {}),
    ...(op.request ? { requestBody: body(op.request) } : {}),
    responses,
  };
}

/** Paths of the account API, keyed like the document's `paths`. */
export function accountPaths(): Record<string, Schema> {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const op of ops) (paths[P + op.path] ??= {})[op.method] = operationOf(op);
  return paths;
}

export const accountSecuritySchemes: Record<string, Schema> = {
  session: { type: 'apiKey', in: 'cookie', name: 'of_session',
    description: 'The dashboard session (sign in with POST /api/v1/account/session).' },
  csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token',
    description: 'The session\'s CSRF token, on every state-changing request, with an Origin ' +
      'of the service itself.' },
};
