// Restart resumes (issue #18 part 3), on the real `orderflow serve` with the simulator and a real
// store in a temp folder: a first run warms up and stops gracefully (SIGTERM saves every pair's
// state); the next starts WITHOUT warm-up and is killed with SIGKILL; the one after that restores
// the last saved states again. At each /readyz every headline metric is a number, CVD history
// reaches back before the restart, and the store's 5-minute bars have no hole and no double.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openBarStore } from '../../persistence/bars.js';
import { openStore } from '../../persistence/store.js';
import { systemClock } from '../../core/clock.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { binPath, startServeProcess, type ServiceProcess } from '../helpers/service-process.js';

/** From the pair detail and from the deep view (Whale plan). */
const detailMetrics = ['vpin', 'vpinLevel', 'regime', 'signalScore'] as const;
const deepMetrics = ['kyleLambda', 'cvd', 'obi'] as const;
const running = new Set<ServiceProcess>();
const FIVE_MIN_MS = 300_000;

function cli(dataDir: string, ...args: string[]): string {
  const result = spawnSync(process.execPath, [binPath, ...args, '--data-dir', dataDir],
    { encoding: 'utf8' });
  assert.is(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

interface Ready {
  readonly service: ServiceProcess;
  readonly pair: Record<string, unknown>;
  readonly deep: Record<string, unknown> & { cvdHistory: { time: string }[] };
}

/** Starts serve, waits for /readyz and reads BTC right as it turned ready. */
async function startReady(dataDir: string, warmupHours: number, key: string): Promise<Ready> {
  const service = await startServeProcess(['--data-dir', dataDir, '--shards', '2'],
    { ORDERFLOW_WARMUP_HOURS: String(warmupHours), ORDERFLOW_LOG_LEVEL: 'info' });
  running.add(service);
  void service.exited.then(() => running.delete(service));
  return await eventually(async () => {
    const ready = await fetch(`${service.baseUrl}/readyz`);
    await ready.arrayBuffer();
    if (ready.status !== 200) return null;
    const [pair, deep] = await Promise.all([
      fetch(`${service.baseUrl}/api/v1/pair/BTC`).then((r) => r.json()),
      fetch(`${service.baseUrl}/api/v1/deep-view/BTC`,
        { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json()),
    ]);
    return { service, pair, deep } as Ready;
  }, { timeoutMs: 60_000, message: 'ready' });
}

function cvdHistoryOldestMs(ready: Ready): number {
  return Date.parse(ready.deep.cvdHistory[0].time);
}

function assertNumbers(ready: Ready, when: string): void {
  for (const m of detailMetrics) {
    const v = ready.pair[m];
    assert.ok(v !== null && v !== undefined,
      `${when}: ${m} is ${String(v)}; log: ${ready.service.stdout().slice(-3_000)}`);
  }
  for (const m of deepMetrics) assert.type(ready.deep[m], 'number', `${when}: ${m}`);
}

test('graceful restart and kill -9 resume every pair from its saved state', async () => {
  try {
    await restarts();
  } finally {
    for (const service of running) service.child.kill('SIGKILL');
  }
});

async function restarts(): Promise<void> {
  const dataDir = await tempDir();
  const key = JSON.parse(cli(dataDir, 'keys', 'create', '--plan', 'Whale', '--json')).key;
  // 1. The default warm-up (168 h), then a graceful stop (saves every pair). vpinLevel needs 100
  // VPIN values after VPIN's first 50 buckets (about 3 days of volume): 72 h left it null at
  // some start times, when the simulated week's volume ran below its 24 h figure.
  const first = await startReady(dataDir, 168, key);
  assertNumbers(first, 'first start');
  const firstStartMs = Date.now();
  first.service.child.kill('SIGTERM');
  assert.is(await first.service.exited, 0, 'graceful stop');
  const stopLog = first.service.stdout() + first.service.stderr();
  assert.match(stopLog, /service stopped/, stopLog.slice(-3_000));
  // 2. No warm-up at all: the numbers can only come from the restored states.
  const second = await startReady(dataDir, 0, key);
  assertNumbers(second, 'after a graceful restart');
  const log = second.service.stdout() + second.service.stderr();
  assert.not.match(log, /saved pair state discarded/, 'every saved state fits');
  assert.ok(cvdHistoryOldestMs(second) < firstStartMs - 3_600_000,
    'CVD history goes on from before the restart');
  second.service.child.kill('SIGKILL');
  await second.service.exited;
  // 3. After kill -9: the states of the last save (the graceful stop) fill the time since.
  const third = await startReady(dataDir, 0, key);
  assertNumbers(third, 'after kill -9');
  assert.ok(cvdHistoryOldestMs(third) < firstStartMs - 3_600_000,
    'CVD history survives the kill');
  await new Promise((r) => setTimeout(r, 1_500));
  third.service.child.kill('SIGTERM');
  assert.is(await third.service.exited, 0);
  // The store: BTC's 5-minute bars to now, one per 5 minutes, none missing.
  const store = await openStore({ dataDir, clock: systemClock, watchKeys: false });
  try {
    // From where the warm-up's candles are 5 minutes or shorter: its hourly candles end on a
    // 6-hour UTC mark at least 9 h before the start, so 9 h back is always finer.
    const fromMs = firstStartMs - 9 * 3_600_000;
    const bars = openBarStore(store.bulk).range('BTC', fromMs, Date.now() + 86_400_000);
    assert.ok(bars.length >= 100, `${bars.length} bars`);
    const opens = bars.map((b) => b.openMs);
    assert.is(new Set(opens).size, opens.length, 'no bar doubled');
    for (let i = 1; i < opens.length; i++) {
      assert.is(opens[i] - opens[i - 1], FIVE_MIN_MS,
        `no bar missing after ${new Date(opens[i - 1]).toISOString()}`);
    }
  } finally {
    await store.close();
  }
}

test.run();
