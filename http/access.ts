// createAccessControl: identity, burst guard, plan gate and daily quota, shared by REST and MCP.
import type { KeyDirectory, KeyRecord, Plan, UsageCounters } from '../core/messages.js';
import type { Clock } from '../core/clock.js';
import type { ServiceConfig } from '../core/config.js';
import type {
  AccessControl, BurstScope, ClientAddress, Credentials, Endpoint, Identity, Outcome,
  UsageReport,
} from './access-types.js';
import { BurstGuard, burstLimitByScope, type BurstState } from './burst.js';
import { createKeyReader } from './credentials.js';
import { minimumPlan, planReaches } from './plans.js';
import { problems } from './problems.js';
import { DailyQuota, quotaHolder, secondsUntil, type DailyState } from './quota.js';

export interface AccessControlDeps {
  readonly config: ServiceConfig;
  readonly clock: Clock;
  readonly keys: KeyDirectory;
  readonly usage: UsageCounters;
}

const OK: Outcome<void> = Object.freeze({ ok: true, value: undefined });
const NO_HEADERS: readonly (readonly [string, string])[] = Object.freeze([]);

function addressOf(client: ClientAddress): string {
  return typeof client === 'string' ? client : client.ip;
}

/** A key's identity; its address is read from the client only when asked (see ClientAddress). */
class KeyIdentity {
  readonly kind = 'key';
  readonly #client: ClientAddress;

  constructor(client: ClientAddress, readonly key: KeyRecord, readonly plan: Plan) {
    this.#client = client;
  }

  get ip(): string {
    return addressOf(this.#client);
  }
}

/**
 * The burst identity: IP, plus the key's public prefix when a key was sent (a session key's
 * account instead: its sessions share one window, quotaHolder).
 */
export function burstKey(identity: Identity, scope: BurstScope): string {
  if (identity.kind !== 'key') return `${scope}|${identity.ip}`;
  const { key } = identity;
  return key.sessionAccountId === undefined ? `${scope}|${identity.ip}|${key.prefix}`
    : `${scope}|${identity.ip}|${quotaHolder(key)}`;
}

/** `RateLimit-Policy` and `RateLimit` (IETF httpapi ratelimit-headers draft). */
export function rateLimitLines(b: BurstState, d: DailyState, nowMs: number):
  readonly (readonly [string, string])[] {
  const dailyRemaining = Math.max(0, d.applied.limit - d.used);
  return [
    ['RateLimit-Policy', `"burst";q=${b.limit};w=60, "daily";q=${d.applied.limit};w=86400`],
    ['RateLimit', `"burst";r=${b.remaining};t=${b.resetSeconds}, ` +
      `"daily";r=${dailyRemaining};t=${secondsUntil(d.day.endMs, nowMs)}`],
  ];
}

function rateLimitHeaderValues(burst: BurstGuard, daily: DailyQuota, key: string, limit: number,
  identity: Identity, nowMs: number): readonly (readonly [string, string])[] {
  return rateLimitLines(burst.peek(key, limit, nowMs), daily.state(identity, nowMs), nowMs);
}

type Found = Outcome<Identity> & { readonly ok: true };

/**
 * The identities of refilled clients (ClientAddress): per client, one keyless identity and one
 * per key record, made once, so a poll makes none. Weak both ways: a key record replaced when
 * the directory is rebuilt, or a closed front's request object, leaves nothing behind.
 */
class RefilledIdentities {
  private readonly keyless = new WeakMap<object, Found>();
  private readonly keyed = new WeakMap<object, WeakMap<KeyRecord, Found>>();

  ip(client: { readonly ip: string }): Found {
    let found = this.keyless.get(client);
    if (found === undefined) {
      const identity = { kind: 'ip' as const, get ip() { return client.ip; } };
      found = { ok: true, value: identity };
      this.keyless.set(client, found);
    }
    return found;
  }

  key(client: { readonly ip: string }, record: KeyRecord): Found {
    let byRecord = this.keyed.get(client);
    if (byRecord === undefined) {
      byRecord = new WeakMap();
      this.keyed.set(client, byRecord);
    }
    let found = byRecord.get(record);
    if (found === undefined) {
      found = { ok: true, value: new KeyIdentity(client, record, record.plan) };
      byRecord.set(record, found);
    }
    return found;
  }
}

const refilled = (client: ClientAddress): client is { readonly ip: string } =>
  typeof client !== 'string' && client.refilled === true;

export function createAccessControl(deps: AccessControlDeps): AccessControl {
  const { config, clock, keys } = deps;
  const readKey = createKeyReader();
  const burst = new BurstGuard();
  const daily = new DailyQuota(deps.usage, config.keylessDailyLimit);
  const identities = new RefilledIdentities();

  function identify(credentials: Credentials, client: ClientAddress): Outcome<Identity> {
    const picked = readKey(credentials);
    if (picked.kind === 'none') {
      if (refilled(client)) return identities.ip(client);
      return { ok: true, value: { kind: 'ip', ip: addressOf(client) } };
    }
    if (picked.kind === 'malformed') {
      return { ok: false, problem: problems.invalidKey(picked.detail) };
    }
    const record = keys.byDigest(picked.digest);
    if (record === undefined || record.prefix !== picked.prefix) {
      return { ok: false, problem: problems.invalidKey(`${picked.source} holds an unknown key`) };
    }
    if (record.revokedAtMs !== null) {
      return { ok: false, problem: problems.invalidKey(
        `the key ${record.prefix} was revoked at ${new Date(record.revokedAtMs).toISOString()}`) };
    }
    if (refilled(client)) return identities.key(client, record);
    return { ok: true, value: new KeyIdentity(client, record, record.plan) };
  }

  function checkBurst(identity: Identity, scope: BurstScope): Outcome<void> {
    if (!config.limitsEnabled) return OK;
    const limit = burstLimitByScope[scope];
    const state = burst.take(burstKey(identity, scope), limit, clock.nowMs());
    if (state.ok) return OK;
    return { ok: false, problem: problems.rateLimited(scope, limit, state.resetSeconds) };
  }

  function checkPlan(identity: Identity, endpoint: Endpoint): Outcome<void> {
    const required = minimumPlan[endpoint];
    if (required === null) return OK;
    if (identity.kind === 'ip') {
      return { ok: false, problem: problems.invalidKey(
        `${endpoint} needs an API key (send Authorization: Bearer <API_KEY>; none was sent)`) };
    }
    if (planReaches(identity.plan, endpoint)) return OK;
    return { ok: false, problem: problems.planRequired(required, identity.plan, endpoint) };
  }

  function consumeDaily(identity: Identity): Outcome<void> {
    if (!config.limitsEnabled) return OK;
    const nowMs = clock.nowMs();
    const { ok, state } = daily.consume(identity, nowMs);
    if (ok) return OK;
    const resetsAt = new Date(state.day.endMs).toISOString();
    return { ok: false, problem: problems.quotaExceeded(
      state.applied.limit, state.used, resetsAt, secondsUntil(state.day.endMs, nowMs)) };
  }

  function usage(identity: Identity): UsageReport {
    return daily.report(identity, clock.nowMs());
  }

  const rateLimitHeaders = (identity: Identity, scope: BurstScope) => (config.limitsEnabled
    ? rateLimitHeaderValues(burst, daily, burstKey(identity, scope), burstLimitByScope[scope],
      identity, clock.nowMs())
    : NO_HEADERS);

  return { identify, checkBurst, checkPlan, consumeDaily, usage, rateLimitHeaders };
}
