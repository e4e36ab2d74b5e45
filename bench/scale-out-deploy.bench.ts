// Snapshot propagation in a real deployment on this machine: redis-server, `orderflow serve
// --role ingest` on the simulator with its default warm-up (and its default CPU priority, nice
// 10), and one `--role front`, each a process of its own, as docs/scale-out.md deploys them. The
// window starts once the new front has copied ingest's history. The front's propagation histogram
// (its /metrics: from each view's put on ingest to the front holding it) is read before and
// after a window of the running feed; the quantiles are taken from the window's buckets with
// linear interpolation inside a bucket, as Prometheus's histogram_quantile does. Issue 22's
// target: p99 under 5 ms (the cadence on top). Beside it, how long the front's and Redis's main
// threads and ingest's threads waited for a core over the window (lib/run-queue.ts): on two
// cores shared with ingest's bursts most of the tail is that wait. The synthetic rounds (one
// view at a time, 300 views in one turn) are in scale-out.bench.ts.
import { getText } from './lib/http-get.js';
import {
  removeDir, startService, tempDataDir, waitReady, type ServiceChild,
} from './lib/service.js';
import { printRows, quick, type ReportRow } from './harness.js';
import { readyLink, startRedisServer } from '../test/helpers/redis-server.js';
import {
  mainThreadRunQueue, processRunQueue, runQueueWindow, type RunQueueSample,
} from './lib/run-queue.js';
import { startPubSubHop } from './lib/pubsub-hop.js';
import { sortedQuantile } from './lib/quantile.js';
import { cpuTicks, stealPercent } from './lib/machine.js';
import { useRealtimeScheduling } from '../scale-out/cpu-priority.js';

const bench = 'scale-out-deploy';
const propagationMetric = 'orderflow_snapshot_propagation_seconds';
const transitMetric = 'orderflow_snapshot_transit_seconds';

/** Cumulative bucket counts by upper bound in ms (Infinity for +Inf). */
type Buckets = Map<number, number>;

/** The front's /metrics text. */
async function scrape(front: ServiceChild): Promise<string> {
  const { status, body } = await getText(`${front.baseUrl}/metrics`, {});
  if (status !== 200) throw new Error(`the front's /metrics answered ${status}`);
  return body;
}

function bucketsOf(body: string, metricName: string): Buckets {
  const buckets: Buckets = new Map();
  const line = new RegExp(`^${metricName}_bucket\\{le="([^"]+)"\\} (\\S+)$`, 'gm');
  for (const [, le, value] of body.matchAll(line)) {
    buckets.set(le === '+Inf' ? Infinity : Number(le) * 1000, Number(value));
  }
  if (buckets.size === 0) throw new Error(`no ${metricName} on the front's /metrics`);
  return buckets;
}

/** The q-quantile (ms) of the observations between two scrapes. */
export function quantileMs(before: Buckets, after: Buckets, q: number): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  if (total <= 0) return NaN;
  const rank = q * total;
  let lowerMs = 0;
  let below = 0;
  for (const bound of bounds) {
    const count = after.get(bound)! - (before.get(bound) ?? 0);
    if (count >= rank) {
      // Past the last finite bound there is nothing to interpolate to: its bound, a floor.
      if (bound === Infinity) return lowerMs;
      return lowerMs + (bound - lowerMs) * ((rank - below) / Math.max(1, count - below));
    }
    lowerMs = bound;
    below = count;
  }
  return lowerMs;
}

/** The bare hop's message period: 50 a second (at 200, Redis woke 4x as often). */
const hopEveryMs = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a new front may take to start copying ingest's history (it asks at its first read
 *  of the stream, right after it starts), and to finish the copy. */
const copyStartWaitMs = 10_000;
const copyWaitMs = 180_000;

/**
 * Waits for a new front's copy of ingest's history (docs/scale-out.md, "History on the fronts"):
 * part of its start-up, not its steady state. With the simulator's 168 h warm-up the stream keeps
 * only the last 24 h, so the front copies the rest (~68,000 points, 30-40 s on this machine while
 * the feed runs), and views published meanwhile wait behind the chunks' writes. `/readyz` names
 * the missing range while the copy runs. Returns the ms from the call to the copy's end.
 */
async function historyCopied(front: ServiceChild): Promise<number> {
  const startMs = Date.now();
  let seen = false;
  for (;;) {
    const { status, body } = await getText(`${front.baseUrl}/readyz`, {});
    const copying = status === 200 &&
      (JSON.parse(body) as { detail?: { history?: string } }).detail?.history !== undefined;
    seen ||= copying;
    const elapsedMs = Date.now() - startMs;
    if (!copying && (seen || elapsedMs > copyStartWaitMs)) return elapsedMs;
    if (elapsedMs > copyWaitMs) throw new Error('the front\'s history copy did not end');
    await sleep(250);
  }
}

