// Scale-out with the real processes: Redis (redis-server), one ingest and two fronts started as
// `orderflow serve --role ...`. Same bytes and ETag on both fronts, limits that hold across them,
// keys that work everywhere, and the faults: Redis away and back, a front killed, ingest killed
// with -9 and restarted (docs/scale-out.md).
import { spawnSync } from 'node:child_process';
import { getPriority } from 'node:os';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, tempDir } from '../helpers/eventually.js';
import { clearOfRomeMidnight } from '../helpers/rome-midnight.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { binPath, startServeProcess, type ServiceProcess } from '../helpers/service-process.js';
import { threadNices, threadPolicies } from '../helpers/thread-nices.js';

const keylessDailyLimit = 8;
/** Deadlines for things that happen within seconds (polled, never timed). */
const settleMs = 15_000;

let redis: RedisServer;
let env: Record<string, string>;
let ingest: ServiceProcess;
let fronts: ServiceProcess[] = [];
let ingestDir = '';
/** Every process started, so none outlives the run whatever failed. */
const started: ServiceProcess[] = [];

function cli(...args: string[]): string {
  const result = spawnSync(process.execPath, [binPath, ...args],
    { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.is(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

async function get(base: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

const ready = (base: string) => async () => (await get(base, '/readyz')).status === 200;
const stale = (r: { headers: Headers }) => r.headers.get('x-producer-stale') === 'true';

async function startRole(args: string[]): Promise<ServiceProcess> {
  const service = await startServeProcess(args, env);
  started.push(service);
  return service;
}

const startIngest = () =>
  startRole(['--role', 'ingest', '--data-dir', ingestDir, '--shards', '1']);
/**
 * Ingest up and ready. A cold start on a loaded 2-core machine can miss the shard's start-up
 * deadline and exit (as a one-box serve would); that is not what these tests are about, so a
 * start that died is tried again, once.
 */
async function startReadyIngest(): Promise<ServiceProcess> {
  for (let attempt = 1; ; attempt++) {
    const service = await startIngest();
    try {
      await eventually(async () => {
        if (service.child.exitCode !== null) throw new Error(service.stderr().slice(-500));
        return ready(service.baseUrl)();
      }, { timeoutMs: 45_000, message: 'ingest ready' });
      return service;
    } catch (error) {
      if (attempt === 2 || service.child.exitCode === null) throw error;
    }
  }
}

/** Root (CI) may run a front at a real-time priority: the second front is one, so every test
 *  below also covers a `--realtime` front (docs/scale-out.md, "Latency profile"). */
const realtimeFronts = process.getuid?.() === 0;
const startFront = async (realtime = false) => startRole(['--role', 'front', '--data-dir',
  await tempDir(), ...realtime ? ['--realtime'] : []]);

test.before(async () => {
  try {
    await setUp();
  } catch (error) {
    // uvu reports a failing hook only as 0 passed: say why, with the processes' last words.
    console.error('scale-out set-up failed:', error);
    for (const service of [ingest, ...fronts]) console.error(service?.stderr().slice(-2_000));
    throw error;
  }
});

async function setUp(): Promise<void> {
  redis = await startRedisServer();
  env = { ORDERFLOW_REDIS_URL: redis.url, ORDERFLOW_SIM_WALLETS: '30',
    ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS: '1',
    ORDERFLOW_KEYLESS_DAILY_LIMIT: String(keylessDailyLimit) };
  ingestDir = await tempDir();
  // One at a time: on 2 shared cores, three cold starts at once starve the ingest's shard.
  ingest = await startReadyIngest();
  for (let i = 0; i < 2; i++) {
    fronts.push(await startFront(realtimeFronts && i === 1));
    await eventually(ready(fronts[i].baseUrl), { timeoutMs: 30_000, message: 'front ready' });
  }
}

test.after(async () => {
  for (const service of started) service.child.kill('SIGKILL');
  await redis?.stop();
});

test('both fronts serve the same bytes, ETag and headers as ingest publishes them', async () => {
  const key = JSON.parse(cli('keys', 'create', '--plan', 'Whale', '--json')).key as string;
  const auth = { authorization: `Bearer ${key}` };
  // The fronts may be one publish apart: equal answers once both hold the same version.
  await eventually(async () => {
    const [a, b] = await Promise.all(fronts.map((f) => get(f.baseUrl, '/api/v1/pair/BTC', auth)));
    assert.is(a.status, 200);
    assert.ok(a.headers.get('etag'));
    return a.headers.get('etag') === b.headers.get('etag') && a.body.equals(b.body) &&
      a.headers.get('last-modified') === b.headers.get('last-modified') &&
      a.headers.get('x-producer-cadence-ms') === b.headers.get('x-producer-cadence-ms') &&
      a.headers.get('cache-control') === b.headers.get('cache-control');
  }, { timeoutMs: settleMs, intervalMs: 100, message: 'same answer on both fronts' });
  const answer = await get(fronts[0].baseUrl, '/api/v1/pair/BTC', auth);
  assert.not.ok(stale(answer));
  const etag = answer.headers.get('etag')!;
  // A front's ETag revalidates on the other front while the view is unchanged.
  const again = await get(fronts[1].baseUrl, '/api/v1/pair/BTC', { ...auth,
    'if-none-match': etag });
  assert.ok([200, 304].includes(again.status));
  // Each front measures what it applies: the propagation histogram on its /metrics.
  const metrics = (await get(fronts[1].baseUrl, '/metrics')).body.toString();
  const applied = /^orderflow_snapshot_propagation_seconds_count (\d+)$/m.exec(metrics);
  assert.ok(applied && Number(applied[1]) > 0, metrics.slice(0, 400));
  // Through the front's registry: its Redis link, ingest's heartbeat fresh, the limit script.
  assert.match(metrics, /^orderflow_redis_up 1$/m);
  assert.match(metrics, /^orderflow_front_ingest_fresh 1$/m);
  assert.match(metrics, /^orderflow_redis_script_seconds_count \d+$/m);
});

test('deep views reach both fronts as patches of their keyframe, byte for byte ingest\'s',
  async () => {
    const key = JSON.parse(cli('keys', 'create', '--plan', 'Whale', '--json')).key as string;
    const auth = { authorization: `Bearer ${key}` };
    const patchesApplied = async (front: ServiceProcess) => Number(
      /^orderflow_snapshot_patches_applied_total (\d+)$/m
        .exec((await get(front.baseUrl, '/metrics')).body.toString())?.[1] ?? NaN);
    // The sim's deep views change every cadence: after a few, each front has rebuilt some.
    await eventually(async () => (await patchesApplied(fronts[0]!)) > 0 &&
      (await patchesApplied(fronts[1]!)) > 0, { timeoutMs: settleMs, message: 'patches applied' });
    await eventually(async () => {
      const [own, a, b] = await Promise.all([ingest, ...fronts].map((s) =>
        get(s.baseUrl, '/api/v1/deep-view/BTC', auth)));
      assert.is(own.status, 200);
      return [a, b].every((r) => r.status === 200 && r.body.equals(own.body) &&
        r.headers.get('etag') === own.headers.get('etag'));
    }, { timeoutMs: settleMs, intervalMs: 50, message: 'the same deep view as ingest' });
  });

test('ingest runs every thread at nice 10, so Redis and fronts on its box run first; fronts ' +
  'as started, a --realtime one on SCHED_RR', () => {
  // The processes start at this runner's priority (0, unless the tests run under `nice`).
  const started = getPriority(0);
  const onIngest = threadNices(ingest.child.pid!);
  // The main thread, V8's and libuv's helpers and the shard workers started after.
  assert.ok(onIngest.length >= 5, `threads: ${onIngest.length}`);
  assert.equal([...new Set(onIngest)], [Math.max(10, started)]);
  for (const front of fronts) {
    assert.equal([...new Set(threadNices(front.child.pid!))], [started]);
  }
  // SCHED_OTHER is 0, SCHED_RR 2: the second front asked for it (as root), every thread has it.
  assert.equal([...new Set(threadPolicies(fronts[0]!.child.pid!))], [0]);
  assert.equal([...new Set(threadPolicies(fronts[1]!.child.pid!))], [realtimeFronts ? 2 : 0]);
});

test('a wallet\'s detail on a front is ingest\'s, bytes and ETag (forwarded as it changes)',
  async () => {
    const key = JSON.parse(cli('keys', 'create', '--plan', 'Whale', '--json')).key as string;
    const auth = { authorization: `Bearer ${key}` };
    let address = '';
    await eventually(async () => {
      const list = await get(ingest.baseUrl, '/api/v1/wallets', auth);
      address = (JSON.parse(list.body.toString()) as { wallets: { address: string }[] })
        .wallets[0]?.address ?? '';
      return address !== '';
    }, { timeoutMs: settleMs, message: 'a tracked wallet with a state on ingest' });
    const path = `/api/v1/wallets/${address}`;
    await eventually(async () => {
      const [own, ...onFronts] = await Promise.all([ingest, ...fronts]
        .map((s) => get(s.baseUrl, path, auth)));
      assert.is(own.status, 200);
      return onFronts.every((r) => r.status === 200 &&
        r.headers.get('etag') === own.headers.get('etag') && r.body.equals(own.body) &&
        r.headers.get('last-modified') === own.headers.get('last-modified'));
    }, { timeoutMs: settleMs, intervalMs: 100, message: 'the same wallet view on both fronts' });
    const unknown = await get(fronts[0].baseUrl, '/api/v1/wallets/0x' + '0'.repeat(40), auth);
    assert.is(unknown.status, 404);
  });

test('a key made through the CLI works on every front; revoked, on none', async () => {
  const made = JSON.parse(cli('keys', 'create', '--plan', 'Pro', '--json'));
  const auth = { authorization: `Bearer ${made.key}` };
  for (const front of fronts) {
    await eventually(async () => (await get(front.baseUrl, '/api/v1/screener', auth)).status
      === 200, { timeoutMs: 5_000, intervalMs: 50, message: 'new key accepted' });
  }
  // Ingest's admin commands check the key in Redis too.
  const hook = JSON.parse(cli('webhooks', 'add', '--key', made.prefix, '--url',
    'http://127.0.0.1:9/hook', '--data-dir', ingestDir, '--json'));
  assert.match(hook.id, /\S/);
  cli('keys', 'revoke', made.prefix);
  for (const front of fronts) {
    await eventually(async () => (await get(front.baseUrl, '/api/v1/screener', auth)).status
      === 401, { timeoutMs: 5_000, intervalMs: 50, message: 'revoked key refused' });
  }
});

test('the keyless daily quota holds across both fronts: N answered, N+1 refused', async () => {
  // Used up here and still used up after Redis comes back, two tests on: one Rome day.
  await clearOfRomeMidnight(3 * 60_000);
  for (let i = 0; i < keylessDailyLimit; i++) {
    const r = await get(fronts[i % 2].baseUrl, '/api/v1/screener');
    assert.is(r.status, 200, `request ${i + 1} of ${keylessDailyLimit}`);
  }
  for (const front of fronts) {
    const refused = await get(front.baseUrl, '/api/v1/screener');
    assert.is(refused.status, 429);
    assert.is(JSON.parse(refused.body.toString()).code, 'quota_exceeded');
  }
});

test('a burst limit of 10 over both fronts refuses the 11th with Retry-After', async () => {
  const key = JSON.parse(cli('keys', 'create', '--plan', 'Whale', '--json')).key as string;
  const auth = { authorization: `Bearer ${key}` };
  await eventually(async () => (await get(fronts[0].baseUrl, '/api/v1/usage', auth)).status
    === 200, { timeoutMs: 5_000 });
  await eventually(async () => (await get(fronts[1].baseUrl, '/api/v1/usage', auth)).status
    === 200, { timeoutMs: 5_000 });
  for (let i = 0; i < 10; i++) {
    const r = await get(fronts[i % 2].baseUrl, '/api/v1/cvd/BTC', auth);
    assert.is(r.status, 200, `cvd request ${i + 1}: ${r.body}`);
    assert.match(r.headers.get('ratelimit') ?? '', `"burst";r=${9 - i};`);
  }
  const refused = await get(fronts[1].baseUrl, '/api/v1/cvd/BTC', auth);
  assert.is(refused.status, 429);
  assert.is(JSON.parse(refused.body.toString()).code, 'rate_limited');
  assert.ok(Number(refused.headers.get('retry-after')) >= 1);
});

test('Redis away: fronts serve their last snapshots marked stale, not ready; back: caught up',
  async () => {
    await redis.stop({ save: true });
    for (const front of fronts) {
      await eventually(async () => !(await ready(front.baseUrl)()), { timeoutMs: settleMs });
      const r = await get(front.baseUrl, '/api/v1/screener');
      assert.is(r.status, 200, 'the keyless quota is local now: a fresh count per front');
      assert.ok(stale(r));
    }
    await redis.start();
    for (const front of fronts) {
      await eventually(ready(front.baseUrl), { timeoutMs: settleMs, message: 'ready again' });
      const r = await get(front.baseUrl, '/api/v1/screener');
      assert.is(r.status, 429, 'the shared quota applies again (it was used up)');
      assert.not.ok(stale(r));
    }
  });

test('a front killed: the other goes on', async () => {
  const killed = fronts[1];
  fronts[1] = fronts[0];
  killed.child.kill('SIGKILL');
  await killed.exited;
  const key = JSON.parse(cli('keys', 'create', '--plan', 'Whale', '--json')).key as string;
  const auth = { authorization: `Bearer ${key}` };
  const r = await eventually(async () => {
    const answer = await get(fronts[0].baseUrl, '/api/v1/funding-arb', auth);
    return answer.status === 401 ? null : answer;
  }, { timeoutMs: 5_000, message: 'the key known' });
  assert.is(r.status, 200, r.body.toString());
  await eventually(ready(fronts[0].baseUrl), { timeoutMs: settleMs, message: 'still ready' });
  fronts[1] = await startFront(realtimeFronts);
  await eventually(ready(fronts[1].baseUrl), { timeoutMs: settleMs, message: 'new front ready' });
});

test('ingest killed -9: fronts mark data stale; a restarted ingest resumes', async () => {
  const key = JSON.parse(cli('keys', 'create', '--plan', 'Whale', '--json')).key as string;
  const auth = { authorization: `Bearer ${key}` };
  ingest.child.kill('SIGKILL');
  await ingest.exited;
  // Polled on /readyz (free of limits): the key's burst is kept for the checks.
  for (const front of fronts) {
    await eventually(async () => (await get(front.baseUrl, '/readyz')).status === 503,
      { timeoutMs: settleMs, message: 'not ready after ingest died' });
    const answer = await get(front.baseUrl, '/api/v1/pair/BTC', auth);
    assert.is(answer.status, 200, 'the last snapshot is still served');
    assert.ok(stale(answer));
  }
  const before = await get(fronts[0].baseUrl, '/api/v1/pair/BTC', auth);
  ingest = await startReadyIngest();
  for (const front of fronts) {
    await eventually(ready(front.baseUrl), { timeoutMs: settleMs, message: 'fresh again' });
  }
  await eventually(async () => {
    const after = await get(fronts[0].baseUrl, '/api/v1/pair/BTC', auth);
    assert.is(after.status, 200);
    return !stale(after) && after.headers.get('etag') !== before.headers.get('etag');
  }, { timeoutMs: settleMs, intervalMs: 500, message: 'new data from the restarted ingest' });
});

test.run();
