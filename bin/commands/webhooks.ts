// `orderflow webhooks`: register, list, rotate, test, inspect and replay webhook endpoints in the
// data directory, whether or not the server runs (a running server sees changes within ~1 s).
import type { RootDatabase } from 'lmdb';
import type { Command, CommandIo, OptionSpec } from '../cli.js';
import { UsageError, dataDirOf, parseOptions, runSubcommands } from '../cli.js';
import { adminClock } from '../admin.js';
import type { Clock } from '../../core/clock.js';
import { limits } from '../../core/config.js';
import type { KeyDirectory } from '../../core/messages.js';
import { createEndpointRegistry, type EndpointRegistry } from '../../actors/webhooks/endpoints.js';
import { prepareEvent, testEventData } from '../../actors/webhooks/envelope.js';
import { webhookErrors } from '../../actors/webhooks/errors.js';
import { replayEvent } from '../../actors/webhooks/replay.js';
import { systemLookup, type LookupFn } from '../../actors/webhooks/url-check.js';
import {
  enqueueEvent, openOutbox, pendingCount, recentDeliveries, type OutboxTables,
} from '../../persistence/outbox.js';
import {
  notifyChange, openEndpointTables, type EndpointTables,
} from '../../persistence/webhooks.js';
import { formatDeliveries, formatEndpoints } from './webhooks-format.js';
import { withKeyDirectory } from '../admin-keys.js';

/** What the command needs of the store (persistence/store.ts `openStore` gives more). */
export interface AdminStore {
  readonly root: RootDatabase;
  readonly keys: KeyDirectory;
  close(): Promise<void>;
}
export type OpenAdminStore = (options: { dataDir: string; clock: Clock }) => Promise<AdminStore>;

const openDefaultStore: OpenAdminStore = async (options) => {
  const { openStore } = await import('../../persistence/store.js');
  // An admin command never creates a data directory or store: a typo must not start a new one.
  return openStore({ ...options, createDataDir: false, createStore: false, watchKeys: false });
};

const usage = `usage: orderflow webhooks <subcommand> [options]

subcommands:
  add --key PREFIX --url URL [--json]   register an endpoint; prints its id and secret once
  list [--key PREFIX] [--json]          endpoints (never their secrets)
  rotate ID [--json]                    new secret, printed once; the old one signs for 24 h more
  test ID                               queue a test event to the endpoint
  deliveries ID [--limit N] [--json]    the endpoint's most recent deliveries
  replay EVENT_ID                       send a dead-lettered (or delivered) event again
  remove ID                             delete the endpoint; its pending deliveries are dropped
  enable ID                             re-enable an endpoint disabled by 410 or by failing

options:
  --data-dir D   data directory (default ORDERFLOW_DATA_DIR, else ./data)

URLs must be https and reach a public address unless ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS=1.
A running server picks up every change within about a second.
`;

interface Session {
  readonly registry: EndpointRegistry;
  readonly outbox: OutboxTables;
  readonly tables: EndpointTables;
  readonly clock: Clock;
}

export function createWebhooksCommand(
  open: OpenAdminStore = openDefaultStore, lookup: LookupFn = systemLookup,
): Command {
  return {
    name: 'webhooks',
    summary: 'register, rotate, test and replay webhook endpoints',
    usage,
    run: (argv, io) => runSubcommands('webhooks', usage, argv, io, {
      add: (args) => withSession(open, lookup, io, args, addSpec, false, (s, o) => add(s, o, io)),
      list: (args) => withSession(open, lookup, io, args, listSpec, false, (s, o) =>
        list(s, o, io)),
      rotate: (args) => withSession(open, lookup, io, args, idSpec, true, (s, o, id) =>
        rotate(s, o, id, io)),
      test: (args) => withSession(open, lookup, io, args, idSpec, true, (s, _o, id) =>
        sendTest(s, id, io)),
      deliveries: (args) => withSession(open, lookup, io, args, deliveriesSpec, true,
        (s, o, id) => deliveries(s, o, id, io)),
      replay: (args) => withSession(open, lookup, io, args, idSpec, true, (s, _o, id) =>
        replay(s, id, io)),
      remove: (args) => withSession(open, lookup, io, args, idSpec, true, async (s, _o, id) => {
        await s.registry.remove(id);
        io.stdout(`endpoint ${id} removed\n`);
      }),
      enable: (args) => withSession(open, lookup, io, args, idSpec, true, async (s, _o, id) => {
        s.registry.enable(id);
        io.stdout(`endpoint ${id} enabled\n`);
      }),
    }),
  };
}

export const command: Command = createWebhooksCommand();

const common = { 'data-dir': { type: 'string' }, json: { type: 'boolean' } } as const;
const addSpec = { ...common, key: { type: 'string' }, url: { type: 'string' } } as const;
const listSpec = { ...common, key: { type: 'string' } } as const;
const idSpec = { ...common } as const;
const deliveriesSpec = { ...common, limit: { type: 'string' } } as const;
type Values = Record<string, string | boolean | undefined>;

