// Busy is not dead: `orderflow serve --speed 600` with its 168 h warm-up, on a machine whose
// every core is taken by other processes. It turns ready, restarts no shard, records a history
// point for every minute after the clock start, and serves every endpoint; market time runs as
// fast as the shards absorb, and the service says how fast.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, tempDir } from '../helpers/eventually.js';
import { runCli } from '../helpers/cli.js';
import { startCpuHog } from '../helpers/cpu-hog.js';
import { startServeProcess } from '../helpers/service-process.js';

const CLOCK_START = '2026-03-02T00:00:00Z';
const MINUTE_MS = 60_000;
/** Market minutes after the clock start the history must cover before it is checked. */
const minutesChecked = 30;

async function get(url: string, key?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  return { status: response.status, text: await response.text() };
}

/** The newest BTC minute recorded after the clock start, with the coverage up to it. */
async function btcHistory(baseUrl: string, key: string) {
  const url = `${baseUrl}/api/v1/history/BTC?interval=1m&limit=5000&start=${CLOCK_START}`;
  const { status, text } = await get(url, key);
  if (status !== 200) return null;
  const body = JSON.parse(text) as { points: { t: string }[] };
  const newest = body.points.at(-1);
  return newest === undefined ? null : { points: body.points.length, newestAt: newest.t };
}

test('under a CPU hog on every core, --speed 600 turns ready with no shard restarted', async () => {
  const dataDir = join(await tempDir(), 'data');
  mkdirSync(dataDir);
  const { key } = JSON.parse(await runCli(['keys', 'create', '--plan', 'Whale', '--json',
    '--data-dir', dataDir])) as { key: string };
  const hog = startCpuHog();
  const service = await startServeProcess(['--data-dir', dataDir, '--speed', '600',
    '--clock-start', CLOCK_START, '--limits', 'off'],
  { ORDERFLOW_WARMUP_HOURS: '168', ORDERFLOW_LOG_LEVEL: 'info' });
  try {
    const base = service.baseUrl;
    await eventually(async () => (await get(`${base}/readyz`)).status === 200,
      { timeoutMs: 300_000, intervalMs: 500, message: '/readyz turned ready under the hog' });
    // Thirty market minutes after the start: every one of them has its BTC point.
    const clockStartMs = Date.parse(CLOCK_START);
    const history = await eventually(async () => {
      const h = await btcHistory(base, key);
      return h && Date.parse(h.newestAt) >= clockStartMs + minutesChecked * MINUTE_MS ? h : null;
    }, { timeoutMs: 300_000, intervalMs: 1_000, message: 'BTC history after the clock start' });
    const end = new Date(Date.parse(history.newestAt) + MINUTE_MS).toISOString();
    const covered = await get(`${base}/api/v1/history/BTC?interval=1m&limit=5000&start=` +
      `${CLOCK_START}&end=${end}`, key);
    const body = JSON.parse(covered.text) as { points: unknown[]; coverage: { gaps: unknown[] } };
    assert.equal(body.coverage.gaps, [], 'no BTC minute after the clock start is missing');
    assert.is(body.points.length, (Date.parse(end) - clockStartMs) / MINUTE_MS);

    // Not /readyz: a re-rank that brings a new pair turns it 503 while that pair warms up.
    for (const path of ['/healthz', '/api/v1/openapi.json', '/api/v1/screener',
      '/api/v1/pair/BTC', '/api/v1/signals', '/api/v1/smart-money', '/api/v1/deep-view/BTC',
      '/api/v1/funding-arb', '/api/v1/usage', '/api/v1/cvd/BTC', '/api/v1/liquidation-map/BTC',
      '/api/v1/wallets', '/api/v1/signals/history', '/api/v1/signals/performance',
      '/api/v1/history/ETH?interval=5m', '/metrics']) {
      const { status, text } = await get(`${base}${path}`, key);
      assert.is(status, 200, `${path}: ${text.slice(0, 200)}`);
    }

    assert.not.match(service.stderr(), /shard failed|shard gave up/);
    const metrics = (await get(`${base}/metrics`)).text;
    assert.match(metrics, /orderflow_shard_restarts_total\{shard="0"\} 0\n/);
    assert.match(metrics, /orderflow_shard_restarts_total\{shard="1"\} 0\n/);
    const achieved = /orderflow_market_speed_achieved ([\d.]+)/.exec(metrics);
    assert.ok(achieved && Number(achieved[1]) > 0, 'the achieved market speed is reported');
  } finally {
    await hog.stop();
    service.child.kill('SIGTERM');
    await service.exited;
  }
});

test.run();
