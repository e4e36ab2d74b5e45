// Test helpers for the webhook tests: a temporary lmdb, a key directory, real HTTP receivers
// on loopback, and an independent signature check (WebCrypto, not the code under test).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webcrypto } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { open, type RootDatabase } from 'lmdb';
import type { KeyDirectory, KeyRecord, Plan } from '../../core/messages.js';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import {
  createWebhookSupervisor, type WebhookSupervisor, type WebhookSupervisorDeps,
} from '../../actors/webhooks/supervisor.js';
import { tempDir } from '../helpers/eventually.js';

export async function openTestRoot(): Promise<{ root: RootDatabase; dir: string;
  close(): Promise<void> }> {
  const dir = await tempDir('orderflow-webhooks-');
  const root = open({ path: dir });
  return {
    root, dir,
    async close() {
      await root.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function keyRecord(prefix: string, plan: Plan): KeyRecord {
  return {
    prefix, digest: prefix.padEnd(64, '0'), plan, label: null, subscriptionStartMs: null,
    createdAtMs: 0, revokedAtMs: null,
  };
}

/** A mutable key directory: tests change plans and revoke keys through the map. */
export function fakeKeys(entries: Record<string, Plan>): KeyDirectory & {
  records: Map<string, KeyRecord>;
} {
  const records = new Map(Object.entries(entries).map(([p, plan]) => [p, keyRecord(p, plan)]));
  return {
    records,
    byPrefix: (prefix) => records.get(prefix),
    byDigest: (digest) => [...records.values()].find((r) => r.digest === digest),
  };
}

export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly path: string;
}

/** What the receiver does with request number n (0-based): answer, or hang until closed. */
export type Reply = { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  close(): Promise<void>;
}

export async function startReceiver(reply: (n: number, r: Received) => Reply = () => ({
  status: 200,
})): Promise<Receiver> {
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { body += c; });
    req.on('end', () => {
      const r = { headers: req.headers, body, path: req.url ?? '' };
      received.push(r);
      const answer = reply(received.length - 1, r);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`, port, received,
    close: () => new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Independent HMAC-SHA256 (WebCrypto) of `<timestamp>.<body>` keyed by the secret's UTF-8. */
export async function hmacHex(secret: string, timestamp: string, body: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await webcrypto.subtle.importKey('raw', enc.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await webcrypto.subtle.sign('HMAC', key, enc.encode(`${timestamp}.${body}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The signature header's entries that match one of the secrets. */
export async function matchingEntries(r: Received, secrets: readonly string[]): Promise<number> {
  const header = String(r.headers['x-service-signature'] ?? '');
  const timestamp = String(r.headers['x-service-timestamp'] ?? '');
  const expected = await Promise.all(secrets.map((s) => hmacHex(s, timestamp, r.body)));
  return header.split(',').filter((e) => expected.some((x) => e === `v1=${x}`)).length;
}

export interface Harness {
  readonly clock: ManualClock;
  readonly sup: WebhookSupervisor;
  readonly rx: Receiver;
  readonly endpointId: string;
  readonly secret: string;
  readonly root: RootDatabase;
  readonly keys: ReturnType<typeof fakeKeys>;
  /** Publishes a test event and waits until its first attempt is recorded. */
  publish(data?: Record<string, unknown>): Promise<string>;
  /** Moves the delivery clock, runs due work and waits until it is recorded. */
  travel(ms: number): Promise<void>;
  close(): Promise<void>;
}

export const T0 = Date.parse('2026-10-01T00:00:00.000Z');

export async function startHarness(options: {
  reply?: (n: number, r: Received) => Reply;
  overrides?: Partial<WebhookSupervisorDeps>;
} = {}): Promise<Harness> {
  const db = await openTestRoot();
  const rx = await startReceiver(options.reply);
  const clock = new ManualClock(T0);
  const keys = fakeKeys({ ofk_aaaaaaaa: 'Pro' });
  const sup = createWebhookSupervisor({
    root: db.root, clock, logger: silentLogger, keys, allowPrivate: true, random: () => 0,
    pollIntervalMs: 50, stopGraceMs: 100, ...options.overrides,
  });
  const { id, secret } = await sup.endpoints.add('ofk_aaaaaaaa', rx.url);
  sup.start();
  return {
    clock, sup, rx, endpointId: id, secret, root: db.root, keys,
    async publish(data = { n: 1 }) {
      const { eventId } = await sup.publish('test', data, [id]);
      await sup.idle();
      return eventId;
    },
    async travel(ms) {
      clock.advance(ms);
      await sup.tick();
      await sup.idle();
    },
    async close() {
      await sup.stop();
      await rx.close();
      await db.close();
    },
  };
}

/** A loopback port with nothing listening on it (connection refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
