// Sessions and the sign-in throttle on a travelling clock: 12 h idle expiry (a request within
// it keeps the session alive), the CSRF token bound to the session, Retry-After never early;
// and the users command's subcommands on a real store, the password read from stdin.
import { mkdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { UsageError, type CommandIo } from '../../bin/cli.js';
import { command as users } from '../../bin/commands/users.js';
import { SessionManager, SESSION_IDLE_MS, csrfTokenOf } from '../../http/dashboard/sessions.js';
import { SignInThrottle, SIGN_IN_WINDOW_MS } from '../../http/dashboard/sign-in-throttle.js';
import { openAccountStore } from '../../persistence/account-store.js';
import { openStore } from '../../persistence/store.js';
import { hashPassword, verifyPassword } from '../../persistence/passwords.js';
import { tempDir } from '../helpers/eventually.js';

const s = suite('dashboard sessions');
const T0 = Date.parse('2026-11-25T10:00:00Z');

s('a session lives while used and ends after 12 h idle; the CSRF token is per session',
  async () => {
    const clock = new ManualClock(T0);
    const store = await openStore({ dataDir: join(await tempDir(), 'data'), clock });
    try {
      const accounts = openAccountStore(store.root);
      const account = await accounts.create({ email: 'a@example.com', plan: 'Pro',
        passwordDigest: await hashPassword('0123456789') }, clock.nowMs());
      const sessions = new SessionManager(accounts, clock);
      const { id, record } = await sessions.start(account);
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
      assert.is(await sessions.resolve('of_session=not-a-session-id'), undefined);
    } finally {
      await store.close();
    }
  });

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
      const { record } = await new SessionManager(accounts, new ManualClock(T0))
        .start(ana);
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
