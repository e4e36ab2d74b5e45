// The simulator's prices start from their references at the data dir's first warm-up start,
// whatever the date (persistence/sim-anchor.ts), on the real `orderflow serve` with a real store:
// BTC reads near its 66,344 reference in November, and a restart six days later on the same dir
// continues the first run's path instead of starting a new one from the reference.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { referencePx } from '../../actors/feed/sim/market-model.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { startServeProcess, type ServiceProcess } from '../helpers/service-process.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const BTC_REFERENCE = 66_344;
const WARMUP_HOURS = 2;
const FIRST_START_MS = Date.parse('2026-11-22T00:00:00Z');
/** How far a served price may be from its path (log): a few hours of a 7.5 %-a-day market. */
const NEAR = 0.05;
const running = new Set<ServiceProcess>();

/** Starts serve at `clockStartMs` and reads BTC's price once it is ready. */
async function btcPrice(dataDir: string, clockStartMs: number): Promise<number> {
  const service = await startServeProcess(['--data-dir', dataDir, '--shards', '1',
    '--clock-start', new Date(clockStartMs).toISOString()],
  { ORDERFLOW_WARMUP_HOURS: String(WARMUP_HOURS) });
  running.add(service);
  try {
    return await eventually(async () => {
      const ready = await fetch(`${service.baseUrl}/readyz`);
      await ready.arrayBuffer();
      if (ready.status !== 200) return null;
      const pair = await fetch(`${service.baseUrl}/api/v1/pair/BTC`).then((r) => r.json()) as
        { price?: unknown };
      return typeof pair.price === 'number' ? pair.price : null;
    }, { timeoutMs: 90_000, message: 'BTC price' });
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    running.delete(service);
  }
}

/** BTC's price at tMs on the path anchored at anchorMs (seed 42, the default). */
function pathPx(anchorMs: number, tMs: number): number {
  return referencePx(42, simWorld(42, undefined, undefined, anchorMs).bySymbol.get('BTC')!, tMs);
}

test('BTC starts near its reference and a restart continues the same path', async () => {
  try {
    const dataDir = await tempDir();
    const first = await btcPrice(dataDir, FIRST_START_MS);
    assert.ok(Math.abs(Math.log(first / BTC_REFERENCE)) < Math.log(3), `first BTC ${first}`);
    const firstAnchorMs = FIRST_START_MS - WARMUP_HOURS * HOUR_MS;
    // The tick world's price is the path's less what its market makers have not learned yet.
    const firstPath = pathPx(firstAnchorMs, FIRST_START_MS);
    assert.ok(Math.abs(Math.log(first / firstPath)) < NEAR,
      `first BTC ${first}, its path ${firstPath}`);
    const secondStartMs = FIRST_START_MS + 6 * DAY_MS;
    const kept = pathPx(firstAnchorMs, secondStartMs);
    const fresh = pathPx(secondStartMs - WARMUP_HOURS * HOUR_MS, secondStartMs);
    // The check can tell the two paths apart only where they have drifted apart.
    assert.ok(Math.abs(Math.log(kept / fresh)) > 2 * NEAR, `kept ${kept}, fresh ${fresh}`);
    const second = await btcPrice(dataDir, secondStartMs);
    assert.ok(Math.abs(Math.log(second / kept)) < NEAR,
      `second BTC ${second}: first run's path ${kept}, a new path ${fresh}`);
    assert.ok(Math.abs(Math.log(second / BTC_REFERENCE)) < Math.log(3), `second BTC ${second}`);
  } finally {
    for (const service of running) service.child.kill('SIGKILL');
  }
});

test.run();
