// A shard that crashes at every start: the service stays up, serves the other shard's pairs,
// and says it is degraded (/readyz 503 naming the shard, a metric) instead of restarting it in
// a loop.
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { limits, resolveConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { startService } from '../../bin/service.js';
import { eventually, tempDir } from '../helpers/eventually.js';

test('a shard that crashes at every start leaves the service degraded, not looping', async () => {
  const config = resolveConfig({ port: 0, dataDir: join(await tempDir(), 'data'), shards: 2,
    cadenceMs: 200, universeCadenceMs: 1_000, logLevel: 'silent', warmupHours: 0 });
  const service = await startService(config, { logger: silentLogger, allowShardCrash: true,
    crashShardAtStart: 1 });
  try {
    const readyz = await eventually(async () => {
      const response = await fetch(`${service.baseUrl}/readyz`);
      const body = await response.json() as { checks: Record<string, boolean>;
        detail?: Record<string, string> };
      return response.status === 503 && body.detail?.shards ? body : null;
    }, { timeoutMs: 120_000, intervalMs: 200, message: '/readyz names the degraded shard' });
    assert.is(readyz.checks.shards, false);
    assert.match(readyz.detail!.shards, /^shard 1 is down after 5 failures/);
    assert.match(readyz.detail!.shards, /worker exited with code 7/);
    const [healthy, down] = service.runtime.shards;
    assert.is(down.state, 'degraded');
    assert.is(down.restarts, limits.shardFailuresMax - 1);
    assert.is(healthy.state, 'running');
    assert.is(healthy.restarts, 0);
    // The healthy shard's pairs are still served.
    const pair = healthy.pairs[0];
    const answer = await eventually(async () => {
      const r = await fetch(`${service.baseUrl}/api/v1/pair/${pair}`);
      return r.status === 200 ? r : null;
    }, { timeoutMs: 30_000, message: `${pair} served` });
    assert.is(answer.status, 200);
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    assert.match(metrics, /orderflow_shard_degraded\{shard="1"\} 1\n/);
    assert.match(metrics, /orderflow_shard_degraded\{shard="0"\} 0\n/);
    assert.is(down.restarts, limits.shardFailuresMax - 1, 'no restart since it gave up');
  } finally {
    await service.stop();
  }
});

test.run();
