// The account API under /api/v1/account/: session cookie only (never a key), and every
// state-changing request must carry the session's X-CSRF-Token and an Origin of the service
// itself. Another account's id answers 404, the same as an id that never existed.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { problems } from '../problems.js';
import { BadField, type AccountCall, type Answer } from './account-context.js';
import type { AccountApiDeps, IngestAccountDeps } from './account-deps.js';
import { listAlerts, addAlert, removeAlert } from './account-alerts.js';
import { createKey, listKeys, revokeKey, sessionKey, usageReport } from './account-keys.js';
import { accountProblems } from './account-problems.js';
import { signIn, signOut, signUp, whoAmI } from './account-session.js';
import {
  addEndpoint, endpointDeliveries, listEndpoints, removeEndpoint, replayEvent, rotateEndpoint,
  sendTestEvent,
} from './account-webhooks.js';
import { Exchange } from './exchange.js';
import { tokensEqual, type SessionManager } from './sessions.js';
import { SignInThrottle, type SignInLimiter } from './sign-in-throttle.js';

export const ACCOUNT_PREFIX = '/api/v1/account/';

type Run = (call: AccountCall) => Answer | Promise<Answer>;
type PublicRun = (ex: Exchange, body: Readonly<Record<string, unknown>>) => Promise<Answer>;

interface AccountRoute {
  readonly method: string;
  /** Path after the prefix; `*` stands for one id segment. */
  readonly pattern: string;
  readonly run?: Run;
  /** Routes that need no session (sign-in, sign-up). */
  readonly open?: PublicRun;
}

