// The propagation rounds of the scale-out bench (issue 22's target: ingest -> front p99 under
// 5 ms, the cadence on top). Measured from the moment ingest's publisher has a view's bytes (the
// sink's put, as the shards hand views over with their ETag) to the moment the front's store
// holds them (the next request is answered with them). The front is a process of its own
// (propagation-front.ts), as in a deployment; both sides read the machine's monotonic clock.
import { spawn } from 'node:child_process';
import { strongEtag } from '../../core/etag.js';
import { silentLogger } from '../../core/logger.js';
import { SnapshotStore, type ViewMeta } from '../../http/snapshots.js';
import { SnapshotPublisher } from '../../scale-out/publisher.js';
import { INGEST_NICE_DEFAULT, lowerCpuPriority } from '../../scale-out/cpu-priority.js';
import type { SharedState } from '../../scale-out/shared-state.js';
import type { ReportRow } from '../harness.js';
import { stopChild, tail, track } from './children.js';
import { monotonicMs, type Landed } from './propagation-front.js';
import { redisCpuUs } from './redis-cpu.js';
import { watchGcPauses, type GcPauses } from './gc-pauses.js';
import { sortedQuantile } from './quantile.js';

const bench = 'scale-out';
const frontScript = new URL('./propagation-front.ts', import.meta.url).pathname;
const frontStartMs = 30_000;
/** Views one cadence of tracked pairs and deep views refreshes at its worst. */
const viewsPerTurn = 300;

/** A pair view of about 2 KB, as the service serves it. */
export function pairBody(symbol: string, nowMs: number): Buffer {
  const updatedAt = new Date(nowMs).toISOString();
  return Buffer.from(JSON.stringify({ symbol, dex: '', price: 100, change24h: 1.5,
    volume24h: 1e8, openInterest: 5e7, fundingRate: 0.0000125, fundingAnnualized: 10.95,
    vpin: 0.4, vpinLevel: 'elevated', signalScore: 35, signalDirection: 'LONG',
    regime: 'trending', stale: false, asOf: updatedAt, updatedAt, cadenceMs: 1000,
    detail: 'x'.repeat(1500) }));
}

/**
 * The pair bodies of one turn, copied into one buffer from a template per view with its two
 * timestamps rewritten. Why: made with pairBody, each view left ~6 KB of garbage (its JSON) on
 * ingest's thread before the turn, whose scavenges then fell into the turns and were counted as
 * ingest's GC pauses; the shards make views on their own threads.
 */
function pairBodies(names: readonly string[]): (nowMs: number) => Buffer[] {
  const templateMs = Date.UTC(2026, 0, 1);
  const stamp = new Date(templateMs).toISOString();
  const templates = names.map((name) => pairBody(name, templateMs));
  const stampsAt = templates.map((t) => [t.indexOf(stamp), t.lastIndexOf(stamp)] as const);
  const totalBytes = templates.reduce((sum, t) => sum + t.byteLength, 0);
  return (nowMs) => {
    const iso = new Date(nowMs).toISOString();
    const slab = Buffer.allocUnsafe(totalBytes);
    let at = 0;
    return templates.map((template, i) => {
      template.copy(slab, at);
      for (const offset of stampsAt[i]!) slab.write(iso, at + offset, 'latin1');
      at += template.byteLength;
      return slab.subarray(at - template.byteLength, at);
    });
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface FrontProcess {
  /** What landed on the front since the last collect. */
  collect(): Promise<Landed>;
  stop(): Promise<void>;
}

async function startFront(redisUrl: string): Promise<FrontProcess> {
  const child = track(spawn(process.execPath, ['--import', 'tsx', frontScript, redisUrl],
    { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] }));
  const err = tail(16 * 1024);
  child.stderr!.on('data', (chunk: Buffer) => err.add(chunk));
  const next = <T>(): Promise<T> => new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bench's front did not answer within ` +
      `${frontStartMs} ms: ${err.text()}`)), frontStartMs);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as T);
    });
  });
  try {
    await next<{ ready: true }>();
  } catch (error) {
    await stopChild(child, 1_000);
    throw error;
  }
  return {
    collect() {
      const landed = next<Landed>();
      child.send('collect');
      return landed;
    },
    async stop() {
      child.send('stop');
      await stopChild(child);
    },
  };
}

interface Series {
  /** Put -> landed on the front, sorted (ms). */
  readonly delays: number[];
  /** CPU per view (µs) of ingest's puts and publishes, of redis-server and of the front. */
  readonly ingestCpuUs: number;
  readonly redisCpuUs: number;
  readonly frontCpuUs: number;
  /** GC pauses of ingest's (this process's) main thread and of the front's, in the series. */
  readonly ingestGc: GcPauses;
  readonly frontGc: GcPauses;
}

/** One put: the view's bytes (or how the bench makes them in the turn) and meta. */
interface Put { readonly name: string; readonly body: Buffer | (() => Buffer);
  readonly meta: ViewMeta }

/** The puts `make` returns for each round (made before it), each round in one turn `pauseMs`
 *  apart. In the turn the bench notes each put's time, and nothing else. */
