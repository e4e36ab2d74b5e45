// Webhook delivery bench: the supervisor (outbox write, sign, POST, record) against a bare loop
// of signed fetch POSTs to the same local receiver, in the same run, at the same concurrency.
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { systemClock } from '../core/clock.js';
import { limits } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import type { KeyDirectory } from '../core/messages.js';
import { createWebhookSupervisor } from '../actors/webhooks/supervisor.js';
import { printRows, quick as quickFlag, type ReportRow } from './harness.js';

const ENDPOINTS = 4;
const CONCURRENCY = ENDPOINTS * limits.webhookInFlightPerEndpointMax;
const SECRET = 'whsec_' + 'b'.repeat(43);

interface Receiver {
  readonly url: string;
  /** Resolves when the event id has been received; the value is hrtime in ns. */
  arrival(eventId: string): Promise<bigint>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrived = new Map<string, bigint>();
  const waiting = new Map<string, (ns: bigint) => void>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const ns = process.hrtime.bigint();
      const id = String(req.headers['x-service-event-id']);
      res.writeHead(204).end();
      const wake = waiting.get(id);
      if (wake) {
        waiting.delete(id);
        wake(ns);
      } else arrived.set(id, ns);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrival: (id) => {
      const ns = arrived.get(id);
      if (ns !== undefined) return Promise.resolve(ns);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function signedFetch(url: string, n: number): Promise<string> {
  const id = `evt_${n.toString(16).padStart(24, '0')}`;
  const body = JSON.stringify({ id, type: 'test', version: '1',
    created_at: new Date().toISOString(), data: { n } });
  const ts = Math.floor(Date.now() / 1000);
  const sig = createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex');
  const res = await fetch(url, { method: 'POST', body, headers: {
    'Content-Type': 'application/json', 'X-Service-Event': 'test', 'X-Service-Event-Id': id,
    'X-Service-Delivery': randomUUID(), 'X-Service-Attempt': '1',
    'X-Service-Timestamp': String(ts), 'X-Service-Signature': `v1=${sig}`,
  } });
  await res.arrayBuffer();
  return id;
}

/** Bare loop: CONCURRENCY workers POST `count` events; returns deliveries/s. */
async function bareRate(rx: Receiver, count: number, offset: number): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await signedFetch(rx.url, offset + next++);
  }));
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** One event at a time: ms from the event's creation to its receipt, sorted. */
async function bareLatencies(rx: Receiver, count: number, offset: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    const id = await signedFetch(rx.url, offset + i);
    out.push(Number((await rx.arrival(id)) - start) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

async function supervisorRun(rx: Receiver, count: number, latencyCount: number) {
  const dir = await mkdtemp(join(tmpdir(), 'orderflow-webhooks-bench-'));
  const root = open({ path: dir });
  const keys: KeyDirectory = {
    byDigest: () => undefined,
    byPrefix: (prefix) => ({ prefix, digest: '', plan: 'Whale', label: null,
      subscriptionStartMs: null, createdAtMs: 0, revokedAtMs: null }),
  };
  const sup = createWebhookSupervisor({
    root, clock: systemClock, logger: silentLogger, keys, allowPrivate: true,
  });
  try {
    const ids: string[] = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      ids.push((await sup.endpoints.add('ofk_00000001', `${rx.url}?e=${i}`)).id);
    }
    sup.start();
    const start = process.hrtime.bigint();
    const published = await Promise.all(Array.from({ length: count }, (_, i) =>
      sup.publish('test', { n: i }, [ids[i % ENDPOINTS]])));
    await Promise.all(published.map(({ eventId }) => rx.arrival(eventId)));
    const rate = count / (Number(process.hrtime.bigint() - start) / 1e9);
    const latencies: number[] = [];
    for (let i = 0; i < latencyCount; i++) {
      const t0 = process.hrtime.bigint();
      const { eventId } = await sup.publish('test', { i }, [ids[0]]);
      latencies.push(Number((await rx.arrival(eventId)) - t0) / 1e6);
    }
    await sup.idle();
    return { rate, latencies: latencies.sort((a, b) => a - b) };
  } finally {
    await sup.stop();
    await root.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const p99 = (sorted: readonly number[]) => sorted[Math.min(sorted.length - 1,
  Math.floor(sorted.length * 0.99))];

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const count = opts.quick ? 1_500 : 6_000;
  const latencyCount = opts.quick ? 150 : 500;
  const rx = await startReceiver();
  try {
    await bareRate(rx, 200, 10_000_000); // warm-up of fetch's connection pool
    const bare = await bareRate(rx, count, 0);
    const bareSorted = await bareLatencies(rx, latencyCount, 20_000_000);
    const bareLat = p99(bareSorted);
    const sup = await supervisorRun(rx, count, latencyCount);
    const supLat = p99(sup.latencies);
    const median = (sorted: readonly number[]) => sorted[Math.floor(sorted.length / 2)];
    const ratio = sup.rate / bare;
    return [
      { bench: 'webhooks', figure: `deliveries/s, outbox write included (${CONCURRENCY} in flight)`,
        value: sup.rate, unit: '/s', baseline: bare, ratio, target: '>= 0.70 of bare fetch loop',
        pass: ratio >= 0.7 },
      { bench: 'webhooks', figure: 'p99 event to receipt, one at a time', value: supLat,
        unit: 'ms', baseline: bareLat, ratio: supLat / bareLat, target: 'reported', pass: null },
      { bench: 'webhooks', figure: 'median event to receipt, one at a time',
        value: median(sup.latencies), unit: 'ms', baseline: median(bareSorted),
        ratio: median(sup.latencies) / median(bareSorted), target: 'reported', pass: null },
    ];
  } finally {
    await rx.close();
  }
}

if (process.argv[1]?.endsWith('webhooks.bench.ts')) {
  printRows(await run({ quick: quickFlag }));
}
