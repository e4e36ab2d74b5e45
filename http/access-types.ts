// The access-control contract shared by the REST routes and the MCP endpoints: who is calling,
// whether the burst guard, the daily quota and the plan let them through, and the problem if not.
import type { KeyRecord, Plan } from '../core/messages.js';

/** Endpoints as the plan table knows them (docs/decisions.md, "Plans and access"). */
export const ENDPOINTS = [
  'screener', 'pair', 'signals', 'smart-money', 'deep-view', 'funding-arb', 'usage', 'cvd',
  'liquidation-map', 'wallets', 'export', 'history', 'footprint', 'volume-profile',
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/**
 * Burst-guard scopes: deep-view, cvd and footprint (with the volume profile) 10/min, history
 * (and the signals' track record) 30/min, other /api/v1 60/min, MCP 60/min.
 */
export type BurstScope =
  'deep-view' | 'cvd' | 'footprint' | 'history' | 'v1' | 'mcp' | 'mcp-public';

/** The caller: a valid key, or a client IP with no key. */
export type Identity =
  | { readonly kind: 'key'; readonly ip: string; readonly key: KeyRecord; readonly plan: Plan }
  | { readonly kind: 'ip'; readonly ip: string };

/**
 * The client address, or something that reads it when asked: the REST front passes its request,
 * which reads the socket's peer address (a costly call into uWS) only if the identity's address
 * is used (burst guard, keyless quota). Read it while the request's handler runs. A `refilled`
 * client is one object refilled per request: identities made for it are made once and handed
 * out again (each reads the current request's address), so they must not outlive the request.
 */
export type ClientAddress = string | { readonly ip: string; readonly refilled?: boolean };

/** Credentials as sent, before validation (docs/decisions.md: bearer > x-api-key > query). */
export interface Credentials {
  readonly authorization: string | undefined;
  readonly xApiKey: string | undefined;
  readonly queryKey: string | undefined;
}

/** An RFC 9457 problem, with the stable machine code and any extension members. */
export interface Problem {
  readonly status: number;
  readonly code:
    | 'invalid_key' | 'plan_required' | 'quota_exceeded' | 'rate_limited' | 'unknown_symbol'
    | 'not_tracked' | 'bad_request' | 'not_found' | 'method_not_allowed' | 'internal'
    // The account API's (http/dashboard/): no session, refused CSRF/Origin, a clash.
    | 'unauthorized' | 'forbidden' | 'conflict'
    // The front's Host and Origin rules (front-guard.ts).
    | 'host_not_allowed' | 'origin_not_allowed';
  readonly title: string;
  readonly detail: string;
  readonly extensions?: Readonly<Record<string, unknown>>;
  /** Extra response headers (Retry-After, Allow, ...). */
  readonly headers?: readonly (readonly [string, string])[];
}

export type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problem: Problem };

/** What `usage` reports (docs/decisions.md). */
export interface UsageReport {
  readonly plan: Plan | null;
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
  readonly resetsAt: string;
  readonly timeZone: 'Europe/Rome';
  readonly grandfathered: boolean;
  readonly grandfatheredUntil: string | null;
}

/** Implemented in http/ by the REST layer; the MCP endpoints call the same object. */
export interface AccessControl {
  /** Validates the first credential spelling present; no credential gives an IP identity. */
  identify(credentials: Credentials, client: ClientAddress): Outcome<Identity>;
  /** Counts one request in the scope's rolling minute; 429 problem when over. */
  checkBurst(identity: Identity, scope: BurstScope): Outcome<void>;
  /** Whether the identity's plan reaches the endpoint (401 keyless where a key is needed). */
  checkPlan(identity: Identity, endpoint: Endpoint): Outcome<void>;
  /** Counts one request against the daily quota; 429 problem when used up. */
  consumeDaily(identity: Identity): Outcome<void>;
  usage(identity: Identity): UsageReport;
  /** `RateLimit-Policy` and `RateLimit` header values for a keyed identity and scope. */
  rateLimitHeaders(identity: Identity, scope: BurstScope): readonly (readonly [string, string])[];
  /** Limits kept in a store shared by several fronts (scale-out); absent on one box. */
  readonly shared?: SharedLimits;
}

/**
 * Burst and daily limits shared by every front (docs/scale-out.md). While the shared store
 * answers, a request's burst and daily counts are taken there in one step, after the plan gate
 * and the handler decided whether the daily quota applies; while it does not, the methods
 * above apply this front's own limits.
 */
export interface SharedLimits {
  active(): boolean;
  /**
   * The burst guard, then (when countDaily) the daily quota; the first refusal, or ok. Answers
   * at once when it can decide locally; otherwise returns null and calls `done` with the
   * outcome and `context` later (one function for all requests: no closure per request).
   */
  take<C>(identity: Identity, scope: BurstScope, countDaily: boolean,
    done: (outcome: Outcome<void>, context: C) => void, context: C): Outcome<void> | null;
  /**
   * The daily quota alone, for a request whose burst slot was taken earlier (an MCP tool call:
   * its HTTP request took the `mcp` slot, and only a served answer counts for the day). While
   * the shared store is away (or the call fails), this front's own counter.
   */
  takeDaily(identity: Identity): Promise<Outcome<void>>;
  /** The served data may be old: its producer is not heard from, or the store is away. */
  stale(): boolean;
}
