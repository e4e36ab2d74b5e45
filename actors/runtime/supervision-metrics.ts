// Prometheus text for supervision and pacing: restarts and state per shard, and the market
// speed achieved against the speed asked for. Label values are shard ids: bounded by shardsMax.
import type { MarketPace } from './market-pace.js';
import type { ShardHandle } from './shard-handle.js';

export function renderSupervisionMetrics(shards: readonly ShardHandle[],
  pace: MarketPace | null): string {
  const lines = [
    '# HELP orderflow_shard_restarts_total Restarts of a shard (crashed, or made no progress).',
    '# TYPE orderflow_shard_restarts_total counter',
    ...shards.map((s) => `orderflow_shard_restarts_total{shard="${s.shardId}"} ${s.restarts}`),
    '# HELP orderflow_shard_degraded 1 when a shard failed too often and stays down.',
    '# TYPE orderflow_shard_degraded gauge',
    ...shards.map((s) => `orderflow_shard_degraded{shard="${s.shardId}"} ` +
      (s.state === 'degraded' ? 1 : 0)),
  ];
  if (pace === null) return lines.join('\n') + '\n';
  const achieved = pace.achievedSpeed;
  lines.push(
    '# HELP orderflow_market_speed_requested Market speed asked for (--speed; +Inf: max).',
    '# TYPE orderflow_market_speed_requested gauge',
    `orderflow_market_speed_requested ${promNumber(pace.requestedSpeed)}`,
    '# HELP orderflow_market_speed_achieved Market speed the shards achieved over the last 10 s.',
    '# TYPE orderflow_market_speed_achieved gauge',
    `orderflow_market_speed_achieved ${achieved === null ? 'NaN' : achieved.toFixed(3)}`,
    '# HELP orderflow_market_behind 1 while market time runs slower than asked.',
    '# TYPE orderflow_market_behind gauge',
    `orderflow_market_behind ${pace.behind ? 1 : 0}`,
  );
  return lines.join('\n') + '\n';
}

function promNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : 'NaN';
}
