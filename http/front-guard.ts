// Hosts and origins (docs/operations.md): on a loopback listener every path but /healthz and
// /readyz refuses a Host that is not a loopback name or an allowed one (DNS rebinding), and MCP
// and the account API refuse a browser Origin other than the service's own or an allowed one.
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { isLoopbackHost, type ServiceConfig } from '../core/config.js';
import type { Problem } from './access-types.js';
import { hostNamed, isOwnOrigin, LOOPBACK_HOST_NAMES } from './host-names.js';
import { problemBody, problems } from './problems.js';

/** Paths under the Origin rule: what a page of another site must never drive. */
export function underOriginRule(path: string): boolean {
  return path.startsWith('/api/mcp') || path.startsWith('/api/v1/account/');
}

/** Paths a health checker may reach under any name (a load balancer probes by address). */
function probePath(path: string): boolean {
  return path === '/healthz' || path === '/readyz';
}

export class FrontGuard {
  /** The Host names answered, or null when the Host rule is off (non-loopback listener). */
  private readonly hostNames: readonly string[] | null;
  private readonly origins: ReadonlySet<string>;
  /**
   * The last Host let in: clients on one connection (and most deployments) send the same value
   * each time, and one string comparison costs less than matching it against every name.
   */
  private hostAccepted: string | null = null;

  constructor(config: Pick<ServiceConfig, 'host' | 'allowedHosts' | 'allowedOrigins'>) {
    this.hostNames = isLoopbackHost(config.host)
      ? [...LOOPBACK_HOST_NAMES, ...config.allowedHosts] : null;
    this.origins = new Set(config.allowedOrigins);
  }

  /** False on a non-loopback listener: the Host header need not even be read. */
  get hostRuled(): boolean {
    return this.hostNames !== null;
  }

  /** The Host rule's refusal, or null; makes nothing when the Host passes. */
  hostRefusal(host: string, path: string): Problem | null {
    if (this.hostNames === null || host === this.hostAccepted) return null;
    if (hostNamed(host, this.hostNames)) {
      this.hostAccepted = host;
      return null;
    }
    return probePath(path) ? null : problems.hostNotAllowed(host);
  }

  /** The Origin rule's refusal, or null: no Origin (not a browser) always passes. */
  originRefusal(origin: string, host: string, path: string): Problem | null {
    if (origin === '' || !underOriginRule(path) || isOwnOrigin(origin, host) ||
      this.origins.has(origin.toLowerCase())) {
      return null;
    }
    return problems.originNotAllowed(origin);
  }
}

/** Where the dashboard registers its routes: the uWS app's methods it uses. */
export type RouteRegistrar = Pick<TemplatedApp, 'any' | 'get' | 'head'>;
type Handler = (res: HttpResponse, req: HttpRequest) => void | Promise<void>;

function writeRefusal(res: HttpResponse, problem: Problem): void {
  res.writeStatus('403 Forbidden');
  res.writeHeader('Content-Type', 'application/problem+json');
  res.writeHeader('Cache-Control', 'no-store');
  res.end(problemBody(problem));
}

/**
 * The app as the dashboard sees it: each handler it registers runs only for a request both
 * rules let in; `refused` counts the others (metrics).
 */
export function guardedRoutes(app: TemplatedApp, guard: FrontGuard, refused: () => void):
  RouteRegistrar {
  const wrap = (handler: Handler): Handler => (res, req) => {
    const host = req.getHeader('host');
    const path = req.getUrl();
    const problem = guard.hostRefusal(host, path) ??
      guard.originRefusal(req.getHeader('origin'), host, path);
    if (problem === null) return handler(res, req);
    refused();
    writeRefusal(res, problem);
  };
  return {
    any: (pattern, handler) => app.any(pattern, wrap(handler)),
    get: (pattern, handler) => app.get(pattern, wrap(handler)),
    head: (pattern, handler) => app.head(pattern, wrap(handler)),
  };
}
