// Operations endpoints outside access control: liveness, readiness, Prometheus metrics, the
// OpenAPI document; and usage, which reads the caller's quota.
import type { AccessControl } from '../access-types.js';
import { isLoopbackAddress } from '../client-ip.js';
import type { RequestInfo } from '../request.js';
import type { Payload } from '../respond.js';
import type { Handler } from '../routes.js';
import { jsonPayload, ok } from './payloads.js';

/** `detail`: what a check has to say beyond true or false (e.g. pairs backfill left unfilled). */
export type Readiness = () => {
  ready: boolean; checks: Record<string, boolean>; detail?: Record<string, string>;
};

export const healthHandler: Handler = () => ok(jsonPayload({ status: 'ok' }));

export function readyHandler(readiness: Readiness): Handler {
  return () => {
    const { ready, checks, detail } = readiness();
    const body = detail && Object.keys(detail).length > 0 ? { ready, checks, detail }
      : { ready, checks };
    return ok(jsonPayload(body, ready ? 200 : 503));
  };
}

/**
 * Loopback peers only, unless configured public. A request relayed by an untrusted proxy
 * (X-Forwarded-For that was not honoured) is refused, so a local reverse proxy does not
 * publish the metrics by accident.
 */
export function mayReadMetrics(info: RequestInfo, metricsPublic: boolean): boolean {
  if (metricsPublic) return true;
  if (!isLoopbackAddress(info.ip)) return false;
  return info.forwardedFor === '' || info.ip !== info.peer;
}

export function staticHandler(payload: Payload): Handler {
  return () => ok(payload);
}

export function usageHandler(access: AccessControl): Handler {
  return ({ identity }) => {
    // The route needs a key, so access control has made an identity before this runs.
    if (identity === null) throw new Error('usage reached without an identity');
    return ok(jsonPayload(access.usage(identity)));
  };
}