async function withSession(
  open: OpenAdminStore, lookup: LookupFn, io: CommandIo, args: readonly string[],
  spec: OptionSpec, needsId: boolean,
  body: (session: Session, values: Values, id: string) => Promise<void>,
): Promise<number> {
  const parsed = parseOptions(args, spec, true);
  const values = parsed.values as Values;
  const positionals = parsed.positionals;
  if (positionals.length > (needsId ? 1 : 0)) {
    throw new UsageError(`unexpected argument '${positionals[needsId ? 1 : 0]}'`);
  }
  if (needsId && positionals.length === 0) throw new UsageError('an ID argument is required');
  const dataDir = dataDirOf(values['data-dir'] as string | undefined, io);
  const clock = adminClock(io);
  const store = await open({ dataDir, clock });
  try {
    const tables = openEndpointTables(store.root);
    const outbox = openOutbox(store.root);
    const allowPrivate = io.env.ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS === '1';
    // With scale-out the keys are in Redis (docs/scale-out.md); the endpoints stay on ingest.
    await withKeyDirectory(io, store.keys, async (keys) => {
      const registry = createEndpointRegistry({
        tables, outbox, keys, clock, allowPrivate, lookup,
      });
      await body({ registry, outbox, tables, clock }, values, positionals[0] ?? '');
    });
    return 0;
  } finally {
    await store.close();
  }
}

async function add(s: Session, o: Values, io: CommandIo): Promise<void> {
  if (typeof o.key !== 'string') throw new UsageError('--key PREFIX is required');
  if (typeof o.url !== 'string') throw new UsageError('--url URL is required');
  const { id, secret } = await s.registry.add(o.key, o.url);
  const url = s.registry.get(id)?.url ?? o.url;
  if (o.json) io.stdout(JSON.stringify({ id, secret, url, accountId: o.key }) + '\n');
  else {
    io.stdout(`endpoint ${id} registered for ${o.key}\nurl     ${url}\nsecret  ${secret}\n` +
      'The secret is shown only now: store it where your receiver can read it.\n');
  }
}

async function list(s: Session, o: Values, io: CommandIo): Promise<void> {
  const rows = s.registry.list(typeof o.key === 'string' ? o.key : undefined);
  io.stdout(o.json ? JSON.stringify(rows) + '\n' : formatEndpoints(rows));
}

async function rotate(s: Session, o: Values, id: string, io: CommandIo): Promise<void> {
  const r = s.registry.rotate(id);
  const until = new Date(r.previousSecretExpiresAtMs).toISOString();
  if (o.json) io.stdout(JSON.stringify({ ...r, previousSecretExpiresAt: until }) + '\n');
  else {
    io.stdout(`endpoint ${id} rotated\nsecret  ${r.secret}\n` +
      `The old secret also signs until ${until}.\n`);
  }
}

async function sendTest(s: Session, id: string, io: CommandIo): Promise<void> {
  const endpoint = s.registry.get(id);
  if (endpoint === undefined) throw webhookErrors.notFound('endpoint id', id);
  if (endpoint.disabledAtMs !== null) {
    throw new UsageError(`endpoint ${id} is disabled (${endpoint.disabledReason}); ` +
      `run 'orderflow webhooks enable ${id}' first`, 1);
  }
  const pending = pendingCount(s.outbox);
  if (pending + 1 > limits.webhookOutboxMax) {
    throw webhookErrors.outboxFull(pending, limits.webhookOutboxMax);
  }
  // Due at 0, "as soon as possible": the server's clock may be shifted (--clock-start).
  const { event, deliveries } = prepareEvent('test', testEventData(id), [id], s.clock.nowMs(), 0);
  await enqueueEvent(s.outbox, event, deliveries);
  notifyChange(s.tables);
  io.stdout(`test event ${event.id} queued for ${id}; the running server delivers it\n`);
}

async function deliveries(s: Session, o: Values, id: string, io: CommandIo): Promise<void> {
  const limit = o.limit === undefined ? 20 : Number(o.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new UsageError(`--limit must be an integer from 1 to 1000 (was ${String(o.limit)})`);
  }
  if (s.registry.get(id) === undefined && recentDeliveries(s.outbox, id, 1).length === 0) {
    throw webhookErrors.notFound('endpoint id', id);
  }
  const rows = recentDeliveries(s.outbox, id, limit);
  io.stdout(o.json ? JSON.stringify(rows) + '\n' : formatDeliveries(rows));
}

async function replay(s: Session, eventId: string, io: CommandIo): Promise<void> {
  const active = (endpointId: string) => s.registry.get(endpointId)?.disabledAtMs === null;
  const result = await replayEvent(s.outbox, active, eventId, 0);
  notifyChange(s.tables);
  io.stdout(`event ${eventId} queued again for ${result.deliveries} endpoint(s): ` +
    `${result.endpointIds.join(', ')}\n`);
}
