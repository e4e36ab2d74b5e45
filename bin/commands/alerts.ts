// `orderflow alerts`: add, list and remove alerts in the data directory's store, also while the
// server runs (it re-reads the alerts table when its change counter moves).
import { type KeyRecord } from '../../core/messages.js';
import {
  ENTRY_SIGNAL_PLAN_MIN, flatAlertFields, parseAlertSpec, planAtLeast, validateWebhookUrl,
  type AlertRecord,
} from '../../actors/signals/alerts.js';
import { ALERT_ID, newAlertId, openAlertStore } from '../../persistence/alerts.js';
import { isKeyPrefix } from '../../persistence/keys.js';
import { withKeyDirectory } from '../admin-keys.js';
import { withAdminStore } from '../admin.js';
import type { Command, CommandIo } from '../cli.js';
import { parseOptions, runSubcommands, UsageError } from '../cli.js';

const usage = `usage: orderflow alerts <subcommand> [options]

  add --key PREFIX --kind KIND --webhook URL [kind options] [--cooldown D] [--json]
        Add an alert owned by the key's account. The webhook URL must be a registered
        endpoint of the same account (orderflow webhooks add) to be delivered.
  list [--key PREFIX] [--json]   Every alert, or one key's.
  remove ID                      Remove an alert (alr_ + 16 hex, as list shows it).

Kinds and their options:
  entry_signal  [--symbols all|BTC,ETH,...] [--timeframes 5m,15m,1h] [--min-grade A+|A|B|C|D]
                Follows entry_signal.created; Pro plan or above. Defaults: all, all three, B.
  price         --symbol S --level N --direction above|below
  screener      --symbol S|all --field F (--above X | --below X); cooldown default 1h.
                F: price, change24h, volume24h, openInterest, fundingRate, fundingAnnualized
  sweep         --symbol S --level N --side high|low [--timeframe 5m|15m|1h]
  delta_flip    --symbol S [--timeframe 5m] [--window BARS (3)] [--direction any|up|down]
  drawing       --symbol S --point1 ISO,PRICE --point2 ISO,PRICE [--direction any|above|below]
  --cooldown D  minimum market time between two firings: 90s, 15m, 1h, 1d (default 0).

Every subcommand accepts --data-dir DIR (default: ORDERFLOW_DATA_DIR, else ./data).
Webhook URLs must be https on a public host unless ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS=1.
See docs/signals.md for what each kind watches and when it fires.
`;

const addOptions = {
  'data-dir': { type: 'string' }, key: { type: 'string' }, kind: { type: 'string' },
  webhook: { type: 'string' }, json: { type: 'boolean' }, cooldown: { type: 'string' },
  symbols: { type: 'string' }, timeframes: { type: 'string' }, 'min-grade': { type: 'string' },
  symbol: { type: 'string' }, level: { type: 'string' }, direction: { type: 'string' },
  field: { type: 'string' }, above: { type: 'string' }, below: { type: 'string' },
  side: { type: 'string' }, timeframe: { type: 'string' }, window: { type: 'string' },
  point1: { type: 'string' }, point2: { type: 'string' },
} as const;

function prefixOf(text: string | undefined): string {
  if (text === undefined) throw new UsageError('--key is required (ofk_ + 8 hex, see keys list)');
  if (!isKeyPrefix(text)) {
    throw new UsageError(`--key must be ofk_ followed by 8 lower-case hex characters ` +
      `(was '${text}')`);
  }
  return text;
}

/** The key must exist and be live; entry-signal alerts need Pro or above. */
function checkKey(record: KeyRecord | undefined, prefix: string, kind: string): void {
  if (record === undefined) {
    throw new UsageError(`no key has the prefix ${prefix} (expected a prefix shown by ` +
      `'orderflow keys list')`, 1);
  }
  if (record.revokedAtMs !== null) throw new UsageError(`key ${prefix} is revoked`, 1);
  if (kind === 'entry_signal' && !planAtLeast(record.plan, ENTRY_SIGNAL_PLAN_MIN)) {
    throw new UsageError(`entry_signal alerts need the ${ENTRY_SIGNAL_PLAN_MIN} plan or above ` +
      `(key ${prefix} was on ${record.plan})`, 1);
  }
}

