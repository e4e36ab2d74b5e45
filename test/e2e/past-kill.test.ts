// The past does not move (docs/operations.md), through the API of `orderflow serve` on the
// simulator: two services whose clocks start 7 minutes apart serve the same 5-minute CVD and
// history points up to an hour before the earlier start; a service killed with -9 once BTC's
// state is saved restarts from it and serves the same points up to that save.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { openStore } from '../../persistence/store.js';
import { PairStateStore } from '../../persistence/pair-states.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { binPath, startServeProcess, type ServiceProcess } from '../helpers/service-process.js';

const HOUR_MS = 3_600_000;
const FIVE_MINUTES_MS = 300_000;
const args = (dataDir: string) => ['--data-dir', dataDir, '--shards', '1', '--limits', 'off'];
/** A short warm-up still spans a UTC midnight, the hourly tier and every finer one. */
const env = { ORDERFLOW_WARMUP_HOURS: '30' };

function createKey(dataDir: string): string {
  const result = spawnSync(process.execPath, [binPath, 'keys', 'create', '--plan', 'Whale',
    '--json', '--data-dir', dataDir], { encoding: 'utf8' });
  assert.is(result.status, 0, result.stderr);
  return JSON.parse(result.stdout).key as string;
}

async function ready(service: ServiceProcess): Promise<void> {
  await eventually(async () => (await fetch(`${service.baseUrl}/readyz`)).status === 200,
    { timeoutMs: 120_000, intervalMs: 100, message: 'ready' });
}

/** BTC's 5-minute CVD points and 5-minute history points, by time. */
async function pastOf(service: ServiceProcess, key: string): Promise<Map<string, string>> {
  const get = async (path: string) => {
    const response = await fetch(`${service.baseUrl}${path}`,
      { headers: { authorization: `Bearer ${key}` } });
    assert.is(response.status, 200, path);
    return response.json() as Promise<any>;
  };
  const past = new Map<string, string>();
  const cvd = await get('/api/v1/cvd/BTC?interval=5m&limit=1000');
  for (const point of cvd.points as { time: string; cvd: number }[]) {
    past.set(`cvd ${Date.parse(point.time)}`, JSON.stringify(point));
  }
  const history = await get('/api/v1/history/BTC?interval=5m&limit=2000&metrics=candle,cvd');
  for (const point of history.points as Record<string, unknown>[]) {
    past.set(`history ${Date.parse(String(point.t))}`,
      JSON.stringify(point));
  }
  return past;
}

/**
 * Points of `before` that closed by `untilMs` and that `after` also serves (the CVD view keeps
 * its newest 200 points, so its window slides with the clock): each unchanged.
 */
function assertUnchanged(before: Map<string, string>, after: Map<string, string>,
  untilMs: number, where: string): void {
  let compared = 0;
  for (const [key, value] of before) {
    const tMs = Number(key.split(' ')[1]);
    assert.ok(Number.isFinite(tMs), `a time in ${key}`);
    if (tMs + FIVE_MINUTES_MS > untilMs || !after.has(key)) continue;
    assert.is(after.get(key), value, `${where}: ${key}`);
    compared++;
  }
  assert.ok(compared > 100, `${where}: ${compared} points compared`);
}

async function kill(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGKILL');
  await service.exited;
}

/** When BTC's state was saved (service time), read from the store as a restart would. */
async function btcSavedAtMs(dataDir: string): Promise<number | undefined> {
  const store = await openStore({ dataDir, clock: new ManualClock(0), readOnly: true,
    watchKeys: false });
  try {
    return new PairStateStore(store.bulk, new ManualClock(0)).savedAtMs('BTC');
  } finally {
    await store.close();
  }
}

test('starts 7 min apart serve the same past; a kill -9 after the save changes none', async () => {
  const key = (dataDir: string) => createKey(dataDir);
  // Two fresh services whose clocks start 7 minutes apart, each killed at ready: the same
  // 5-minute CVD and history points up to an hour before the earlier start.
  const startMs = Date.parse('2026-03-02T10:23:00Z');
  const pasts: Map<string, string>[] = [];
  for (const clockStartMs of [startMs, startMs + 7 * 60_000]) {
    const dataDir = await tempDir();
    const k = key(dataDir);
    const service = await startServeProcess([...args(dataDir), '--clock-start',
      new Date(clockStartMs).toISOString()], env);
    try {
      await ready(service);
      pasts.push(await pastOf(service, k));
    } finally {
      await kill(service);
    }
  }
  assertUnchanged(pasts[0], pasts[1], startMs - HOUR_MS, 'start 7 min later');
  // At the wall clock: killed once BTC's state is saved, the restart restores it, and
  // everything that closed before the save is as it was.
  const dataDir = await tempDir();
  const k = key(dataDir);
  const b = await startServeProcess(args(dataDir), env);
  let pastB: Map<string, string>;
  let savedAtMs: number;
  try {
    await ready(b);
    savedAtMs = await eventually(() => btcSavedAtMs(dataDir),
      { timeoutMs: 120_000, intervalMs: 250, message: "BTC's state saved" });
    pastB = await pastOf(b, k);
  } finally {
    await kill(b);
  }
  const c = await startServeProcess(args(dataDir), env);
  try {
    await ready(c);
    assertUnchanged(pastB, await pastOf(c, k), savedAtMs - FIVE_MINUTES_MS, 'restored');
  } finally {
    await kill(c);
  }
});

test.run();
