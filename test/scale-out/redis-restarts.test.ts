// Redis restarted under a running deployment (docs/scale-out.md, "When Redis restarts"): one
// ingest with the default universe and two fronts, as `orderflow serve --role ...`. Redis is
// killed and started again empty on the same port, several times; each time the ingest lives on
// and both fronts are ready and fresh again within 10 s. Then once more with a reconnect handler
// forced to block the ingest's event loop for 600 ms (past the 500 ms command timeout).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, tempDir } from '../helpers/eventually.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startServeProcess, type ServiceProcess } from '../helpers/service-process.js';

/** The deadline the issue sets for a deployment to be whole again after Redis returns. */
const backWithinMs = 10_000;
/** Deadline for things that happen within seconds (polled, never timed). */
const settleMs = 15_000;
const restarts = 4;

let redis: RedisServer;
let env: Record<string, string>;
let ingest: ServiceProcess;
const fronts: ServiceProcess[] = [];
let ingestDir = '';
/** Every process started, so none outlives the run whatever failed. */
const started: ServiceProcess[] = [];

async function get(base: string, path: string) {
  const response = await fetch(`${base}${path}`);
  await response.arrayBuffer();
  return response;
}

/**
 * A front is whole: /readyz 200 (Redis up, snapshots loaded, ingest's beat heard) and the
 * screener answered without X-Producer-Stale, with an ETag other than `etagBefore` (the one
 * before Redis went: only an ingest that lives and publishes after Redis returned moves it).
 */
async function whole(front: ServiceProcess, etagBefore: string | null = null): Promise<boolean> {
  if ((await get(front.baseUrl, '/readyz')).status !== 200) return false;
  const answer = await get(front.baseUrl, '/api/v1/screener');
  return answer.status === 200 && answer.headers.get('x-producer-stale') !== 'true' &&
    answer.headers.get('etag') !== etagBefore;
}

const screenerEtag = async (front: ServiceProcess) =>
  (await get(front.baseUrl, '/api/v1/screener')).headers.get('etag');

function assertIngestAlive(): void {
  assert.is(ingest.child.exitCode, null, `ingest exited: ${ingest.stderr().slice(-1_500)}`);
}

async function startRole(args: string[], extraEnv: Record<string, string> = {}) {
  const service = await startServeProcess(args, { ...env, ...extraEnv });
  started.push(service);
  return service;
}

/** Ingest with the default universe (every simulated pair and wallet), ready. A cold start on
 *  a loaded 2-core machine can miss the shards' start-up deadline: it is tried once more. */
async function startReadyIngest(extraEnv: Record<string, string> = {}) {
  for (let attempt = 1; ; attempt++) {
    const service = await startRole(['--role', 'ingest', '--data-dir', ingestDir], extraEnv);
    try {
      await eventually(async () => {
        if (service.child.exitCode !== null) throw new Error(service.stderr().slice(-500));
        return (await get(service.baseUrl, '/readyz')).status === 200;
      }, { timeoutMs: 90_000, message: 'ingest ready' });
      return service;
    } catch (error) {
      if (attempt === 2 || service.child.exitCode === null) throw error;
    }
  }
}

test.before(async () => {
  try {
    redis = await startRedisServer();
    env = { ORDERFLOW_REDIS_URL: redis.url, ORDERFLOW_LOG_LEVEL: 'info',
      ORDERFLOW_KEYLESS_DAILY_LIMIT: '1000000' };
    ingestDir = await tempDir();
    ingest = await startReadyIngest();
    for (let i = 0; i < 2; i++) {
      fronts.push(await startRole(['--role', 'front', '--data-dir', await tempDir()]));
      await eventually(() => whole(fronts[i]!), { timeoutMs: 45_000, message: 'front ready' });
    }
  } catch (error) {
    console.error('redis-restart set-up failed:', error);
    for (const service of started) console.error(service.stderr().slice(-2_000));
    throw error;
  }
});

test.after(async () => {
  for (const service of started) service.child.kill('SIGKILL');
  await redis?.stop();
});

/** Kills Redis (its data goes: no persistence), waits until the fronts see it gone, starts it
 *  again on the same port, and waits for the ingest alive and both fronts whole. */
async function restartRedis(round: string): Promise<void> {
  const etags = await Promise.all(fronts.map(screenerEtag));
  await redis.stop();
  for (const front of fronts) {
    await eventually(async () => (await get(front.baseUrl, '/readyz')).status === 503,
      { timeoutMs: settleMs, message: `${round}: front not ready while Redis is away` });
  }
  assertIngestAlive();
  await redis.start();
  for (const [i, front] of fronts.entries()) {
    await eventually(async () => {
      assertIngestAlive();
      return whole(front, etags[i]);
    }, { timeoutMs: backWithinMs, intervalMs: 100,
      message: `${round}: front ready and fresh after Redis came back` });
  }
  assertIngestAlive();
}

/** The ingest still lives and publishes a while after Redis returned: new data on a front. */
async function dataMoves(front: ServiceProcess): Promise<void> {
  const etag = await screenerEtag(front);
  await eventually(async () => {
    assertIngestAlive();
    return whole(front, etag);
  }, { timeoutMs: settleMs, intervalMs: 200, message: 'new data on the front' });
}

/** No promise was left unhandled on the way (the guard would have counted it, and lived). */
async function noUnhandledRejection(service: ServiceProcess): Promise<void> {
  const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
  assert.match(metrics, /^orderflow_unhandled_rejections_total 0$/m);
}

test(`Redis restarted empty ${restarts} times: ingest lives, fronts whole again each time`,
  async () => {
    for (let i = 1; i <= restarts; i++) await restartRedis(`restart ${i} of ${restarts}`);
    for (const front of fronts) await dataMoves(front);
    for (const service of [ingest, ...fronts]) await noUnhandledRejection(service);
  });

test('a reconnect handler blocking the ingest 600 ms (past the command timeout): it lives',
  async () => {
    ingest.child.kill('SIGTERM');
    await ingest.exited;
    ingest = await startReadyIngest({ ORDERFLOW_TEST_REDIS_READY_BLOCK_MS: '600' });
    for (const front of fronts) {
      await eventually(() => whole(front), { timeoutMs: settleMs, message: 'fronts follow' });
    }
    await restartRedis('restart with a 600 ms block');
    for (const front of fronts) await dataMoves(front);
    // The SUBSCRIBE sent as Redis came back timed out behind the block, and was made again.
    assert.match(ingest.stderr(), /subscribing to redis channels failed; retrying/);
    await noUnhandledRejection(ingest);
  });

test.run();
