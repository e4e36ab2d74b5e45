// The request pipeline: read the request, route it, then credentials -> identity -> burst guard
// -> plan gate -> snapshot bytes (or 304) -> daily quota -> answer (docs/architecture.md).
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { limits } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type {
  AccessControl, BurstScope, Credentials, Endpoint, Identity, Problem,
} from './access-types.js';
import type { TrustCheck } from './client-ip.js';
import type { Cors } from './cors.js';
import { readCredentials } from './credentials.js';
import type { FrontGuard } from './front-guard.js';
import type { HttpMetrics } from './metrics.js';
import { problems } from './problems.js';
import { QueryMemo } from './query.js';
import { etagMatches, RequestReader, type RequestInfo } from './request.js';
import { corsHeaders, sendNotModified, sendPayload, sendPreflight, sendProblem,
  type HeaderList } from './respond.js';
import type { HandlerContext, Route, RouteMatch, RouteTable } from './routes.js';
import { negotiated } from './compression.js';
import { SharedRouteFlow, STALE_HEADER } from './dispatch-shared.js';

/** What the front tells a mount: the client IP and the CORS headers its answers carry. */
export interface MountContext {
  readonly ip: string;
  readonly cors: HeaderList;
}

/** A raw handler that owns its requests entirely (the MCP endpoints). */
export interface RawMount {
  readonly path: string;
  /** Upper-case methods it answers, e.g. ['GET', 'POST', 'DELETE']. */
  readonly methods: readonly string[];
  handle(res: HttpResponse, req: HttpRequest, ctx: MountContext): void;
  /** Requests still being answered; close() waits (bounded) for this to reach 0. */
  inFlight?(): number;
  /** A refusal to answer before delegating (e.g. /metrics to a remote peer), counted here. */
  admit?(info: RequestInfo): Problem | null;
  /** The route name when the mount counts its own answers (else counted as 'mount'). */
  readonly route?: string;
}

export interface DispatchDeps {
  readonly table: RouteTable;
  readonly mounts: readonly RawMount[];
  readonly access: AccessControl;
  readonly cors: Cors;
  /** The Host and Origin rules (front-guard.ts). */
  readonly guard: FrontGuard;
  readonly trusted: TrustCheck;
  readonly metrics: HttpMetrics;
  readonly logger: Logger;
}

const NONE: HeaderList = [];
const ROUTE_METHODS = 'GET, HEAD, OPTIONS';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The pipeline as methods, each one step, sharing the dependencies. */
class Dispatcher {
  private readonly mounts: ReadonlyMap<string, RawMount>;
  // One of each, filled per request: the pipeline is synchronous and neither identify nor a
  // handler keeps them past its return, so a poll makes no object for them.
  private readonly credentials: Mutable<Credentials> =
    { authorization: undefined, xApiKey: undefined, queryKey: undefined };
  private readonly context: Mutable<HandlerContext> =
    { info: undefined as unknown as RequestInfo, params: new Map(), segment: '', identity: null };
  /** The request, read into the same object each time (request.ts). */
  private readonly request: RequestReader;
  /** Scale-out fronts: burst and daily counts in Redis (docs/scale-out.md). */
  private readonly shared: SharedRouteFlow | undefined;
  /** Each route's parsed query strings: a repeated poll parses its query once. */
  private readonly queries: ReadonlyMap<Route, QueryMemo>;

  constructor(private readonly deps: DispatchDeps) {
    this.mounts = new Map(deps.mounts.map((m) => [m.path, m]));
    this.request = new RequestReader(deps.trusted);
    this.queries = new Map(deps.table.routes.map((r) => [r, new QueryMemo(r.query)]));
    const { shared } = deps.access;
    this.shared = shared === undefined ? undefined : new SharedRouteFlow({
      access: deps.access, shared, cors: deps.cors, metrics: deps.metrics,
      fail: (res, info, route, problem, extra) => this.fail(res, info, route, problem, extra),
      rateHeaders: (identity, scope) => this.rateHeaders(identity, scope),
    });
  }

  readonly handle = (res: HttpResponse, req: HttpRequest): void => {
    const info = this.request.read(res, req);
    this.deps.metrics.begin();
    try {
      const { guard } = this.deps;
      // Once per request, before routing; nothing is made unless the Host is refused.
      if (guard.hostRuled) {
        const refused = guard.hostRefusal(req.getHeader('host'), info.path);
        if (refused !== null) return this.fail(res, info, 'refused', refused);
      }
      this.route(res, req, info);
    } catch (error) {
      this.deps.logger.error('request failed', { error, path: info.path.slice(0, 200) });
      try {
        this.fail(res, info, 'unknown', problems.internal());
      } catch {
        // The response was already ended or aborted by the part that threw: nothing to add.
      }
    } finally {
      this.deps.metrics.end();
    }
  };

  private fail(res: HttpResponse, info: RequestInfo, route: string, problem: Problem,
    extra: HeaderList = NONE): void {
    this.deps.metrics.count(route, problem.status);
    sendProblem(res, info, this.deps.cors, problem, extra);
  }

