// Metrics of supervision and pacing: restarts, state and heartbeat age per shard, and the market
// speed achieved against the speed asked for. Label values are shard ids: bounded by shardsMax.
import type { Registry } from 'prom-client';
import { registerCollected, registerValue, type Sample } from '../../core/metrics/collected.js';
import type { MarketPace } from './market-pace.js';
import type { ShardHandle } from './shard-handle.js';

/** `shards` and `pace` are read at each scrape (the runtime starts after the front). */
export function registerSupervisionMetrics(registry: Registry,
  shards: () => readonly ShardHandle[], pace: () => MarketPace | null): void {
  const perShard = (name: string, help: string, type: 'counter' | 'gauge',
    value: (s: ShardHandle) => number) => registerCollected(registry, {
    name, help, type, read: (out: Sample[]) => {
      for (const s of shards()) out.push({ labels: { shard: s.shardId }, value: value(s) });
    },
  });
  perShard('orderflow_shard_restarts_total', 'Restarts of a shard (crashed, or made no progress).',
    'counter', (s) => s.restarts);
  perShard('orderflow_shard_degraded', '1 when a shard failed too often and stays down.', 'gauge',
    (s) => (s.state === 'degraded' ? 1 : 0));
  perShard('orderflow_shard_up', '1 while a shard runs.', 'gauge',
    (s) => (s.state === 'running' ? 1 : 0));
  perShard('orderflow_shard_heartbeat_age_seconds', 'Seconds since the shard\'s event loop was ' +
    'last seen turning (checked every second).', 'gauge', (s) => s.heartbeatAgeS);
  registerValue(registry, 'orderflow_market_speed_requested',
    'Market speed asked for (--speed; +Inf: max; NaN: live).',
    () => pace()?.requestedSpeed ?? NaN);
  registerValue(registry, 'orderflow_market_speed_achieved',
    'Market speed the shards achieved over the last 10 s.',
    () => pace()?.achievedSpeed ?? NaN);
  registerValue(registry, 'orderflow_market_behind',
    '1 while market time runs slower than asked.', () => (pace()?.behind ? 1 : 0));
}
