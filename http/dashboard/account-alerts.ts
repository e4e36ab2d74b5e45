// Alerts of the signed-in account: every kind, its options checked by the same parser as the
// command line (the form checks them first, this again), delivered to one of the account's
// endpoints; list and remove.
import {
  ALERT_KINDS, flatAlertFields, parseAlertSpec, type AlertRecord,
} from '../../actors/signals/alerts.js';
import { ALERT_ID, newAlertId } from '../../persistence/alerts.js';
import {
  BadField, iso, notFound, problemAnswer, stringField, type AccountCall, type Answer,
} from './account-context.js';
import type { IngestAccountDeps } from './account-deps.js';
import { ownedLiveKey } from './account-keys.js';
import { accountProblems } from './account-problems.js';
import { ownedEndpoints } from './account-webhooks.js';

/** The option fields a form may send (the CLI's flag names, camelCase). */
const OPTION_FIELDS = [
  'symbols', 'timeframes', 'minGrade', 'symbol', 'level', 'direction', 'field', 'above', 'below',
  'side', 'timeframe', 'window', 'point1', 'point2', 'cooldown',
] as const;

function alertJson(alert: AlertRecord, endpointId: string | null) {
  const { alert_id: _id, alert_kind: _kind, ...options } = flatAlertFields(alert);
  const symbol = 'symbol' in alert ? alert.symbol : null;
  return { id: alert.id, kind: alert.kind, symbol, keyPrefix: alert.keyPrefix, endpointId,
    webhookUrl: alert.webhookUrl, createdAt: iso(alert.createdAtMs), options };
}

function ownedAlerts(deps: IngestAccountDeps, call: AccountCall) {
  const endpoints = ownedEndpoints(deps, call.account);
  const prefixes = new Set(deps.accounts.keysOf(call.account.id).filter((o) => !o.session)
    .map((o) => o.prefix));
  const alerts = deps.alerts.list().filter((a) => prefixes.has(a.keyPrefix));
  const endpointOf = (a: AlertRecord) =>
    endpoints.find((e) => e.accountId === a.keyPrefix && e.url === a.webhookUrl)?.id ?? null;
  return { alerts, endpointOf };
}

export function listAlerts(deps: IngestAccountDeps, call: AccountCall): Answer {
  const { alerts, endpointOf } = ownedAlerts(deps, call);
  return { status: 200, json: { kinds: ALERT_KINDS,
    alerts: alerts.map((a) => alertJson(a, endpointOf(a))) } };
}

export async function addAlert(deps: IngestAccountDeps, call: AccountCall): Promise<Answer> {
  const { body } = call;
  const endpointId = stringField(body, 'endpointId', undefined, 40);
  const endpoint = ownedEndpoints(deps, call.account).find((e) => e.id === endpointId);
  if (endpoint === undefined) {
    throw new BadField(`endpointId must be one of this account's endpoints (was '${endpointId}')`);
  }
  if (ownedLiveKey(deps, call.account, endpoint.accountId) === undefined) {
    throw new BadField(`endpointId must belong to a live key (${endpoint.accountId} is revoked)`);
  }
  const kind = stringField(body, 'kind', undefined, 20);
  const input: Record<string, string | undefined> = {};
  for (const field of OPTION_FIELDS) {
    const value = body[field];
    if (value === undefined || value === null || value === '') continue;
    input[field] = typeof value === 'number' ? String(value) : stringField(body, field);
  }
  const parsed = parseAlertSpec(kind, input);
  if (!parsed.ok) throw new BadField(parsed.error);
  const alert = {
    id: newAlertId(), keyPrefix: endpoint.accountId, webhookUrl: endpoint.url,
    cooldownMs: parsed.value.cooldownMs, createdAtMs: deps.clock.nowMs(), ...parsed.value.spec,
  } as AlertRecord;
  const added = await deps.alerts.add(alert);
  if (!added.ok) return problemAnswer(accountProblems.conflict(added.error));
  return { status: 201, json: alertJson(alert, endpoint.id) };
}

export async function removeAlert(deps: IngestAccountDeps, call: AccountCall): Promise<Answer> {
  const { alerts } = ownedAlerts(deps, call);
  if (!ALERT_ID.test(call.param) || !alerts.some((a) => a.id === call.param)) {
    return notFound('alert', call.param);
  }
  await deps.alerts.remove(call.param);
  return { status: 200, json: { id: call.param, removed: true } };
}
