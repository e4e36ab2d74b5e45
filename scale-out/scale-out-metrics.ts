// Metrics of a scale-out role, read at scrape time: the Redis link, the limit script's round
// trips and, on a front, whether ingest's heartbeat is fresh (a stale front serves old views).
import type { Registry } from 'prom-client';
import { registerCollected, registerValue } from '../core/metrics/collected.js';
import type { RedisLimits } from './redis-limits.js';
import type { RedisLink } from './redis-link.js';

export interface ScaleOutMetricParts {
  readonly link: RedisLink;
  readonly limits: RedisLimits;
  /** A front's view of ingest's heartbeat; absent on ingest. */
  readonly fresh?: () => boolean;
}

export function registerScaleOutMetrics(registry: Registry, p: ScaleOutMetricParts): void {
  registerValue(registry, 'orderflow_redis_up', '1 while the Redis link is ready.',
    () => (p.link.ready() ? 1 : 0));
  registerCollected(registry, {
    name: 'orderflow_redis_script_seconds', type: 'histogram',
    help: 'Round trip of each call of the limit script (burst windows and daily counts).',
    read: (out) => p.limits.scriptSeconds.read(out, 'orderflow_redis_script_seconds'),
  });
  const { fresh } = p;
  if (fresh !== undefined) {
    registerValue(registry, 'orderflow_front_ingest_fresh', '1 while ingest\'s heartbeat is ' +
      'fresh; 0: this front serves stale views (count(... == 0) is the stale fronts).',
    () => (fresh() ? 1 : 0));
  }
}
