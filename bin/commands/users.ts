// `orderflow users`: dashboard accounts in the data directory's store (in Redis with
// ORDERFLOW_REDIS_URL): create (password read from standard input), list, set-plan, disable
// and enable. A running server sees each change at the account's next request.
import { PLANS } from '../../core/messages.js';
import { parsePlan } from '../../core/plans.js';
import {
  AccountError, isEmail, normalizeEmail, type AccountRecord,
} from '../../persistence/accounts.js';
import { hashPassword, passwordProblem } from '../../persistence/passwords.js';
import { withAccountAdmin, type AccountAdmin } from '../admin-accounts.js';
import type { Command, CommandIo } from '../cli.js';
import { parseOptions, runSubcommands, UsageError } from '../cli.js';

const usage = `usage: orderflow users <subcommand> [options]

  create --email E --plan PLAN [--json]
        Create a dashboard account. The password is read from standard input (one line,
        10 to 200 characters), e.g. \`printf '%s' "$PW" | orderflow users create ...\`.
        It is stored only as a scrypt digest with a per-account salt.
  list [--json]          Every account: id, email, plan, status, created.
  set-plan EMAIL PLAN    Move an account to another plan (it caps the keys it creates).
  disable EMAIL          Refuse the account's sign-ins and sessions from now on.
  enable EMAIL           Let a disabled account sign in again.

Every subcommand accepts --data-dir DIR (default: ORDERFLOW_DATA_DIR, else ./data).
With ORDERFLOW_REDIS_URL set, the accounts live in that Redis (scale-out, docs/scale-out.md).
Plans: ${PLANS.join(', ')} (any case). Sign in at http://HOST:PORT/ (docs/dashboard.md).
`;

const dataDirOption = { 'data-dir': { type: 'string' } } as const;
const stdinBytesMax = 4096;

/** Standard input up to its end (or the first line), without the line break. */
export async function readPasswordFromStdin(io: CommandIo): Promise<string> {
  const input = (io as CommandIo & { stdin?: AsyncIterable<Buffer | string> }).stdin ??
    process.stdin;
  if (input === process.stdin && process.stdin.isTTY) {
    throw new UsageError('the password is read from standard input: pipe it in ' +
      "(printf '%s' \"$PW\" | orderflow users create ...)");
  }
  let text = '';
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (text.length > stdinBytesMax || text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0];
}

function planArgument(text: string | undefined, what: string) {
  if (text === undefined) throw new UsageError(`${what} is required (one of ${PLANS.join(', ')})`);
  const plan = parsePlan(text);
  if (!plan) throw new UsageError(`${what} must be one of ${PLANS.join(', ')} (was '${text}')`);
  return plan;
}

function emailArgument(text: string | undefined, what: string): string {
  if (text === undefined) throw new UsageError(`${what} is required`);
  const email = normalizeEmail(text);
  if (!isEmail(email)) throw new UsageError(`${what} must be an email address (was '${text}')`);
  return email;
}

function accountJson(account: AccountRecord) {
  return {
    id: account.id, email: account.email, plan: account.plan,
    createdAt: new Date(account.createdAtMs).toISOString(),
    disabledAt: account.disabledAtMs === null ? null : new Date(account.disabledAtMs).toISOString(),
  };
}

async function create(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseOptions(argv, {
    ...dataDirOption, email: { type: 'string' }, plan: { type: 'string' },
    json: { type: 'boolean' },
  });
  const email = emailArgument(values.email, '--email');
  const plan = planArgument(values.plan, '--plan');
  const password = await readPasswordFromStdin(io);
  const problem = passwordProblem(password);
  if (problem !== null) throw new UsageError(problem);
  const passwordDigest = await hashPassword(password);
  const account = await withAccountAdmin(values['data-dir'], io, async ({ accounts, clock }) => {
    try {
      return await accounts.create({ email, plan, passwordDigest }, clock.nowMs());
    } catch (error) {
      if (error instanceof AccountError) throw new UsageError(error.message, 1);
      throw error;
    }
  }, true);
  if (values.json) io.stdout(JSON.stringify(accountJson(account)) + '\n');
  else io.stdout(`created ${account.id} ${account.email} (plan ${account.plan})\n`);
  return 0;
}

async function list(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseOptions(argv, { ...dataDirOption, json: { type: 'boolean' } });
  const accounts = await withAccountAdmin(values['data-dir'], io,
    async (admin) => admin.accounts.list());
  if (values.json) io.stdout(JSON.stringify(accounts.map(accountJson)) + '\n');
  else if (accounts.length === 0) io.stdout('no accounts yet (create one with: orderflow users ' +
    'create --email E --plan PLAN)\n');
  else {
    io.stdout(accounts.map((a) => [a.id, a.email.padEnd(30), a.plan.padEnd(7),
      a.disabledAtMs === null ? 'active  ' : 'disabled',
      new Date(a.createdAtMs).toISOString().slice(0, 19) + 'Z'].join('  ')).join('\n') + '\n');
  }
  return 0;
}

/** One account changed by email; exit 1 when there is no such account. */
async function change(argv: readonly string[], io: CommandIo, count: number,
  apply: (account: AccountRecord, args: string[], nowMs: number) => AccountRecord,
  report: (account: AccountRecord) => string,
  after?: (admin: AccountAdmin, account: AccountRecord) => Promise<void>): Promise<number> {
  const { values, positionals } = parseOptions(argv, dataDirOption, true);
  if (positionals.length !== count) {
    throw new UsageError(`expected ${count} argument${count > 1 ? 's' : ''} ` +
      `(was ${positionals.length})`);
  }
  const email = emailArgument(positionals[0], 'EMAIL');
  const account = await withAccountAdmin(values['data-dir'], io, async (admin) => {
    try {
      const updated = await admin.accounts.update(email,
        (current) => apply(current, positionals.slice(1), admin.clock.nowMs()));
      await after?.(admin, updated);
      return updated;
    } catch (error) {
      if (error instanceof AccountError) throw new UsageError(error.message, 1);
      throw error;
    }
  });
  io.stdout(report(account) + '\n');
  return 0;
}

/** Ends the account's dashboard sessions and revokes their keys (its API keys stay). */
async function endSessions({ accounts, keys }: AccountAdmin, account: AccountRecord):
  Promise<void> {
  for (const session of accounts.sessionsOf(account.id)) {
    if (session.keyPrefix !== null) await keys.revoke(session.keyPrefix);
    await accounts.removeSession(session.digest);
  }
}

export const command: Command = {
  name: 'users',
  summary: 'create, list, re-plan and disable dashboard accounts',
  usage,
  run(argv, io) {
    return runSubcommands('users', usage, argv, io, {
      create: (args) => create(args, io),
      list: (args) => list(args, io),
      'set-plan': (args) => {
        const plan = planArgument(args.filter((a) => !a.startsWith('--'))[1], 'PLAN');
        return change(args, io, 2, (a) => ({ ...a, plan }),
          (a) => `${a.email} is now on plan ${a.plan}`);
      },
      disable: (args) => change(args, io, 1,
        (a, _rest, nowMs) => (a.disabledAtMs === null ? { ...a, disabledAtMs: nowMs } : a),
        (a) => `${a.email} is disabled; its sessions are ended`, endSessions),
      enable: (args) => change(args, io, 1, (a) => ({ ...a, disabledAtMs: null }),
        (a) => `${a.email} is enabled`),
    });
  },
};
