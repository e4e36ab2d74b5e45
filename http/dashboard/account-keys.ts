// API Keys for the signed-in account: list (prefix, label, plan, created, last used, used
// today of limit), create (the key in this answer only; the plan capped by the account's) and
// revoke; plus the session's own dashboard key, which its pages read the data endpoints with.
import type { KeyRecord, Plan } from '../../core/messages.js';
import { planRank, parsePlan } from '../../core/plans.js';
import { romeDayKey } from '../../core/rome-time.js';
import type { AccountRecord } from '../../persistence/accounts.js';
import { isKeyPrefix } from '../../persistence/keys.js';
import { quotaHolder } from '../quota.js';
import {
  BadField, iso, notFound, problemAnswer, stringField, type AccountCall, type Answer,
} from './account-context.js';
import { isLive, type AccountApiDeps } from './account-deps.js';
import { accountProblems } from './account-problems.js';

const LABEL_CHARS_MAX = 100;
const DAY_MS = 86_400_000;
/** How far back "last used" looks (the usage table keeps about a week). */
const LAST_USED_DAYS = 8;
export const SESSION_KEY_LABEL = 'dashboard session';

export function keyIdentity(key: KeyRecord, ip = '') {
  return { kind: 'key' as const, ip, key, plan: key.plan };
}

/** The Rome day keys of the last n days, newest first. */
export function lastDays(nowMs: number, n: number): string[] {
  const days: string[] = [];
  for (let i = 0; i < n; i++) {
    const day = romeDayKey(nowMs - i * DAY_MS);
    if (!days.includes(day)) days.push(day);
  }
  return days;
}

/** A key's counts by day, read once for the days a page shows (a session key's: the account's
 *  sessions' together, which is what its quota counts). */
async function countsOf(deps: AccountApiDeps, key: KeyRecord, days: readonly string[]):
  Promise<ReadonlyMap<string, number>> {
  const used = await deps.usageOn(quotaHolder(key), days);
  return new Map(days.map((day, i) => [day, used[i]!]));
}

/** `read`: the key's counts already read for a longer span from `nowMs` (the Usage page). */
export async function keyRow(deps: AccountApiDeps, key: KeyRecord,
  read?: { readonly nowMs: number; readonly counts: ReadonlyMap<string, number> }) {
  const usage = deps.access.usage(keyIdentity(key));
  const days = lastDays(read?.nowMs ?? deps.clock.nowMs(), LAST_USED_DAYS);
  const counts = read?.counts ?? await countsOf(deps, key, days);
  const used = days.map((day) => counts.get(day) ?? 0);
  const lastUsedDay = days.find((_, i) => used[i]! > 0) ?? null;
  return {
    prefix: key.prefix, label: key.label, plan: key.plan, createdAt: iso(key.createdAtMs),
    // Today's count as the dashboard's usage days read it (on scale-out, the shared counter,
    // which this front's access control may not have seen yet).
    revokedAt: iso(key.revokedAtMs), lastUsedDay, usedToday: used[0]!, limit: usage.limit,
    resetsAt: usage.resetsAt,
  };
}

/** The account's keys made under API Keys (not the sessions' own), newest first. */
export function ownedKeys(deps: AccountApiDeps, account: AccountRecord): KeyRecord[] {
  return deps.accounts.keysOf(account.id).filter((o) => !o.session)
    .map((o) => deps.keys.byPrefix(o.prefix)).filter((k): k is KeyRecord => k !== undefined)
    .sort((a, b) => b.createdAtMs - a.createdAtMs);
}

/** A live key of this account (API Keys, not a session's), or undefined. */
export function ownedLiveKey(deps: AccountApiDeps, account: AccountRecord, prefix: string):
  KeyRecord | undefined {
  const owner = isKeyPrefix(prefix) ? deps.accounts.ownerOf(prefix) : undefined;
  if (owner === undefined || owner.accountId !== account.id || owner.session) return undefined;
  const key = deps.keys.byPrefix(prefix);
  return isLive(key) ? key : undefined;
}

export async function listKeys(deps: AccountApiDeps, call: AccountCall): Promise<Answer> {
  const keys = await Promise.all(ownedKeys(deps, call.account).map((k) => keyRow(deps, k)));
  return { status: 200, json: { keys } };
}

export async function createKey(deps: AccountApiDeps, call: AccountCall): Promise<Answer> {
  const { account, body } = call;
  const planText = stringField(body, 'plan', account.plan, 20);
  const plan = parsePlan(planText);
  if (plan === undefined) throw new BadField(`plan must be a plan name (was '${planText}')`);
  if (planRank[plan] > planRank[account.plan]) {
    return problemAnswer(accountProblems.planRequired(`a ${plan} key needs a ${plan} account ` +
      `(this account's plan is ${account.plan})`));
  }
  const label = stringField(body, 'label', '', LABEL_CHARS_MAX);
  if (/[\u0000-\u001f]/.test(label)) throw new BadField('label must be printable characters');
  const created = await mintKey(deps, account, plan, label === '' ? null : label, false);
  return { status: 201, json: { key: created.key, ...await keyRow(deps, created.record) } };
}

/** A key for the account; a session's shares the account's one quota and burst windows. */
export async function mintKey(deps: AccountApiDeps, account: AccountRecord, plan: Plan,
  label: string | null, session: boolean) {
  const created = await deps.keys.create(session
    ? { plan, label, sessionAccountId: account.id } : { plan, label });
  await deps.accounts.own({ prefix: created.record.prefix, accountId: account.id, session });
  return created;
}

export async function revokeKey(deps: AccountApiDeps, call: AccountCall): Promise<Answer> {
  const key = ownedLiveKey(deps, call.account, call.param);
  if (key === undefined) return notFound('key', call.param);
  const change = await deps.keys.revoke(key.prefix);
  if (!change.ok) return notFound('key', call.param);
  return { status: 200, json: await keyRow(deps, change.record) };
}

/** A fresh key for the session's pages; the session's previous one is revoked. */
export async function sessionKey(deps: AccountApiDeps, call: AccountCall,
  setKey: (prefix: string) => Promise<void>): Promise<Answer> {
  const { account, session } = call;
  if (session.record.keyPrefix !== null) await deps.keys.revoke(session.record.keyPrefix);
  const created = await mintKey(deps, account, account.plan, SESSION_KEY_LABEL, true);
  await setKey(created.record.prefix);
  return { status: 201, json: { key: created.key, prefix: created.record.prefix,
    plan: created.record.plan } };
}

export async function usageReport(deps: AccountApiDeps, call: AccountCall): Promise<Answer> {
  const nowMs = deps.clock.nowMs();
  const days = lastDays(nowMs, 30);
  const keys = ownedKeys(deps, call.account).filter(isLive);
  const sessionPrefix = call.session.record.keyPrefix;
  const session = sessionPrefix === null ? undefined : deps.keys.byPrefix(sessionPrefix);
  const all = session === undefined ? keys : [...keys, session];
  return {
    status: 200,
    json: {
      timeZone: 'Europe/Rome',
      keys: await Promise.all(all.map(async (key) => {
        // One read per key: the row's last-used and today figures come from the same days.
        const counts = await countsOf(deps, key, days);
        return { ...await keyRow(deps, key, { nowMs, counts }), session: key === session,
          days: days.map((day) => ({ day, used: counts.get(day)! })) };
      })),
    },
  };
}