  private route(res: HttpResponse, req: HttpRequest, info: RequestReader): void {
    const urlBytes = info.path.length + (info.query === undefined ? 0 : info.query.length + 1);
    if (urlBytes > limits.httpUrlBytesMax) {
      return this.fail(res, info, 'unknown', problems.badRequest(
        `the URL must be at most ${limits.httpUrlBytesMax} bytes (was ${urlBytes})`, 414));
    }
    const mount = this.mounts.get(info.path);
    if (mount !== undefined) return this.serveMount(res, req, info, mount);
    const match = this.deps.table.match(info.path);
    if (match === undefined) {
      const refused = this.deps.guard.originRefusal(info.origin, req.getHeader('host'),
        info.path);
      if (refused !== null) return this.fail(res, info, 'refused', refused);
      return this.fail(res, info, 'unknown', problems.notFound(
        'the path must be one of the documented endpoints (see /api/v1/openapi.json)'));
    }
    if (info.method === 'options') {
      this.deps.metrics.count(match.route.name, 204);
      return sendPreflight(res, info, this.deps.cors, ROUTE_METHODS);
    }
    if (info.method !== 'get' && info.method !== 'head') {
      return this.fail(res, info, match.route.name,
        problems.methodNotAllowed(info.method, ROUTE_METHODS));
    }
    this.serveRoute(res, info, match);
  }

  private serveMount(res: HttpResponse, req: HttpRequest, info: RequestInfo, mount: RawMount):
    void {
    const refused = this.deps.guard.originRefusal(info.origin, req.getHeader('host'), info.path);
    if (refused !== null) return this.fail(res, info, 'refused', refused);
    const method = info.method.toUpperCase();
    if (mount.methods.includes(method)) {
      const refusal = mount.admit?.(info) ?? null;
      if (refusal !== null) return this.fail(res, info, mount.route ?? 'mount', refusal);
      if (mount.route === undefined) this.deps.metrics.count('mount', 'delegated');
      mount.handle(res, req, { ip: info.ip, cors: corsHeaders(info, this.deps.cors) });
    } else if (method === 'OPTIONS') {
      this.deps.metrics.count('mount', 204);
      sendPreflight(res, info, this.deps.cors, [...mount.methods, 'OPTIONS'].join(', '));
    } else {
      this.fail(res, info, 'mount', problems.methodNotAllowed(method, mount.methods.join(', ')));
    }
  }

  /** RateLimit headers: keyed identities only (docs/decisions.md), read when the answer is sent. */
  private rateHeaders(identity: Identity | null, scope: BurstScope | null): HeaderList {
    const lines = identity === null || scope === null || identity.kind !== 'key'
      ? NONE : this.deps.access.rateLimitHeaders(identity, scope);
    return this.deps.access.shared?.stale() ? [...lines, STALE_HEADER] : lines;
  }

  /**
   * Identity, burst guard and plan gate. Answers a refusal itself and returns undefined.
   * No closure or result object per request: this runs on every keyed poll.
   */
  private admit(res: HttpResponse, info: RequestInfo, route: Route, scope: BurstScope,
    endpoint: Endpoint, queryKey: string | undefined): Identity | undefined {
    const { access } = this.deps;
    const found = access.identify(readCredentials(info, queryKey, this.credentials), info);
    if (!found.ok) {
      this.fail(res, info, route.name, found.problem);
      return undefined;
    }
    const identity = found.value;
    let refused = access.checkBurst(identity, scope);
    if (refused.ok) refused = access.checkPlan(identity, endpoint);
    if (refused.ok) return identity;
    this.deps.metrics.refused(refused.problem.code, identity.kind === 'key' ? identity.plan : null);
    this.fail(res, info, route.name, refused.problem, this.rateHeaders(identity, scope));
    return undefined;
  }

  private serveRoute(res: HttpResponse, info: RequestReader, match: RouteMatch): void {
    const { route, segment } = match;
    const { metrics, cors } = this.deps;
    const query = this.queries.get(route)!.parse(info.query);
    if (!query.ok) return this.fail(res, info, route.name, query.problem);
    let identity: Identity | null = null;
    if (route.endpoint !== null && route.scope !== null && this.shared !== undefined &&
      this.deps.access.shared!.active()) {
      // Its answer may leave after this handler returned: the request in an object of its own.
      return this.shared.serve(res, info.owned(), match, query.params, route.endpoint,
        route.scope);
    }
    if (route.endpoint !== null && route.scope !== null) {
      const admitted = this.admit(res, info, route, route.scope, route.endpoint,
        query.params.get('api_key'));
      if (admitted === undefined) return;
      identity = admitted;
    }
    const { context } = this;
    context.info = info;
    context.params = query.params;
    context.segment = segment;
    context.identity = identity;
    const result = route.handle(context);
    if (!result.ok) {
      return this.fail(res, info, route.name, result.problem,
        this.rateHeaders(identity, route.scope));
    }
    const payload = negotiated(result.value, info.acceptEncoding);
    if (payload.etag !== undefined && etagMatches(info.ifNoneMatch, payload.etag)) {
      // A revalidation costs burst (counted above) but not the daily quota (docs/decisions.md).
      metrics.count(route.name, 304);
      return sendNotModified(res, info, cors, payload, this.rateHeaders(identity, route.scope));
    }
    if (identity !== null && route.daily) {
      const daily = this.deps.access.consumeDaily(identity);
      if (!daily.ok) {
        metrics.refused(daily.problem.code, identity.kind === 'key' ? identity.plan : null);
        return this.fail(res, info, route.name, daily.problem,
          this.rateHeaders(identity, route.scope));
      }
    }
    metrics.count(route.name, payload.status ?? 200);
    metrics.sent(payload);
    sendPayload(res, info, cors, payload, this.rateHeaders(identity, route.scope));
  }
}

/** The uWS handler for every path: one route table for REST, raw mounts for MCP. */
export function createDispatcher(deps: DispatchDeps): (res: HttpResponse, req: HttpRequest)
  => void {
  return new Dispatcher(deps).handle;
}
