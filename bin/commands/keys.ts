// `orderflow keys`: create, list, revoke and re-plan API keys in the data directory's store,
// also while the server runs (it sees a change within one second).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PLANS, type KeyRecord } from '../../core/messages.js';
import { isKeyPrefix } from '../../persistence/keys.js';
import { parsePlan } from '../../core/plans.js';
import { parseRomeDate, romeDayKey } from '../../core/rome-time.js';
import { withKeyAdmin } from '../admin-keys.js';
import type { Command, CommandIo } from '../cli.js';
import { dataDirOf, parseOptions, runSubcommands, UsageError } from '../cli.js';

const labelCharsMax = 200;

const usage = `usage: orderflow keys <subcommand> [options]

  create --plan PLAN [--subscription-start YYYY-MM-DD] [--label L] [--json]
        Create a key and print it. The full key is shown this once and never stored.
        --json prints {"key","prefix","plan"}.
  list [--json] [--sessions] Every key: prefix, plan, status, created, subscription, label.
        Dashboard sessions' own keys (made at each sign-in, revoked with the session) are
        listed only with --sessions.
  revoke PREFIX              Revoke a key (PREFIX is ofk_ + 8 hex, as list shows it).
  set-plan PREFIX PLAN       Move a key to another plan.

Every subcommand accepts --data-dir DIR (default: ORDERFLOW_DATA_DIR, else ./data).
With ORDERFLOW_REDIS_URL set, the keys live in that Redis (scale-out, docs/scale-out.md).
Plans: ${PLANS.join(', ')} (any case).
The subscription start is a Europe/Rome calendar date, stored as 00:00 Rome on that day.
`;

const dataDirOption = { 'data-dir': { type: 'string' } } as const;

function planArgument(text: string | undefined, what: string) {
  if (text === undefined) throw new UsageError(`${what} is required (one of ${PLANS.join(', ')})`);
  const plan = parsePlan(text);
  if (!plan) throw new UsageError(`${what} must be one of ${PLANS.join(', ')} (was '${text}')`);
  return plan;
}

function prefixArgument(text: string | undefined): string {
  if (text === undefined) throw new UsageError('PREFIX is required (ofk_ + 8 hex, see keys list)');
  if (!isKeyPrefix(text)) {
    throw new UsageError(`PREFIX must be ofk_ followed by 8 lower-case hex characters ` +
      `(was '${text}')`);
  }
  return text;
}

async function create(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseOptions(argv, {
    ...dataDirOption, plan: { type: 'string' }, 'subscription-start': { type: 'string' },
    label: { type: 'string' }, json: { type: 'boolean' },
  });
  const plan = planArgument(values.plan, '--plan');
  let subscriptionStartMs: number | null = null;
  if (values['subscription-start'] !== undefined) {
    subscriptionStartMs = parseRomeDate(values['subscription-start']);
    if (subscriptionStartMs === null) {
      throw new UsageError('--subscription-start must be a calendar date YYYY-MM-DD ' +
        `(was '${values['subscription-start']}')`);
    }
  }
  const label = values.label ?? null;
  if (label !== null && (label.length > labelCharsMax || /[\u0000-\u001f]/.test(label))) {
    throw new UsageError(`--label must be at most ${labelCharsMax} printable characters ` +
      `(was ${label.length} characters)`);
  }
  const { key, record } = await withKeyAdmin(values['data-dir'], io,
    (keys) => keys.create({ plan, label, subscriptionStartMs }), true);
  if (values.json) {
    io.stdout(JSON.stringify({ key, prefix: record.prefix, plan: record.plan }) + '\n');
  } else {
    io.stdout(`${key}\n`);
    io.stderr(`created ${record.prefix} (plan ${record.plan}); the full key above is shown ` +
      'only this once\n');
  }
  return 0;
}

function recordJson(record: KeyRecord) {
  const start = record.subscriptionStartMs;
  return {
    prefix: record.prefix,
    plan: record.plan,
    label: record.label,
    subscriptionStart: start === null ? null : romeDayKey(start),
    subscriptionStartMs: start,
    createdAt: new Date(record.createdAtMs).toISOString(),
    revokedAt: record.revokedAtMs === null ? null : new Date(record.revokedAtMs).toISOString(),
  };
}

function formatTable(records: readonly KeyRecord[]): string {
  const header = ['PREFIX', 'PLAN', 'STATUS', 'CREATED', 'SUBSCRIPTION', 'LABEL'];
  const rows = records.map((record) => {
    const row = recordJson(record);
    return [row.prefix, row.plan, row.revokedAt === null ? 'active' : 'revoked',
      row.createdAt.slice(0, 19) + 'Z', row.subscriptionStart ?? '-', row.label ?? ''];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

/** A dashboard session's own key: the account it counts for is on its record. */
const isSessionKey = (record: KeyRecord) => record.sessionAccountId !== undefined;

async function list(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseOptions(argv, { ...dataDirOption, json: { type: 'boolean' },
    sessions: { type: 'boolean' } });
  const dataDir = dataDirOf(values['data-dir'], io);
  // Listing an existing data directory that has no store yet shows no keys and creates nothing.
  const stored = existsSync(dataDir) && !existsSync(join(dataDir, 'store')) &&
    !io.env.ORDERFLOW_REDIS_URL ? []
    : await withKeyAdmin(values['data-dir'], io, async (keys) => keys.list(), false);
  const records = values.sessions ? stored : stored.filter((record) => !isSessionKey(record));
  const hidden = stored.length - records.length;
  if (hidden > 0) {
    io.stderr(`${hidden} dashboard session key${hidden === 1 ? '' : 's'} not listed ` +
      '(--sessions lists them)\n');
  }
  if (values.json) io.stdout(JSON.stringify(records.map(recordJson)) + '\n');
  else if (records.length === 0) io.stdout('no keys yet (create one with: orderflow keys create ' +
    '--plan PLAN)\n');
  else io.stdout(formatTable(records));
  return 0;
}

async function revoke(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseOptions(argv, dataDirOption, true);
  if (positionals.length > 1) {
    throw new UsageError(`revoke takes one PREFIX (was ${positionals.length} arguments)`);
  }
  const prefix = prefixArgument(positionals[0]);
  const change = await withKeyAdmin(values['data-dir'], io,
    (keys) => keys.revoke(prefix), false);
  if (!change.ok) throw new UsageError(change.error.message, 1);
  const at = new Date(change.record.revokedAtMs ?? 0).toISOString();
  io.stdout(change.changed ? `revoked ${prefix}\n` : `${prefix} was already revoked at ${at}\n`);
  return 0;
}

async function setPlan(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseOptions(argv, dataDirOption, true);
  if (positionals.length > 2) {
    throw new UsageError(`set-plan takes PREFIX and PLAN (was ${positionals.length} arguments)`);
  }
  const prefix = prefixArgument(positionals[0]);
  const plan = planArgument(positionals[1], 'PLAN');
  const change = await withKeyAdmin(values['data-dir'], io,
    (keys) => keys.setPlan(prefix, plan), false);
  if (!change.ok) throw new UsageError(change.error.message, 1);
  io.stdout(change.changed ? `${prefix} is now on plan ${plan}\n`
    : `${prefix} was already on plan ${plan}\n`);
  return 0;
}

export const command: Command = {
  name: 'keys',
  summary: 'create, list, revoke and re-plan API keys',
  usage,
  run(argv, io) {
    return runSubcommands('keys', usage, argv, io, {
      create: (args) => create(args, io),
      list: (args) => list(args, io),
      revoke: (args) => revoke(args, io),
      'set-plan': (args) => setPlan(args, io),
    });
  },
};
