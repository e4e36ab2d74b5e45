// The route table's vocabulary and its matcher: one entry per REST path, with its plan-table
// endpoint, burst scope, documented query parameters and handler.
import type { BurstScope, Endpoint, Identity, Outcome } from './access-types.js';
import { httpBounds } from './bounds.js';
import type { QueryParams } from './query.js';
import type { RequestInfo } from './request.js';
import type { Payload } from './respond.js';

export interface HandlerContext {
  readonly info: RequestInfo;
  readonly params: QueryParams;
  /** The path parameter (still percent-encoded), '' for routes without one. */
  readonly segment: string;
  /** Null on routes outside access control (health, metrics, OpenAPI). */
  readonly identity: Identity | null;
}

export type Handler = (ctx: HandlerContext) => Outcome<Payload>;

export interface Route {
  /** Metrics label, e.g. 'pair'. */
  readonly name: string;
  /** The exact path, or the prefix before the path parameter when `segment` is true. */
  readonly path: string;
  readonly segment: boolean;
  /** The plan-table entry; null for routes that need no key and count no quota. */
  readonly endpoint: Endpoint | null;
  readonly scope: BurstScope | null;
  /** Documented query parameters (api_key is added on /api/v1 routes). */
  readonly query: readonly string[];
  /** Whether a 200 counts against the daily quota. */
  readonly daily: boolean;
  readonly handle: Handler;
}

export interface RouteMatch {
  readonly route: Route;
  readonly segment: string;
}

export interface RouteTable {
  match(path: string): RouteMatch | undefined;
  readonly routes: readonly Route[];
}

export function createRouteTable(routes: readonly Route[]): RouteTable {
  const exact = new Map<string, RouteMatch>();
  // Polls repeat their paths: a matched one answers from here, with no slice or object made.
  const matched = new Map<string, RouteMatch>();
  const prefixed: Route[] = [];
  for (const route of routes) {
    if (route.segment) prefixed.push(route);
    else if (exact.has(route.path)) throw new Error(`route ${route.path} declared twice`);
    else exact.set(route.path, { route, segment: '' });
  }
  return {
    routes,
    match(path) {
      const found = exact.get(path) ?? matched.get(path);
      if (found !== undefined) return found;
      for (const candidate of prefixed) {
        if (!path.startsWith(candidate.path)) continue;
        const segment = path.slice(candidate.path.length);
        if (segment === '' || segment.indexOf('/') >= 0) continue;
        if (matched.size >= httpBounds.pathMemoMax) matched.clear();
        const match = { route: candidate, segment };
        matched.set(path, match);
        return match;
      }
      return undefined;
    },
  };
}
