// The request pipeline of a scale-out front while Redis answers: identity and plan from memory,
// the answer prepared, then one atomic Redis step for the burst and daily counts, then the
// answer (docs/scale-out.md). The refusal order is the one-box order: burst, plan, handler
// (404 ...), 304, daily.
import type { HttpResponse } from 'uWebSockets.js';
import type {
  AccessControl, BurstScope, Endpoint, Identity, Outcome, Problem, SharedLimits,
} from './access-types.js';
import type { Cors } from './cors.js';
import { negotiated } from './compression.js';
import { readCredentials } from './credentials.js';
import type { HttpMetrics } from './metrics.js';
import type { QueryParams } from './query.js';
import { etagMatches, type RequestInfo } from './request.js';
import { sendNotModified, sendPayload, type HeaderList, type Payload } from './respond.js';
import type { Route, RouteMatch } from './routes.js';

/** Marks answers served while the producer is not heard from or Redis is away. */
export const STALE_HEADER: readonly [string, string] = Object.freeze(['X-Producer-Stale', 'true']);

export interface SharedFlowDeps {
  readonly access: AccessControl;
  readonly shared: SharedLimits;
  readonly cors: Cors;
  readonly metrics: HttpMetrics;
  fail(res: HttpResponse, info: RequestInfo, route: string, problem: Problem,
    extra: HeaderList): void;
  rateHeaders(identity: Identity | null, scope: BurstScope | null): HeaderList;
}

/** What was decided before the Redis step, and what the answer after it needs. */
interface Prepared {
  readonly res: HttpResponse;
  readonly info: RequestInfo;
  readonly params: QueryParams;
  readonly route: Route;
  readonly segment: string;
  readonly identity: Identity;
  readonly plan: Outcome<void>;
  readonly answer: Outcome<Payload> | null;
  readonly notModified: boolean;
  aborted: boolean;
}

export class SharedRouteFlow {
  constructor(private readonly deps: SharedFlowDeps) {}

  serve(res: HttpResponse, info: RequestInfo, match: RouteMatch, params: QueryParams,
    endpoint: Endpoint, scope: BurstScope): void {
    const { access, shared } = this.deps;
    const { route, segment } = match;
    const credentials = readCredentials(info, params.get('api_key'),
      { authorization: undefined, xApiKey: undefined, queryKey: undefined });
    const found = access.identify(credentials, info);
    if (!found.ok) return this.deps.fail(res, info, route.name, found.problem,
      this.deps.rateHeaders(null, null));
    const identity = found.value;
    const plan = access.checkPlan(identity, endpoint);
    const handled = plan.ok ? route.handle({ info, params, segment, identity }) : null;
    // The encoding is chosen now: Accept-Encoding is read while the request is valid.
    const answer: Outcome<Payload> | null = handled !== null && handled.ok
      ? { ok: true, value: negotiated(handled.value, info.acceptEncoding) } : handled;
    const notModified = answer !== null && answer.ok && answer.value.etag !== undefined &&
      etagMatches(info.ifNoneMatch, answer.value.etag);
    const countDaily = answer !== null && answer.ok && !notModified && route.daily;
    const prepared: Prepared = { res, info, params, route, segment, identity, plan, answer,
      notModified, aborted: false };
    const taken = shared.take(identity, scope, countDaily, this.taken, prepared);
    if (taken !== null) return this.finish(res, info, prepared, taken, params);
    // The answer leaves after this handler returned: read every lazy part of the request now
    // (uWS invalidates it), and never write to a response the client has dropped.
    void info.ip;
    void info.origin;
    res.onAborted(() => { prepared.aborted = true; });
  }

  /** The request `corked` answers: cork runs it at once (no closure per request). */
  private corkedRequest: Prepared | null = null;
  private corkedOutcome: Outcome<void> | null = null;

  /** The Redis step's outcome: the answer, corked (it leaves outside the uWS handler). */
  private readonly taken = (outcome: Outcome<void>, p: Prepared): void => {
    if (p.aborted) return;
    this.corkedRequest = p;
    this.corkedOutcome = outcome;
    try {
      p.res.cork(this.corked);
    } finally {
      this.corkedRequest = null;
      this.corkedOutcome = null;
    }
  };

  private readonly corked = (): void => {
    const p = this.corkedRequest!;
    this.finish(p.res, p.info, p, this.corkedOutcome!, p.params);
  };

  private finish(res: HttpResponse, info: RequestInfo, p: Prepared, taken: Outcome<void>,
    params: QueryParams): void {
    const { route, identity } = p;
    const extra = this.deps.rateHeaders(identity, route.scope);
    if (!taken.ok) return this.deps.fail(res, info, route.name, taken.problem, extra);
    if (!p.plan.ok) return this.deps.fail(res, info, route.name, p.plan.problem, extra);
    let answer = p.answer!;
    // The usage report reads the day's count Redis just gave: built again after the step.
    if (route.name === 'usage') {
      answer = route.handle({ info, params, segment: p.segment, identity });
    }
    if (!answer.ok) return this.deps.fail(res, info, route.name, answer.problem, extra);
    if (p.notModified) {
      this.deps.metrics.count(route.name, 304);
      return sendNotModified(res, info, this.deps.cors, answer.value, extra);
    }
    this.deps.metrics.count(route.name, answer.value.status ?? 200);
    this.deps.metrics.sent(answer.value);
    sendPayload(res, info, this.deps.cors, answer.value, extra);
  }
}