/**
 * Seconds between the end of the front's history copy and the window (`--settle-s N`). The
 * copy ends 30-40 s after the front's start, past the rest of the start-up's backlog (the
 * warm-up's past written to the stores and the history stream, 10-17 s at load 4-6;
 * bench/README.md), so a few seconds are enough. Before session 8 the window began 20 s after
 * the front's /readyz, which was inside the copy.
 */
const defaultSettleS = 3;

function settleArg(): number {
  const at = process.argv.indexOf('--settle-s');
  const value = at < 0 ? defaultSettleS : Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error('--settle-s needs seconds');
  return value * 1000;
}

export async function run(opts: { quick: boolean; settleMs?: number }): Promise<ReportRow[]> {
  const windowMs = opts.quick ? 15_000 : 60_000;
  const settleMs = opts.settleMs ?? defaultSettleS * 1000;
  const redis = await startRedisServer();
  const dirs = [await tempDataDir('deploy-ingest'), await tempDataDir('deploy-front')];
  const env = { ORDERFLOW_REDIS_URL: redis.url };
  const started: ServiceChild[] = [];
  try {
    const ingest = await startService({ dataDir: dirs[0]!, env,
      args: ['--role', 'ingest', '--limits', 'off'] });
    started.push(ingest);
    await waitReady(ingest.baseUrl, 120_000);
    const front = await startService({ dataDir: dirs[1]!, env,
      args: ['--role', 'front', '--limits', 'off'] });
    started.push(front);
    await waitReady(front.baseUrl, 60_000);
    // The front's start-up (its history copy, the warm-up's backlog) ends first.
    const copyMs = await historyCopied(front);
    await sleep(settleMs);
    // What Redis receives and sends (the snapshot channel, the hash, history; patches:
    // docs/scale-out.md), from Redis's own count: a listener of the bench's would be one more
    // consumer on the two cores.
    const counter = await readyLink(redis.url, []);
    const netBytes = async () => {
      const stats = await counter.command.info('stats');
      const count = (name: string) => Number(new RegExp(`${name}:(\\d+)`).exec(stats)?.[1]);
      return { in: count('total_net_input_bytes'), out: count('total_net_output_bytes') };
    };
    const redisPid = Number(/process_id:(\d+)/.exec(await counter.command.info('server'))?.[1]);
    // How long each process waited for a core (lib/run-queue.ts): the tail that is the
    // machine's. Ingest's threads at nice 10 are meant to wait; the front and Redis are not.
    const queues = (): (RunQueueSample | null)[] => [mainThreadRunQueue(front.pid),
      mainThreadRunQueue(redisPid), processRunQueue(ingest.pid)];
    const measure = async () => {
      // The floor: a bare pub/sub hop through the same Redis in the same window, a patch's size
      // (lib/pubsub-hop.ts), light enough not to move the figures it is a floor for.
      const hop = await startPubSubHop(redis.url, { everyMs: hopEveryMs, bytes: 1024 });
      const first = await scrape(front);
      const netFrom = await netBytes();
      const queuesFrom = queues();
      const ticksFrom = cpuTicks();
      await sleep(windowMs);
      const steal = stealPercent(ticksFrom, cpuTicks());
      const queuesTo = queues();
      const last = await scrape(front);
      const hopMs = await hop.stop();
      const netTo = await netBytes();
      const [frontQueue, redisQueue, ingestQueue] = queuesFrom.map((from, i) =>
        runQueueWindow(from, queuesTo[i]!, windowMs));
      const before = bucketsOf(first, propagationMetric);
      const after = bucketsOf(last, propagationMetric);
      return {
        steal, hopMs, netFrom, netTo, frontQueue: frontQueue!, redisQueue: redisQueue!,
        ingestQueue: ingestQueue!,
        propagation: (q: number) => quantileMs(before, after, q),
        transit: (q: number) => quantileMs(bucketsOf(first, transitMetric),
          bucketsOf(last, transitMetric), q),
        views: (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0),
      };
    };
    const fair = await measure();
    // The latency profile (docs/scale-out.md): Redis and the front at SCHED_RR 1, as
    // `chrt -r 1 redis-server` and `serve --role front --realtime` run them (the flag makes the
    // same call on its own process at start); then a second window of the same deployment.
    let realtime: Awaited<ReturnType<typeof measure>> | null = null;
    try {
      useRealtimeScheduling(redisPid);
      useRealtimeScheduling(front.pid);
      realtime = await measure();
    } catch (error) {
      process.stderr.write(`scale-out-deploy: no real-time window: ${(error as Error).message}\n`);
    }
    await counter.close();
    const perS = (bytes: number) => bytes / (windowMs / 1000) / 1024;
    const row = (figure: string, value: number, unit: string, target = '-',
      pass: boolean | null = null): ReportRow =>
      ({ bench, figure, value, unit, baseline: null, ratio: null, target, pass });
    const target = (figure: string, m: typeof fair | null): ReportRow => {
      const p99 = m?.propagation(0.99) ?? NaN;
      const hopP99 = m === null ? NaN : sortedQuantile(m.hopMs, 0.99);
      return { ...row(figure, p99, 'ms', '< 5 ms', p99 < 5), baseline: hopP99,
        ratio: p99 / hopP99 };
    };
    const rt = realtime;
    return [
      row('snapshot ingest -> front p50, running deployment (sim ingest, one front, Redis)',
        fair.propagation(0.5), 'ms'),
      target('snapshot ingest -> front p99, running deployment (plus the cadence); baseline: ' +
        'a bare pub/sub hop in the same window', fair),
      row('snapshot ingest -> front p99.9, running deployment', fair.propagation(0.999), 'ms'),
      // Where the time goes: from the view's batch leaving ingest (Redis and the front); the
      // rest is the view waiting in ingest's turn for its batch to leave.
      row('batch leaving ingest -> front p50, running deployment', fair.transit(0.5), 'ms'),
      row('batch leaving ingest -> front p99, running deployment', fair.transit(0.99), 'ms'),
      row('views applied by the front per second, running deployment',
        fair.views / (windowMs / 1000), 'views/s'),
      row('redis-server bytes out per second (snapshot channel, history reads), running ' +
        'deployment', perS(fair.netTo.out - fair.netFrom.out), 'KB/s'),
      row('redis-server bytes in per second (publishes, the snapshot hash, history), running ' +
        'deployment', perS(fair.netTo.in - fair.netFrom.in), 'KB/s'),
      row('new front: /readyz -> history copy from ingest done (168 h warm-up)', copyMs / 1000,
        's'),
      row('bare pub/sub hop p50 (a publisher process -> the same redis-server -> the bench), ' +
        `same window, 1 KB every ${hopEveryMs} ms`, sortedQuantile(fair.hopMs, 0.5), 'ms'),
      row('bare pub/sub hop p99, same window', sortedQuantile(fair.hopMs, 0.99), 'ms'),
      row('bare pub/sub hop p99.9, same window', sortedQuantile(fair.hopMs, 0.999), 'ms'),
      row('CPU time the hypervisor took for other guests (steal), window', fair.steal ?? NaN, '%'),
      row('front main thread: waiting for a core (run queue), running deployment',
        fair.frontQueue.waitMsPerS, 'ms/s'),
      row('front main thread: mean wait for a core each time it got one, running deployment',
        fair.frontQueue.waitPerSliceUs, 'us'),
      row('front main thread: on a core, running deployment', fair.frontQueue.runMsPerS, 'ms/s'),
      row('redis-server: waiting for a core (run queue), running deployment',
        fair.redisQueue.waitMsPerS, 'ms/s'),
      row('redis-server: mean wait for a core each time it got one, running deployment',
        fair.redisQueue.waitPerSliceUs, 'us'),
      row('ingest, all threads (nice 10): waiting for a core, running deployment',
        fair.ingestQueue.waitMsPerS, 'ms/s'),
      row('ingest, all threads: on a core, running deployment', fair.ingestQueue.runMsPerS,
        'ms/s'),
      row('latency profile (Redis and the front at SCHED_RR 1, front --realtime): snapshot ' +
        'ingest -> front p50', rt?.propagation(0.5) ?? NaN, 'ms'),
      target('latency profile: snapshot ingest -> front p99 (plus the cadence); baseline: a ' +
        'bare pub/sub hop in the same window', rt),
      row('latency profile: snapshot ingest -> front p99.9', rt?.propagation(0.999) ?? NaN, 'ms'),
      row('latency profile: front main thread waiting for a core', rt?.frontQueue.waitMsPerS ??
        NaN, 'ms/s'),
      row('latency profile: redis-server waiting for a core', rt?.redisQueue.waitMsPerS ?? NaN,
        'ms/s'),
      row('latency profile: ingest, all threads, on a core', rt?.ingestQueue.runMsPerS ?? NaN,
        'ms/s'),
    ];
  } finally {
    for (const child of started) await child.stop();
    await redis.stop();
    for (const dir of dirs) await removeDir(dir);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run({ quick, settleMs: settleArg() }).then((rows) => {
    printRows(rows);
    process.exit(0);
  }, (error: Error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  });
}
