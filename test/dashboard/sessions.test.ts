// Sessions and the sign-in throttle on a travelling clock: 12 h idle expiry (a request within
// it keeps the session alive), the key revoked with its session, the sweep that ends expired
// sessions and revokes orphaned session keys, the CSRF token bound to the session, Retry-After
// never early; and the users command's subcommands on a real store, the password read from stdin.
import { mkdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { UsageError, type CommandIo } from '../../bin/cli.js';
import { command as users } from '../../bin/commands/users.js';
import { silentLogger } from '../../core/logger.js';
import {
  ORPHAN_KEY_GRACE_MS, SessionSweeper,
} from '../../http/dashboard/session-sweep.js';
import { SessionManager, SESSION_IDLE_MS, csrfTokenOf } from '../../http/dashboard/sessions.js';
import { SignInThrottle, SIGN_IN_WINDOW_MS } from '../../http/dashboard/sign-in-throttle.js';
import { openAccountStore } from '../../persistence/account-store.js';
import type { AccountRecord, AccountStore } from '../../persistence/accounts.js';
import { openStore, type Store } from '../../persistence/store.js';
import { hashPassword, verifyPassword } from '../../persistence/passwords.js';
import { tempDir } from '../helpers/eventually.js';

const s = suite('dashboard sessions');
const T0 = Date.parse('2026-11-25T10:00:00Z');

/** A real store in a temp folder with one Pro account, its sessions on a travelling clock. */
async function withAccount(run: (t: { clock: ManualClock; store: Store;
  accounts: AccountStore; account: AccountRecord; sessions: SessionManager }) => Promise<void>) {
  const clock = new ManualClock(T0);
  const store = await openStore({ dataDir: join(await tempDir(), 'data'), clock });
  try {
    const accounts = openAccountStore(store.root);
    const account = await accounts.create({ email: 'a@example.com', plan: 'Pro',
      passwordDigest: await hashPassword('0123456789') }, clock.nowMs());
    const sessions = new SessionManager(accounts, clock, (p) => store.keys.revoke(p));
    await run({ clock, store, accounts, account, sessions });
  } finally {
    await store.close();
  }
}

s('a session lives while used and ends after 12 h idle; the CSRF token is per session',
  () => withAccount(async ({ clock, store, accounts, account, sessions }) => {
    const started = await sessions.start(account);
    const { id } = started;
    const key = await store.keys.create({ plan: 'Pro', sessionAccountId: account.id });
    const record = await sessions.setKey(started.record, key.record.prefix);
    assert.is.not(record.digest, id);
    assert.is(JSON.stringify(accounts.sessionsOf(account.id)).includes(id), false);
    const cookie = `other=1; of_session=${id}`;
    clock.advance(SESSION_IDLE_MS - 1_000);
    const alive = await sessions.resolve(cookie);
    assert.ok(alive);
    assert.is(alive.csrfToken, csrfTokenOf(id));
    const second = await sessions.start(account);
    assert.is.not(csrfTokenOf(second.id), alive.csrfToken);
    clock.advance(SESSION_IDLE_MS - 1_000);
    assert.ok(await sessions.resolve(cookie), 'the request above reset the idle time');
    clock.advance(SESSION_IDLE_MS + 1);
    assert.is(await sessions.resolve(cookie), undefined);
    assert.is(accounts.session(record.digest), undefined, 'removed on sight');
    assert.type(store.keys.byPrefix(key.record.prefix)?.revokedAtMs, 'number',
      'its key revoked with it');
    assert.is(await sessions.resolve('of_session=not-a-session-id'), undefined);
  }));

s('the sweep ends expired sessions with their keys and revokes session keys left alone',
  () => withAccount(async ({ clock, store, accounts, account, sessions }) => {
    const sweeper = new SessionSweeper({ accounts, keys: store.keys, sessions, clock,
      logger: silentLogger });
    const sessionKey = async () => {
      const made = await store.keys.create({ plan: 'Pro', sessionAccountId: account.id });
      await accounts.own({ prefix: made.record.prefix, accountId: account.id, session: true });
      return made.record.prefix;
    };
    const old = await sessions.setKey((await sessions.start(account)).record,
      await sessionKey());
    const orphan = await sessionKey();
    const apiKey = (await store.keys.create({ plan: 'Pro' })).record.prefix;
    await accounts.own({ prefix: apiKey, accountId: account.id, session: false });
    clock.advance(SESSION_IDLE_MS - 60_000);
    const young = await sessions.setKey((await sessions.start(account)).record,
      await sessionKey());
    const youngOrphan = await sessionKey();
    clock.advance(60_001);
    assert.equal(await sweeper.sweep(), { sessionsEnded: 1, orphansRevoked: 1 });
    const revoked = (prefix: string) => store.keys.byPrefix(prefix)?.revokedAtMs !== null;
    assert.ok(revoked(old.keyPrefix!), 'the expired session\'s key');
    assert.ok(revoked(orphan), 'a session key named by no session, past the grace');
    assert.not.ok(revoked(young.keyPrefix!), 'a live session keeps its key');
    assert.not.ok(revoked(youngOrphan), 'within the grace: a sign-in may be naming it');
    assert.not.ok(revoked(apiKey), 'API keys are not sessions\'');
    assert.equal(accounts.sessionsOf(account.id).map((s) => s.digest), [young.digest]);
    clock.advance(ORPHAN_KEY_GRACE_MS);
    assert.equal(await sweeper.sweep(), { sessionsEnded: 0, orphansRevoked: 1 });
    assert.ok(revoked(youngOrphan));
    assert.not.ok(revoked(young.keyPrefix!));
  }));

s('the throttle refuses the sixth attempt and its Retry-After is never early', () => {
  const clock = new ManualClock(T0);
  const throttle = new SignInThrottle(clock);
  for (let i = 0; i < 5; i++) {
    assert.is(throttle.retryAfterSeconds('a@x.io', '10.0.0.1'), 0);
    throttle.fail('a@x.io', '10.0.0.1');
    clock.advance(60_000);
  }
  const wait = throttle.retryAfterSeconds('a@x.io', '10.0.0.9');
  assert.is(wait, (SIGN_IN_WINDOW_MS - 5 * 60_000) / 1000);
  assert.ok(throttle.retryAfterSeconds('b@x.io', '10.0.0.1') > 0, 'the address too');
  assert.is(throttle.retryAfterSeconds('b@x.io', '10.0.0.2'), 0);
  clock.advance(wait * 1000 - 1);
  assert.ok(throttle.retryAfterSeconds('a@x.io', '10.0.0.9') > 0);
  clock.advance(1);
  assert.is(throttle.retryAfterSeconds('a@x.io', '10.0.0.9'), 0);
});

/** `orderflow ARGS` as bin/main.ts runs it: a UsageError is its exit code, its message on stderr.
 *  (main() loads commands with import(), which under the test runner's require hook is another
 *  module instance, so the command is called here directly.) */
async function main(argv: string[], cio: CommandIo & { err: string }): Promise<number> {
  try {
    return await users.run(argv.slice(1), cio);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    cio.stderr(error.message);
    return error.exitCode;
  }
}

function io(stdin = ''): CommandIo & { out: string; err: string } {
  const result = {
    out: '', err: '', env: {} as Record<string, string>,
    stdout: (t: string) => { result.out += t; },
    stderr: (t: string) => { result.err += t; },
    stdin: Readable.from([stdin]),
  };
  return result;
}

s('orderflow users: create, list, set-plan, disable, enable; bad input exits non-zero',
  async () => {
    const dataDir = join(await tempDir(), 'data');
    mkdirSync(dataDir);
    const dir = ['--data-dir', dataDir];
    const created = io('a long passphrase\n');
    assert.is(await main(['users', 'create', '--email', 'Ana@Example.com', '--plan', 'trader',
      ...dir], created), 0, created.err);
    assert.match(created.out, /ana@example.com \(plan Trader\)/);
    const weak = io('short\n');
    assert.is(await main(['users', 'create', '--email', 'b@example.com', '--plan', 'Pro', ...dir],
      weak), 2, weak.err);
    assert.match(weak.err, /10 to 200 characters/);
    const badEmail = io('a long passphrase\n');
    assert.is(await main(['users', 'create', '--email', 'nope', '--plan', 'Pro', ...dir],
      badEmail), 2);
    assert.is(await main(['users', 'set-plan', 'ana@example.com', 'Whale', ...dir], io()), 0);
    assert.is(await main(['users', 'set-plan', 'ana@example.com', 'Gold', ...dir], io()), 2);
    assert.is(await main(['users', 'disable', 'nobody@example.com', ...dir], io()), 1);
    const before = await openStore({ dataDir, clock: new ManualClock(T0), watchKeys: false });
    let sessionKey = '';
    try {
      const accounts = openAccountStore(before.root);
      const ana = accounts.byEmail('ana@example.com');
      assert.ok(ana);
      const { record } = await new SessionManager(accounts, new ManualClock(T0),
        (p) => before.keys.revoke(p)).start(ana);
      const created = await before.keys.create({ plan: 'Trader', label: 'dashboard session' });
      sessionKey = created.record.prefix;
      await accounts.putSession({ ...record, keyPrefix: sessionKey });
    } finally {
      await before.close();
    }
    assert.is(await main(['users', 'disable', 'ana@example.com', ...dir], io()), 0);
    const listed = io();
    assert.is(await main(['users', 'list', '--json', ...dir], listed), 0);
    const [row] = JSON.parse(listed.out);
    assert.is(row.plan, 'Whale');
    assert.type(row.disabledAt, 'string');
    assert.is(await main(['users', 'enable', 'ana@example.com', ...dir], io()), 0);
    const store = await openStore({ dataDir, clock: new ManualClock(T0), watchKeys: false });
    try {
      const account = openAccountStore(store.root).byEmail('ana@example.com');
      assert.ok(account);
      assert.is(account.disabledAtMs, null);
      assert.equal(openAccountStore(store.root).sessionsOf(account.id), [], 'sessions ended');
      assert.type(store.keys.byPrefix(sessionKey)?.revokedAtMs, 'number');
      assert.is(account.passwordDigest.includes('passphrase'), false);
      assert.ok(await verifyPassword('a long passphrase', account.passwordDigest));
      assert.not.ok(await verifyPassword('a long passphrasf', account.passwordDigest));
    } finally {
      await store.close();
    }
  });

s.run();