function matches(pattern: string, parts: readonly string[]): string | null {
  const want = pattern.split('/');
  if (want.length !== parts.length) return null;
  let param = '';
  for (let i = 0; i < want.length; i++) {
    if (want[i] === '*') {
      if (parts[i] === '') return null;
      param = decodeURIComponent(parts[i]);
    } else if (want[i] !== parts[i]) return null;
  }
  return param;
}

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class AccountApi {
  private readonly throttle: SignInLimiter;
  private readonly routes: AccountRoute[];

  constructor(private readonly deps: AccountApiDeps, private readonly sessions: SessionManager) {
    this.throttle = deps.throttle ?? new SignInThrottle(deps.clock);
    const d = deps;
    this.routes = [
      { method: 'POST', pattern: 'session',
        open: (ex, body) => signIn(d, this.sessions, this.throttle, ex, body) },
      { method: 'POST', pattern: 'signup', open: (ex, body) => signUp(d, this.sessions, ex, body) },
      { method: 'GET', pattern: 'session', run: (c) => whoAmI(d, c) },
      { method: 'DELETE', pattern: 'session', run: (c) => signOut(this.sessions, c) },
      { method: 'POST', pattern: 'session/key', run: (c) => sessionKey(d, c,
        async (prefix) => { await this.sessions.setKey(c.session.record, prefix); }) },
      { method: 'GET', pattern: 'keys', run: (c) => listKeys(d, c) },
      { method: 'POST', pattern: 'keys', run: (c) => createKey(d, c) },
      { method: 'DELETE', pattern: 'keys/*', run: (c) => revokeKey(d, c) },
      { method: 'GET', pattern: 'usage', run: (c) => usageReport(d, c) },
      { method: 'GET', pattern: 'endpoints', run: this.onIngest(listEndpoints) },
      { method: 'POST', pattern: 'endpoints', run: this.onIngest(addEndpoint) },
      { method: 'DELETE', pattern: 'endpoints/*', run: this.onIngest(removeEndpoint) },
      { method: 'POST', pattern: 'endpoints/*/rotate', run: this.onIngest(rotateEndpoint) },
      { method: 'POST', pattern: 'endpoints/*/test', run: this.onIngest(sendTestEvent) },
      { method: 'GET', pattern: 'endpoints/*/deliveries', run: this.onIngest(endpointDeliveries) },
      { method: 'POST', pattern: 'events/*/replay', run: this.onIngest(replayEvent) },
      { method: 'GET', pattern: 'alerts', run: this.onIngest(listAlerts) },
      { method: 'POST', pattern: 'alerts', run: this.onIngest(addAlert) },
      { method: 'DELETE', pattern: 'alerts/*', run: this.onIngest(removeAlert) },
    ];
  }

  /** A route of webhook endpoints or alerts: run where they live (ingest, or one box); a
   *  scale-out front answers 503 and says where (the proxy sends these paths to ingest). */
  private onIngest(run: (deps: IngestAccountDeps, call: AccountCall) => Answer | Promise<Answer>):
    Run {
    const { deps } = this;
    if (deps.webhooks !== null && deps.alerts !== null) {
      return (call) => run(deps as IngestAccountDeps, call);
    }
    return () => ({ problem: accountProblems.onIngest() });
  }

  /** The uWS handler for `/api/v1/account/*`. */
  readonly handle = (res: HttpResponse, req: HttpRequest): void => {
    const ex = new Exchange(res, req, this.deps.trusted);
    this.serve(ex).catch((error) => {
      this.deps.logger.error('account request failed', { error, path: ex.path.slice(0, 200) });
      ex.problem(problems.internal());
    });
  };

  private async serve(ex: Exchange): Promise<void> {
    const parts = ex.path.slice(ACCOUNT_PREFIX.length).split('/');
    const found = this.routes.map((route) => ({ route, param: matches(route.pattern, parts) }))
      .filter((m) => m.param !== null);
    if (found.length === 0) {
      return ex.problem(problems.notFound('the path must be one of the account API ' +
        '(see /api/v1/openapi.json)'));
    }
    const method = ex.method === 'HEAD' ? 'GET' : ex.method;
    const hit = found.find((m) => m.route.method === method);
    if (hit === undefined) {
      return ex.problem(problems.methodNotAllowed(ex.method,
        [...new Set(found.map((m) => m.route.method))].join(', ')));
    }
    const changing = CHANGING.has(method);
    if (changing && ex.origin !== ex.selfOrigin) {
      return ex.problem(accountProblems.csrf(`Origin must be this service (${ex.selfOrigin}); ` +
        `was ${JSON.stringify(ex.origin.slice(0, 200))}`));
    }
    const body = await this.readJson(ex);
    if (body === undefined) return;
    const answer = await this.answer(ex, hit.route, hit.param as string, body, changing);
    if ('problem' in answer) ex.problem(answer.problem);
    else ex.json(answer.status, answer.json, answer.headers);
  }

  private async answer(ex: Exchange, route: AccountRoute, param: string,
    body: Readonly<Record<string, unknown>>, changing: boolean): Promise<Answer> {
    try {
      if (route.open !== undefined) return await route.open(ex, body);
      const session = await this.sessions.resolve(ex.cookie);
      if (session === undefined) return { problem: accountProblems.signedOut() };
      if (changing && !tokensEqual(ex.csrfToken, session.csrfToken)) {
        return { problem: accountProblems.csrf('X-CSRF-Token must be the token of this ' +
          'session (GET /api/v1/account/session answers it)') };
      }
      return await (route.run as Run)({ ex, session, account: session.account, body, param });
    } catch (error) {
      if (error instanceof BadField) return { problem: accountProblems.bad(error.message) };
      throw error;
    }
  }

  /** The JSON object body of a changing request ({} when empty); answers the problem itself. */
  private async readJson(ex: Exchange): Promise<Readonly<Record<string, unknown>> | undefined> {
    const text = await ex.body;
    if (text === null) {
      ex.problem(accountProblems.bad('the body must be at most 16384 bytes', 413));
      return undefined;
    }
    if (text === '') return {};
    if (!/^application\/json\b/i.test(ex.contentType)) {
      ex.problem(accountProblems.bad(`Content-Type must be application/json (was ` +
        `${JSON.stringify(ex.contentType)})`, 415));
      return undefined;
    }
    try {
      const value: unknown = JSON.parse(text);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        return value as Record<string, unknown>;
      }
    } catch {
      // Answered below.
    }
    ex.problem(accountProblems.bad('the body must be a JSON object'));
    return undefined;
  }
}
