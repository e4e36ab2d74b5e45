// Signing in and out, open sign-up, and who is signed in: the sign-in checks the scrypt digest
// (a decoy digest when the email is unknown, so timing tells nothing), throttles failures, and
// answers the session cookie, the CSRF token and the session's dashboard key.
import { parsePlan } from '../../core/plans.js';
import {
  AccountError, isEmail, normalizeEmail, type AccountRecord,
} from '../../persistence/accounts.js';
import {
  decoyDigest, hashPassword, passwordProblem, verifyPassword,
} from '../../persistence/passwords.js';
import { BadField, stringField, type AccountCall, type Answer } from './account-context.js';
import type { AccountApiDeps } from './account-deps.js';
import { mintKey, SESSION_KEY_LABEL } from './account-keys.js';
import { accountProblems } from './account-problems.js';
import type { Exchange } from './exchange.js';
import {
  clearedCookie, csrfTokenOf, sessionCookie, type SessionManager,
} from './sessions.js';
import type { SignInLimiter } from './sign-in-throttle.js';

export function accountJson(account: AccountRecord) {
  return { id: account.id, email: account.email, plan: account.plan,
    createdAt: new Date(account.createdAtMs).toISOString() };
}

/**
 * Starts a session with its own dashboard key. The account's other sessions keep theirs (each
 * ends at its sign-out or expiry, session-sweep.ts): their keys all share the account's quota.
 */
async function startSession(deps: AccountApiDeps, sessions: SessionManager, ex: Exchange,
  account: AccountRecord): Promise<Answer> {
  const { id, record } = await sessions.start(account);
  const created = await mintKey(deps, account, account.plan, SESSION_KEY_LABEL, true);
  await sessions.setKey(record, created.record.prefix);
  return {
    status: 200,
    json: { account: accountJson(account), csrfToken: csrfTokenOf(id),
      dashboardKey: { key: created.key, prefix: created.record.prefix } },
    headers: [['Set-Cookie', sessionCookie(id, ex.https)]],
  };
}

export async function signIn(deps: AccountApiDeps, sessions: SessionManager,
  throttle: SignInLimiter, ex: Exchange, body: Readonly<Record<string, unknown>>):
  Promise<Answer> {
  const email = normalizeEmail(stringField(body, 'email', undefined, 256));
  const password = stringField(body, 'password', undefined, 1_024);
  const waitSeconds = await throttle.retryAfterSeconds(email, ex.ip);
  if (waitSeconds > 0) return { problem: accountProblems.throttled(waitSeconds) };
  const account = deps.accounts.byEmail(email);
  const digest = account?.passwordDigest ?? await decoyDigest();
  const matches = await verifyPassword(password, digest);
  if (account === undefined || !matches || account.disabledAtMs !== null) {
    await throttle.fail(email, ex.ip);
    deps.logger.info('sign-in refused', { ip: ex.ip });
    return { problem: accountProblems.badCredentials() };
  }
  deps.logger.info('signed in', { account: account.id });
  return startSession(deps, sessions, ex, account);
}

export async function signUp(deps: AccountApiDeps, sessions: SessionManager, ex: Exchange,
  body: Readonly<Record<string, unknown>>): Promise<Answer> {
  if (!deps.signupOpen) {
    return { problem: accountProblems.csrf('sign-up is closed: the operator creates accounts ' +
      '(orderflow users create)') };
  }
  const email = normalizeEmail(stringField(body, 'email', undefined, 256));
  if (!isEmail(email)) throw new BadField(`email must be an email address (was '${email}')`);
  const password = stringField(body, 'password', undefined, 1_024);
  const problem = passwordProblem(password);
  if (problem !== null) throw new BadField(problem);
  try {
    const account = await deps.accounts.create({ email, plan: parsePlan('Free') ?? 'Free',
      passwordDigest: await hashPassword(password) }, deps.clock.nowMs());
    return startSession(deps, sessions, ex, account);
  } catch (error) {
    if (error instanceof AccountError) return { problem: accountProblems.conflict(error.message) };
    throw error;
  }
}

export async function signOut(sessions: SessionManager, call: AccountCall): Promise<Answer> {
  await sessions.end(call.session.record);
  return { status: 200, json: { signedOut: true },
    headers: [['Set-Cookie', clearedCookie(call.ex.https)]] };
}

export function whoAmI(deps: AccountApiDeps, call: AccountCall): Answer {
  return { status: 200, json: { account: accountJson(call.account),
    csrfToken: call.session.csrfToken, signupOpen: deps.signupOpen,
    sessionKeyPrefix: call.session.record.keyPrefix } };
}
