// What /readyz says about supervision and pace beyond its checks: each degraded shard by name
// with its pairs and last failure, and market time running slower than asked.
import type { MarketPace } from './market-pace.js';
import type { ShardHandle } from './shard-handle.js';

/** Pairs named per degraded shard; the rest are counted. */
const pairsNamedMax = 5;

export function supervisionDetail(shards: readonly ShardHandle[], pace: MarketPace | null):
  Record<string, string> {
  const detail: Record<string, string> = {};
  const degraded = shards.filter((s) => s.state === 'degraded').map((s) => {
    const named = s.pairs.slice(0, pairsNamedMax).join(', ');
    const more = s.pairs.length > pairsNamedMax ? ` and ${s.pairs.length - pairsNamedMax} more`
      : '';
    return `shard ${s.shardId} is down after ${s.failures.max} failures within ` +
      `${s.failures.windowMs / 1000} s (last: ${s.failures.lastReason}); its pairs ` +
      `${named || '(none)'}${more} are not served`;
  });
  if (degraded.length > 0) detail.shards = degraded.join('; ');
  const paceDetail = pace?.detail() ?? null;
  if (paceDetail !== null) detail.pace = paceDetail;
  return detail;
}
