// Snapshot propagation in a real deployment on this machine: redis-server, `orderflow serve
// --role ingest` on the simulator with its default warm-up, and one `--role front`, each a
// process of its own, as docs/scale-out.md deploys them. The front's own propagation histogram
// (its /metrics: from each view's put on ingest to the front holding it) is read before and
// after a window of the running feed; the quantiles are taken from the window's buckets with
// linear interpolation inside a bucket, as Prometheus's histogram_quantile does. Issue 22's
// target: p99 under 5 ms (the cadence on top). The synthetic rounds (one view at a time, 300
// views in one turn) are in scale-out.bench.ts.
import { getText } from './lib/http-get.js';
import {
  removeDir, startService, tempDataDir, waitReady, type ServiceChild,
} from './lib/service.js';
import { printRows, quick, type ReportRow } from './harness.js';
import { startRedisServer } from '../test/helpers/redis-server.js';

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Seconds between the front's /readyz and the window (`--settle-s N`). Why 20: ingest's main
 * thread and the front were still busy with the start-up's backlog (the warm-up's past written
 * to the stores and the history stream) 10-17 s after the front started at load 4-6, and a
 * window from 5 s read p99s of 230-400 ms where windows from 25 s read 23-90 ms
 * (bench/README.md). `--settle-s 5` gives the window the report had before.
 */
const defaultSettleS = 20;

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
    // The start-up's backlog (the warm-up's past written to the stores) settles first.
    await sleep(settleMs);
    const first = await scrape(front);
    await sleep(windowMs);
    const last = await scrape(front);
    const before = bucketsOf(first, propagationMetric);
    const after = bucketsOf(last, propagationMetric);
    const transit = (q: number) => quantileMs(bucketsOf(first, transitMetric),
      bucketsOf(last, transitMetric), q);
    const views = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
    const row = (figure: string, value: number, unit: string, target = '-',
      pass: boolean | null = null): ReportRow =>
      ({ bench, figure, value, unit, baseline: null, ratio: null, target, pass });
    const p99 = quantileMs(before, after, 0.99);
    return [
      row('snapshot ingest -> front p50, running deployment (sim ingest, one front, Redis)',
        quantileMs(before, after, 0.5), 'ms'),
      row('snapshot ingest -> front p99, running deployment (plus the cadence)', p99, 'ms',
        '< 5 ms', p99 < 5),
      row('snapshot ingest -> front p99.9, running deployment', quantileMs(before, after, 0.999),
        'ms'),
      // Where the time goes: from the view's batch leaving ingest (Redis and the front); the
      // rest is the view waiting in ingest's turn for its batch to leave.
      row('batch leaving ingest -> front p50, running deployment', transit(0.5), 'ms'),
      row('batch leaving ingest -> front p99, running deployment', transit(0.99), 'ms'),
      row('views applied by the front per second, running deployment', views / (windowMs / 1000),
        'views/s'),
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
