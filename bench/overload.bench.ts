// Overload: `orderflow serve --speed 600` with its 168 h warm-up, once on the machine as it is
// (baseline) and once with a busy loop on every core outside the service, in the same run:
// spawn to /readyz, shard restarts, and the market speed achieved 20 s after ready.
import { startCpuHog } from '../test/helpers/cpu-hog.js';
import { printRows, quick, type ReportRow } from './harness.js';
import { getText } from './lib/http-get.js';
import { removeDir, startService, tempDataDir, waitReady } from './lib/service.js';

const SPEED = 600;
const CLOCK_START = '2026-03-02T00:00:00Z';
/** Achieved speed is read this long after ready (its window is 10 s). */
const settleMs = 20_000;

interface Start {
  readonly readyMs: number;
  readonly restarts: number;
  readonly achievedSpeed: number;
}

async function metric(baseUrl: string, pattern: RegExp): Promise<number[]> {
  const { body } = await getText(`${baseUrl}/metrics`, {});
  return [...body.matchAll(pattern)].map((m) => Number(m[1]));
}

async function timeStart(hogged: boolean): Promise<Start> {
  const dataDir = await tempDataDir('overload');
  const hog = hogged ? startCpuHog() : null;
  try {
    const service = await startService({ dataDir, env: { ORDERFLOW_WARMUP_HOURS: '168' },
      args: ['--speed', String(SPEED), '--clock-start', CLOCK_START, '--limits', 'off'] });
    try {
      const readyAtMs = await waitReady(service.baseUrl, 300_000);
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      const restarts = await metric(service.baseUrl,
        /^orderflow_shard_restarts_total\{[^}]*\} (\d+)$/gm);
      const [achieved] = await metric(service.baseUrl,
        /^orderflow_market_speed_achieved ([\d.]+|NaN)$/gm);
      return { readyMs: readyAtMs - service.spawnedAtMs,
        restarts: restarts.reduce((a, b) => a + b, 0), achievedSpeed: achieved ?? NaN };
    } finally {
      await service.stop();
    }
  } finally {
    await hog?.stop();
    await removeDir(dataDir);
  }
}

export async function run(_opts: { quick: boolean }): Promise<ReportRow[]> {
  const calm = await timeStart(false);
  const busy = await timeStart(true);
  return [
    { bench: 'overload', figure: `spawn to /readyz at --speed ${SPEED}, every core busy ` +
      'outside the service (baseline: not busy)', value: busy.readyMs / 1000, unit: 's',
    baseline: calm.readyMs / 1000, ratio: busy.readyMs / calm.readyMs, target: 'ready',
    pass: true },
    { bench: 'overload', figure: 'shard restarts, every core busy (baseline: not busy)',
      value: busy.restarts, unit: 'restarts', baseline: calm.restarts, ratio: null,
      target: '0', pass: busy.restarts === 0 },
    { bench: 'overload', figure: `achieved market speed of the requested ${SPEED}x, 20 s after ` +
      'ready, every core busy (baseline: not busy)', value: busy.achievedSpeed, unit: 'x',
    baseline: calm.achievedSpeed, ratio: busy.achievedSpeed / calm.achievedSpeed,
    target: `<= ${SPEED}`, pass: busy.achievedSpeed <= SPEED * 1.05 },
  ];
}

if (process.argv[1]?.endsWith('overload.bench.ts')) printRows(await run({ quick }));