async function add(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseOptions(argv, addOptions);
  const keyPrefix = prefixOf(values.key);
  if (values.kind === undefined) throw new UsageError('--kind is required (see --help)');
  if (values.webhook === undefined) throw new UsageError('--webhook is required (an https URL)');
  const url = validateWebhookUrl(values.webhook, io.env.ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS === '1');
  if (!url.ok) throw new UsageError(`--${url.error}`);
  const { json, ...text } = values;
  const parsed = parseAlertSpec(values.kind, { ...text, minGrade: values['min-grade'] });
  if (!parsed.ok) throw new UsageError(`--${parsed.error}`);
  return withAdminStore(values['data-dir'], io, async (store, clock) => {
    const key = await withKeyDirectory(io, store.keys, async (keys) => keys.byPrefix(keyPrefix));
    checkKey(key, keyPrefix, values.kind as string);
    const alert = {
      id: newAlertId(), keyPrefix, webhookUrl: url.value, cooldownMs: parsed.value.cooldownMs,
      createdAtMs: clock.nowMs(), ...parsed.value.spec,
    } as AlertRecord;
    const result = await openAlertStore<AlertRecord>(store.root).add(alert);
    if (!result.ok) throw new UsageError(result.error, 1);
    if (json) io.stdout(JSON.stringify(alert) + '\n');
    else io.stdout(`${alert.id} ${alert.kind} added for ${keyPrefix} -> ${alert.webhookUrl}\n`);
    return 0;
  });
}

function describe(alert: AlertRecord): string {
  const { alert_id: _id, alert_kind: _kind, cooldown_ms: cooldownMs, ...rest } =
    flatAlertFields(alert);
  const options = Object.entries(rest).map(([name, value]) => `${name}=${value}`).join(' ');
  return `${alert.id}  ${alert.keyPrefix}  ${alert.kind.padEnd(12)} ${options}` +
    `${cooldownMs ? ` cooldown_ms=${cooldownMs}` : ''}  ${alert.webhookUrl}`;
}

async function list(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseOptions(argv, {
    'data-dir': { type: 'string' }, key: { type: 'string' }, json: { type: 'boolean' },
  });
  const keyPrefix = values.key === undefined ? undefined : prefixOf(values.key);
  return withAdminStore(values['data-dir'], io, async (store) => {
    const alerts = openAlertStore<AlertRecord>(store.root).list(keyPrefix);
    if (values.json) io.stdout(JSON.stringify(alerts) + '\n');
    else if (alerts.length === 0) io.stdout('no alerts\n');
    else io.stdout(alerts.map(describe).join('\n') + '\n');
    return 0;
  });
}

async function remove(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseOptions(argv, { 'data-dir': { type: 'string' } }, true);
  if (positionals.length !== 1) {
    throw new UsageError(`remove takes one ID (was ${positionals.length} arguments)`);
  }
  const id = positionals[0];
  if (!ALERT_ID.test(id)) {
    throw new UsageError(`ID must be alr_ followed by 16 lower-case hex characters (was '${id}')`);
  }
  return withAdminStore(values['data-dir'], io, async (store) => {
    const existed = await openAlertStore(store.root).remove(id);
    if (!existed) throw new UsageError(`no alert has the id ${id}`, 1);
    io.stdout(`${id} removed\n`);
    return 0;
  });
}

export const command: Command = {
  name: 'alerts',
  summary: 'add, list and remove alerts',
  usage,
  run(argv, io) {
    return runSubcommands('alerts', usage, argv, io, {
      add: (args) => add(args, io),
      list: (args) => list(args, io),
      remove: (args) => remove(args, io),
    });
  },
};
