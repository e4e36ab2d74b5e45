// A scale-out role's metrics over a real Redis: each limit-script call is timed into
// orderflow_redis_script_seconds, and the link's state and the front's freshness are read at
// scrape time.
import { Registry } from 'prom-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { silentLogger } from '../../core/logger.js';
import { openRedisLink, type RedisLink } from '../../scale-out/redis-link.js';
import { limitsName, RedisLimits, type TakeResult } from '../../scale-out/redis-limits.js';
import { registerScaleOutMetrics } from '../../scale-out/scale-out-metrics.js';
import { eventually } from '../helpers/eventually.js';
import { sampleValue } from '../helpers/exposition.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

const test = suite('scale-out metrics');
let redis: RedisServer;
let link: RedisLink;

test.before(async () => {
  redis = await startRedisServer();
  link = await openRedisLink(redis.url, silentLogger);
  await eventually(() => link.ready(), { timeoutMs: 5_000, message: 'redis link ready' });
});

test.after(async () => {
  await link?.close();
  await redis?.stop();
});

test('script calls are timed; the link and the front\'s freshness are read', async () => {
  const limits = new RedisLimits(link);
  let fresh = true;
  const registry = new Registry();
  registerScaleOutMetrics(registry, { link, limits, fresh: () => fresh });
  const read = async (name: string) => sampleValue(await registry.metrics(), name);
  assert.is(await read('orderflow_redis_script_seconds_count'), 0);
  for (let i = 0; i < 3; i++) {
    await new Promise<TakeResult | null>((resolve) => limits.take({
      limitsName: limitsName(`key:ofk_m${i}`), windowField: 'v1|127.0.0.1', burstLimit: 3,
      windowMs: 60_000, dayKey: '2027-01-15', dailyLimit: 100, dailyTtlSeconds: 3_600,
      nowMs: Date.parse('2027-01-15T10:00:00Z'),
    }, resolve, null));
  }
  assert.is(await read('orderflow_redis_script_seconds_count'), 3);
  assert.ok((await read('orderflow_redis_script_seconds_sum'))! > 0);
  assert.is(await read('orderflow_redis_up'), 1);
  assert.is(await read('orderflow_front_ingest_fresh'), 1);
  fresh = false;
  assert.is(await read('orderflow_front_ingest_fresh'), 0);
});

test.run();