async function series(front: FrontProcess, shared: SharedState, rounds: number, pauseMs: number,
  make: (round: number) => Put[], publisher: SnapshotPublisher,
  sink: ReturnType<SnapshotPublisher['sink']>): Promise<Series> {
  const index = new Map<string, number>();
  const putAtMs: number[] = [];
  let ingestCpuUs = 0;
  const redisBeforeUs = await redisCpuUs(shared);
  const hashBeforeUs = publisher.hashCpuUs;
  const gc = watchGcPauses();
  for (let round = 0; round < rounds; round++) {
    const puts = make(round);
    for (const { name, meta } of puts) index.set(`${name}@${meta.updatedAtMs}`, index.size);
    const cpuBefore = process.cpuUsage();
    for (const { name, body, meta } of puts) {
      const bytes = typeof body === 'function' ? body() : body;
      putAtMs.push(monotonicMs());
      sink.put(name, bytes, meta);
    }
    // The publisher's flush at the turn's end, and a client's own deferred write, are ingest's
    // CPU for these views too.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    const cpu = process.cpuUsage(cpuBefore);
    ingestCpuUs += cpu.user + cpu.system;
    await sleep(pauseMs);
  }
  await sleep(300);
  // The hash's writes (a timer's, outside the turns) are ingest's CPU for these views too.
  ingestCpuUs += publisher.hashCpuUs - hashBeforeUs;
  const serverUs = await redisCpuUs(shared) - redisBeforeUs;
  const ingestGc = gc.take();
  gc.stop();
  const landed = await front.collect();
  const delays: number[] = [];
  for (const [name, updatedAtMs, atMs] of landed.views) {
    const at = index.get(`${name}@${updatedAtMs}`);
    if (at !== undefined) delays.push(atMs - putAtMs[at]!);
  }
  if (delays.length < index.size * 0.99) {
    throw new Error(`only ${delays.length} of ${index.size} views reached the front`);
  }
  delays.sort((a, b) => a - b);
  return { delays, ingestCpuUs: ingestCpuUs / index.size, redisCpuUs: serverUs / index.size,
    frontCpuUs: landed.cpuPerViewUs, ingestGc, frontGc: landed.gc };
}

/** Increasing updatedAtMs stamps: each put's key on both sides. */
function stamps(): () => number {
  let lastMs = 0;
  return () => (lastMs = Math.max(Date.now(), lastMs + 1));
}

export async function propagation(shared: SharedState, redisUrl: string, cadences: number):
  Promise<ReportRow[]> {
  const front = await startFront(redisUrl);
  // This process is ingest here, so it runs at ingest's default priority as `--role ingest`
  // does (docs/scale-out.md, "CPU priority"); lowered after the front and Redis started, which
  // keep theirs (a child inherits its parent's).
  lowerCpuPriority(INGEST_NICE_DEFAULT);
  const publisher = new SnapshotPublisher(shared.link, silentLogger);
  const sink = publisher.sink(new SnapshotStore());
  // Started as on ingest: the hash written on its timer, the heartbeat.
  publisher.start();
  const nextMs = stamps();
  const meta = (round: number, updatedAtMs: number, etag?: string): ViewMeta =>
    ({ version: round + 1, updatedAtMs, cadenceMs: 1000, etag });
  try {
    // One view at a time: the hand-over itself (a shard's pair publishing on its own).
    const single = await series(front, shared, cadences * 20, 5, (round) => {
      const nowMs = nextMs();
      const body = pairBody('BTC', nowMs);
      return [{ name: 'pair/BTC', body, meta: meta(round, nowMs, strongEtag(body)) }];
    }, publisher, sink);
    // A whole cadence of views in one turn, their bytes and ETags made before the turn, as the
    // shards make them on their own threads (and with little garbage: pairBodies).
    const names = Array.from({ length: viewsPerTurn }, (_, i) => `pair/SYM${i}`);
    const bodies = pairBodies(names);
    const burst = await series(front, shared, cadences, 200, (round) => {
      const nowMs = nextMs();
      return bodies(nowMs).map((body, i) =>
        ({ name: names[i]!, body, meta: meta(round, nowMs, strongEtag(body)) }));
    }, publisher, sink);
    // Context: the same turn with the bench encoding each body on ingest's thread between puts
    // and the store hashing it (so earlier views wait for that work too).
    const encoded = Array.from({ length: viewsPerTurn }, (_, i) => `pair/ENC${i}`);
    const inTurn = await series(front, shared, cadences, 200, (round) => {
      const nowMs = nextMs();
      return encoded.map((name) => ({ name, body: () => pairBody(name, nowMs),
        meta: meta(round, nowMs) }));
    }, publisher, sink);
    const at = sortedQuantile;
    const row = (figure: string, value: number, target: string, pass: boolean | null,
      unit = 'ms'): ReportRow =>
      ({ bench, figure, value, unit, baseline: null, ratio: null, target, pass });
    return [
      row('snapshot ingest -> front p50, one view at a time', at(single.delays, 0.5), '-', null),
      row('snapshot ingest -> front p99, one view at a time (plus the cadence)',
        at(single.delays, 0.99), '< 5 ms', at(single.delays, 0.99) < 5),
      row('snapshot ingest -> front p50, 300 views in one turn', at(burst.delays, 0.5), '-',
        null),
      row('snapshot ingest -> front p99, 300 views in one turn (plus the cadence)',
        at(burst.delays, 0.99), '< 5 ms', at(burst.delays, 0.99) < 5),
      row('snapshot put -> front p99, 300 views in one turn', at(inTurn.delays, 0.99), '-',
        null),
      row('ingest CPU per put view, 300 views in one turn', burst.ingestCpuUs, '-', null, 'us'),
      row('redis-server CPU per view, 300 views in one turn', burst.redisCpuUs, '-', null,
        'us'),
      row('front CPU per applied view, 300 views in one turn', burst.frontCpuUs, '-', null,
        'us'),
      // Context for the tail: a pause on either side holds every view waiting on that thread.
      row('ingest GC pause max, 300 views in one turn', burst.ingestGc.maxMs, '-', null),
      row('ingest GC pauses in all, 300 views in one turn', burst.ingestGc.totalMs, '-', null),
      row('front GC pause max, 300 views in one turn', burst.frontGc.maxMs, '-', null),
    ];
  } finally {
    publisher.stop();
    await front.stop();
  }
}
